// `qcc import`: the spec an importer builds from a vendor file, before it is printed. Importers
// (one file per vendor format, Import<Vendor>.cpp) fill it from the vendor's document model;
// printSpec writes it as a `.qspec` in the order of docs/language.md (defaults, protect,
// overrides, targets), with the comments carried from the source file.
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <cstdint>
#include <string>
#include <vector>

namespace qspec::import {

// A rule body: the words of `tier`, `weight`, `act` and per-target blocks (`amct { ... }`).
struct RuleBody {
  std::string tier;                      // "" = not written
  std::vector<std::string> weight, act;  // recipe words, in the order written
  std::vector<std::string> targetBlocks; // e.g. "amct { num_of_bins 2048 }"
  bool empty() const {
    return tier.empty() && weight.empty() && act.empty() && targetBlocks.empty();
  }
  std::string text() const; // "tier int8; weight int8 per_channel; act int8"
};

struct Override {
  std::vector<std::string> comments; // written above, one `//` line each
  bool byType = false;
  std::vector<std::string> selectors; // type names, or name patterns (unquoted)
  int priority = 0;
  RuleBody body;
  SourceRange origin; // where the input file says it (invalid: not known)
};

struct TargetBlock {
  std::vector<std::string> comments;
  std::string kind, variant;
  std::vector<std::string> settings; // "batch_num 8", "anti_outlier { ... }"
};

struct ImportedSpec {
  std::vector<std::string> header; // comments at the top
  std::string inventory;           // `model { inventory "..." }` ("" none)
  std::vector<std::string> defaultsComments;
  RuleBody defaults;
  std::vector<std::string> protectComments;
  std::vector<std::string> protectNames, protectTypes; // patterns (unquoted) and types
  std::vector<Override> overrides;
  std::vector<TargetBlock> targets;
  std::vector<std::string> trailer; // comments at the end (merge disagreements)
  // Modules to which the file gives something no spec can say (each reported as not carried where
  // the file says it, e.g. an HMCT node with mixed operand qtypes); the verification skips them.
  std::vector<std::string> undecided;
};

// The .qspec text of `s`. Deterministic: the order is the one the importer gave.
std::string printSpec(const ImportedSpec &s);

// Comments of a line-comment format (`#`: AMCT .cfg, YAML; `//`: HMCT's JSON) by line: whole-line
// comments attach to the next line that holds anything else, trailing comments to their own line.
// Text inside quotes is not a comment.
class Comments {
public:
  explicit Comments(std::string_view text, std::string_view marker = "#");
  // The comments that belong to source line `line` and have not been taken yet.
  std::vector<std::string> take(uint32_t line);
  // The comments above the file's first line of content (the file's header).
  std::vector<std::string> takeLeading();
  // Every comment not taken yet, prefixed with its line ("line 12: ...").
  std::vector<std::string> rest();

private:
  struct C {
    uint32_t attach = 0, line = 0;
    std::string text;
    bool taken = false;
  };
  std::vector<C> all_;
  uint32_t firstContent_ = 0;
};

// A `.qspec` pattern that selects exactly the module named `name` (glob characters escaped).
std::string exactPattern(const std::string &name);

} // namespace qspec::import
