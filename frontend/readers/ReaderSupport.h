// Helpers shared by the readers (internal to frontend/readers/; exposes only qspec and std types).
#pragma once

#include "frontend/readers/Readers.h"
#include "ir/BoundedInput.h"
#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qspec::readers::detail {

// One line of a text file: its 1-based number, its text without the newline (and without a
// trailing '\r'), and the byte offset where it starts.
struct Line {
  uint32_t number = 0;
  std::string_view text;
  uint32_t offset = 0;
};
std::vector<Line> splitLines(std::string_view text);

std::string_view trim(std::string_view s);
// Whitespace-separated tokens with their byte offsets inside `s`.
struct Token {
  std::string_view text;
  uint32_t offset = 0;
};
std::vector<Token> tokenize(std::string_view s);
// The readers' whitespace: space, tab, CR, LF, form feed, vertical tab.
inline bool isReaderSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}
// Calls fn(word, offset) for each whitespace-separated word of `s`: tokenize without building a
// vector (the manifest reader runs it on every line of a million-line file).
template <typename Fn> void forEachWord(std::string_view s, Fn &&fn) {
  for (size_t i = 0; i < s.size();) {
    while (i < s.size() && isReaderSpace(s[i]))
      ++i;
    if (i >= s.size())
      break;
    size_t b = i;
    while (i < s.size() && !isReaderSpace(s[i]))
      ++i;
    fn(s.substr(b, i - b), static_cast<uint32_t>(b));
  }
}

// Parses the whole of `s` as a number (strtod rules: "nan" and "inf" parse, and the caller
// checks finiteness). False if `s` is not entirely a number.
bool parseNumber(std::string_view s, double &out);

// Arrays and objects nest at most this deep in any JSON input (index, JSON manifest, safetensors
// header, HMCT scores): a file of 10 MB of `[` would otherwise cost the library's DOM over a GB.
constexpr size_t kMaxJsonDepth = bounded::kMaxNesting;

// Checks that `text` is one well-formed JSON value with no key repeated inside one object and
// nothing nested deeper than kMaxJsonDepth.
// On failure returns false with `offset` (0-based byte) and a `reason` phrase.
// When the problem is a repeated key, `dupPath` (if given) receives its member path (see
// locateJson) and `dupKey` the key.
bool checkJson(std::string_view text, uint32_t &offset, std::string &reason,
               std::vector<uint32_t> *dupPath = nullptr, std::string *dupKey = nullptr);

// True only if `text` is certainly what checkJson accepts (JsonQuickCheck.cpp): one pass over
// plain ASCII JSON. False means "don't know": checkJson then parses with the JSON library.
bool jsonQuickCheck(std::string_view text);
// checkJson without the quick check: the JSON library's answer alone (the json_quickcheck fuzz
// target asserts that the quick check never accepts what this rejects).
bool checkJsonWithLibrary(std::string_view text, uint32_t &offset, std::string &reason,
                          std::vector<uint32_t> *dupPath = nullptr, std::string *dupKey = nullptr);

// The byte offset of a member addressed by `path` (member indices from the root: for an object
// the index of the key, for an array the index of the element). For an object member the
// offset is its key's opening quote. `text` must be valid JSON. nullopt if out of range.
std::optional<uint32_t> locateJson(std::string_view text, const std::vector<uint32_t> &path);

// The offsets of the members of the object or array starting at `containerOffset` (key quotes
// for objects, element starts for arrays), in order. One linear scan.
std::vector<uint32_t> jsonMemberOffsets(std::string_view text, uint32_t containerOffset);
// Given the offset of an object key's opening quote, the offset of its value.
uint32_t jsonValueOffset(std::string_view text, uint32_t keyOffset);

// One member of a JSON object, in file order: its decoded key, where the key's quote is, and the
// text of its value (parse it with the reader's JSON library when needed).
struct JsonMember {
  std::string key;
  uint32_t keyOffset = 0;
  uint32_t valueOffset = 0;
  std::string_view valueText;
};
// The members of the object starting at `containerOffset` (`text` must be valid JSON). Linear in
// the text: parsing a whole document into an insertion-ordered DOM is quadratic in the number of
// members, which made a 45k-tensor index take seconds.
std::vector<JsonMember> jsonObjectMembers(std::string_view text, uint32_t containerOffset);

// A module type inferred from a tensor-free name (docs/inputs.md, "Module types"): Embedding,
// RMSNorm, Linear, or "" when the name rules do not tell.
std::string typeFromName(std::string_view moduleName);

