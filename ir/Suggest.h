// Suggestions for a selector that selects nothing (an error for a protect, which must protect
// something): a close module name, and the embedding a tied output head shares its weight with.
#pragma once

#include "ir/IR.h"

#include <optional>
#include <string>
#include <string_view>

namespace qspec::ir {

// The module to suggest for `text`, a name or pattern that selects nothing: `text` without a
// tensor suffix (`lm_head.weight` -> `lm_head`) when that names a module, else the module sharing
// the longest leading text with the pattern's literal prefix, if that covers at least half of it
// (ties: the first in inventory order). nullptr when nothing is close.
const Module *suggestModule(const Inventory &inv, std::string_view text);

// The model's output head, decided here once for every layout (docs/inputs.md, "Output head"):
// the input embedding is the first module named `embed_tokens`, `wte`, `word_embeddings`,
// `tok_embeddings` or `embed_in`; the head is `lm_head` beside the base model that holds it (the
// nearest ancestor of the embedding named `model` or `transformer`, else the embedding's
// grandparent): `model.embed_tokens` -> `lm_head`, `language_model.model.embed_tokens` ->
// `language_model.lm_head`, `model.text_model.embed_tokens` -> `lm_head`,
// `model.text_model.model.embed_tokens` -> `model.text_model.lm_head`. A module of that name,
// else the first module named `lm_head` or `embed_out`, is the head in the inventory; without
// one the head is tied to the embedding (it reuses the embedding's weight, so the index does not
// list it), unless the model's config says `tie_word_embeddings: false`.
struct OutputHead {
  std::string name;                  // the head's module name
  const Module *embedding = nullptr; // the embedding it was found from (nullptr: none listed)
  const Module *module = nullptr;    // the head in the inventory; nullptr when tied
  bool tied() const { return module == nullptr; }
};
std::optional<OutputHead> outputHead(const Inventory &inv, const ModelConfig &config);

// The name of the output head when it is tied (outputHead: the inventory lists the embedding and
// no head weight): a Linear at run time that reuses the embedding's weight, which every backend
// matching module names keeps float (msModelSlim's exclude, AMCT's skip_layers). nullopt when the
// inventory is absent or the head is listed or untied.
std::optional<std::string> tiedHeadName(const Inventory &inv, const ModelConfig &config);

// For `text` naming an output head (`lm_head`, `*.lm_head`, optionally with `.weight`) that the
// inventory lacks: the tied head (outputHead), else nullopt.
std::optional<OutputHead> tiedHead(const Inventory &inv, const ModelConfig &config,
                                   std::string_view text);

} // namespace qspec::ir
