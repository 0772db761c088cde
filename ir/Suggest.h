// Suggestions for a selector that selects nothing (an error for a protect, which must protect
// something): a close module name, and the embedding a tied output head shares its weight with.
#pragma once

#include "ir/IR.h"

#include <string_view>

namespace qspec::ir {

// The module to suggest for `text`, a name or pattern that selects nothing: `text` without a
// tensor suffix (`lm_head.weight` -> `lm_head`) when that names a module, else the module sharing
// the longest leading text with the pattern's literal prefix, if that covers at least half of it
// (ties: the first in inventory order). nullptr when nothing is close.
const Module *suggestModule(const Inventory &inv, std::string_view text);

// For `text` naming an output head (`lm_head`, `*.lm_head`, optionally with `.weight`) that the
// inventory lacks: the `*embed_tokens` module the head is tied to (Llama-3.2, small Qwen,
// Gemma: no `lm_head.weight` in the index, the head reuses the embedding's weight), else nullptr.
const Module *tiedEmbedding(const Inventory &inv, std::string_view text);

} // namespace qspec::ir
