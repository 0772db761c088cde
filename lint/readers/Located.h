// Located trees for the vendor files qlint reads: YAML (msModelSlim practices) and JSON (HMCT
// quant_config, after stripping comments as HMCT does). Every node keeps its source range, and
// mappings keep every key in file order, duplicates included, so rules can point at them.
// yaml-cpp stays inside LocatedYaml.cpp.
#pragma once

#include "ir/Location.h"

#include <string>
#include <utility>
#include <vector>

namespace qspec::lint {

struct LNode {
  enum Kind { Null, Scalar, Map, Seq } kind = Null;
  std::string value;   // scalar text (unescaped)
  bool quoted = false; // scalar was quoted (a YAML non-plain scalar, a JSON string)
  bool alias = false;  // YAML: this node came from `*alias`
  SourceRange range;   // where the node starts (scalars: the whole token)
  std::vector<std::pair<LNode, LNode>> map; // key, value; in file order, duplicates kept
  std::vector<LNode> seq;

  bool isMap() const { return kind == Map; }
  bool isSeq() const { return kind == Seq; }
  bool isScalar() const { return kind == Scalar; }
  // The value of the last entry whose key is `key` (nullptr if none or not a map).
  const LNode *get(const std::string &key) const;
  // Scalar text or "" for non-scalars.
  const std::string &text() const { return value; }
};

struct ParseError {
  SourceRange range;
  std::string message;
};

// Parses the first YAML document of `file`. On a syntax error returns false and fills `err`.
bool parseLocatedYaml(SourceManager &sm, FileID file, LNode &root, ParseError &err);

// Replaces `//` line comments and `/* */` block comments by spaces (newlines kept), the way HMCT
// strips them before json.loads (it ignores string boundaries, and so does this).
std::string stripJsonComments(const std::string &text);
// Parses JSON text (comments already stripped, same byte offsets as `file`).
bool parseLocatedJson(SourceManager &sm, FileID file, const std::string &text, LNode &root,
                      ParseError &err);

} // namespace qspec::lint
