#include "frontend/AST.h"

#include "ir/Location.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace qspec::ast {

const char *kindName(Kind k) {
  switch (k) {
#define X(K, N)                                                                                    \
  case Kind::K:                                                                                    \
    return N;
    QSPEC_AST_KINDS(X)
#undef X
  }
  return "?";
}

std::unique_ptr<Node> Node::copy() const {
  auto n = std::make_unique<Node>(kind, range, text);
  n->statement = statement;
  n->children.reserve(children.size());
  for (const auto &c : children)
    n->children.push_back(c->copy());
  return n;
}

std::vector<const Node *> Node::all(Kind k) const {
  std::vector<const Node *> out;
  for (const auto &c : children)
    if (c->kind == k)
      out.push_back(c.get());
  return out;
}

const Node *Node::first(Kind k) const {
  for (const auto &c : children)
    if (c->kind == k)
      return c.get();
  return nullptr;
}

static nlohmann::ordered_json toJSON(const Node &n, const SourceManager &sm) {
  nlohmann::ordered_json j;
  j["kind"] = kindName(n.kind);
  if (!n.text.empty())
    j["text"] = n.text;
  if (n.range.valid())
    j["range"] = sm.path(n.range.file) + ":" + std::to_string(n.range.begin.line) + ":" +
                 std::to_string(n.range.begin.col) + "-" + std::to_string(n.range.end.line) + ":" +
                 std::to_string(n.range.end.col);
  if (!n.children.empty()) {
    nlohmann::ordered_json kids = nlohmann::ordered_json::array();
    for (const auto &c : n.children)
      kids.push_back(toJSON(*c, sm));
    j["children"] = kids;
  }
  return j;
}

void printJSON(const Node &root, const SourceManager &sm, std::ostream &os) {
  os << toJSON(root, sm).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
     << '\n';
}

} // namespace qspec::ast