// The type of a weight of [experts, out, in] (Llama-4 style fused experts, GraniteMoE).
constexpr const char kFusedExperts[] = "FusedExperts";
// Whether a component of `moduleName` names experts (`experts`, `block_sparse_moe`, ...).
bool namesExperts(std::string_view moduleName);

// Strips a trailing ".*" (msModelSlim layer scope) so the name names a block.
std::string stripLayerScope(std::string_view name);

bool endsWith(std::string_view s, std::string_view suffix);
// Appends modules to an inventory in file order, rejecting duplicates (with a note at the first
// occurrence) and enforcing ReaderLimits::maxModules. Positions are byte offsets into `file`.
//
// Names are indexed (Inventory::index) in batches by finish(), not one at a time: inserting into
// the hash table in file order costs a few cache misses per name (most of reading a 1M-module
// manifest), inserting in the order of their home slots almost none. The diagnostics are the
// same as checking each name when added, provided the reader calls finish() before every error
// of its own and at the end: the first duplicate in file order is the error, the modules before
// it are kept.
class InventoryBuilder {
public:
  InventoryBuilder(ir::Inventory &inv, DiagnosticEngine &diags, FileID file,
                   const ReaderLimits &limits)
      : inv_(inv), diags_(diags), file_(file), limits_(limits) {}
  InventoryBuilder(const InventoryBuilder &) = delete;
  InventoryBuilder &operator=(const InventoryBuilder &) = delete;
  // Indexes what a reader left unfinished (the index always matches the module list).
  ~InventoryBuilder() { finish(); }

  // Makes room for about `expected` modules (capped at ReaderLimits::maxModules), so a large
  // inventory is not reallocated while it grows.
  void reserve(size_t expected);
  // `nameLen` is the length of the name in the source (for the underline); 0 = one character.
  // `line` 0 = compute it from `offset` (cheap when offsets only grow, as in file order).
  // False (with a diagnostic) at the module limit.
  bool add(std::string_view name, std::string_view type, uint32_t offset, uint32_t nameLen,
           uint32_t line = 0);
  // Indexes the modules added since the last call. If one repeats an earlier name, reports the
  // first such in file order, drops it and every module after it, and returns false.
  bool finish();

private:
  uint32_t lineOf(uint32_t offset);
  void reportDuplicate(size_t dup, uint32_t first);

  ir::Inventory &inv_;
  DiagnosticEngine &diags_;
  FileID file_;
  const ReaderLimits &limits_;
  // Per module: where its name is in the source, the underline length, and its name's hash.
  std::vector<uint32_t> offsets_, nameLens_;
  std::vector<size_t> hashes_;
  size_t indexed_ = 0; // modules [0, indexed_) are in inv_.index
  // lineOf's cursor: the line holding byte `cursorOffset_`.
  uint32_t cursorOffset_ = 0, cursorLine_ = 1;
};

bool startsWith(std::string_view s, std::string_view prefix);

// Frees the text of an input that is not a .qspec (an inventory, a scores, config or mapping
// file, a safetensors header) when its reader is done, whatever the outcome: a spec may name any
// file, a secret too, so no diagnostic quotes its lines, only its file:line:col (the lines stay
// known, so ranges into it still work). Readers' messages likewise say what is wrong without
// repeating the file's bytes (docs/limits.md, "Untrusted checkouts").
class QuoteNothingFrom {
public:
  QuoteNothingFrom(SourceManager &sm, FileID file) : sm_(sm), file_(file) {}
  QuoteNothingFrom(const QuoteNothingFrom &) = delete;
  QuoteNothingFrom &operator=(const QuoteNothingFrom &) = delete;
  ~QuoteNothingFrom() { sm_.dropText(file_); }

private:
  SourceManager &sm_;
  FileID file_;
};

// Two graphs (GraphMap.cpp, docs/inputs.md): the module a node belongs to, dotted, from what
// the exporter left. TorchScript node names: "/model/layers.0/mlp/down_proj/MatMul" ->
// "model.layers.0.mlp.down_proj". The dynamo exporter's `pkg.torch.onnx.name_scopes` (a Python
// list repr) and `namespace` ("name: Class/name: Class") metadata. "" when there is none.
std::string scopeFromNodeName(std::string_view name);
std::string scopeFromNameScopes(std::string_view repr);
std::string scopeFromNamespace(std::string_view ns);
bool readOnnxGraph(const std::string &path, ir::OnnxGraph &out, DiagnosticEngine &diags,
                   SourceRange requestedAt, const ReaderLimits &limits);

} // namespace qspec::readers::detail
