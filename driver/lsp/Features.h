// What the language server answers about a position of a resolved model, in qspec types:
// hover text, the definition's place, completion candidates and the document's outline.
// Offsets are byte offsets into the document's text.
#pragma once

#include "driver/lsp/Workspace.h"

#include <optional>
#include <string>
#include <vector>

namespace qspec::lsp {

struct HoverInfo {
  SourceRange range; // what the hover is about
  std::string markdown;
};
// A selector: how many modules it selects and the first few; for a selector of a protect or an
// override, also how many modules' tier the rule decides, and with `saved` (the model of the file
// as saved, when the buffer differs) how many the same rule decides there (the same kind and
// selectors, as `qcc diff` of the two would show). A module name (a selector that selects one
// module, or a string naming a module): its resolved settings as `qcc --explain` prints them.
std::optional<HoverInfo> hover(const Model &m, uint32_t offset, const Model *saved = nullptr);

// `qcc --explain NAME` on the model: every resolved setting of module `name` and the rule that
// decided it; nullopt when the model is not resolved or has no such module.
std::optional<std::string> explain(const Model &m, const std::string &name);

struct DefinitionTarget {
  std::string path;
  uint32_t line = 1, col = 1; // 1-based; col in bytes
  SourceRange range;          // when the target is in the model's source manager
};
// An `include`d file, the inventory / scores / same-score file a string names, a module name
// (its line in a manifest inventory), a declared group's name (its declaration).
std::optional<DefinitionTarget> definition(const Model &m, uint32_t offset);

enum class CompletionKind { Keyword, Value, Module, Setting, Target };
struct CompletionItem {
  std::string label;
  CompletionKind kind;
  std::string detail;
};
// Inside a string: module names of the inventory starting with what is typed (at most `limit`;
// `incomplete` says there were more). Elsewhere: keywords, tiers, recipe words, target kinds and
// their settings. `text` is the current text (it need not parse); `m` gives the inventory.
std::vector<CompletionItem> complete(const Model &m, const std::string &text, uint32_t offset,
                                     size_t limit, bool &incomplete);

enum class SymbolKind { Model, Defaults, Tiers, Protect, Group, Override, Target, Tune, Include };
struct Symbol {
  std::string name, detail;
  SymbolKind kind;
  SourceRange range, selection;
};
// The top-level items of the document itself (not of included files).
std::vector<Symbol> symbols(const Model &m);

} // namespace qspec::lsp
