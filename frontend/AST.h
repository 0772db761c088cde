// The abstract syntax tree of a .qspec file: a small tree of typed nodes, each with its source
// range. Built from the ANTLR parse tree by ASTBuilder; no antlr4 type leaves frontend/.
#pragma once

#include "ir/Location.h"

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace qspec {
class SourceManager;
}

namespace qspec::ast {

#define QSPEC_AST_KINDS(X)                                                                         \
  X(Spec, "spec")                                                                                  \
  X(Version, "version")                                                                            \
  X(Include, "include")                                                                            \
  X(Model, "model")                                                                                \
  X(Defaults, "defaults")                                                                          \
  X(Tiers, "tiers")                                                                                \
  X(Protect, "protect")                                                                            \
  X(SameScoreGroup, "group-same-score")                                                            \
  X(NamedGroup, "group-named")                                                                     \
  X(WithGroup, "group-with")                                                                       \
  X(Override, "override")                                                                          \
  X(TypeSubject, "type-subject")                                                                   \
  X(NameSubject, "name-subject")                                                                   \
  X(Priority, "priority")                                                                          \
  X(TierStmt, "tier")                                                                              \
  X(Recipe, "recipe")                                                                              \
  X(RecipeItem, "recipe-item")                                                                     \
  X(TargetOptions, "target-options")                                                               \
  X(Target, "target")                                                                              \
  X(Tune, "tune")                                                                                  \
  X(Metric, "metric")                                                                              \
  X(Levels, "levels")                                                                              \
  X(Level, "level")                                                                                \
  X(LevelTerm, "level-term")                                                                       \
  X(TuneExclude, "tune-exclude")                                                                   \
  X(TuneRaise, "tune-raise")                                                                       \
  X(Setting, "setting")                                                                            \
  X(NameSelector, "name-selector")                                                                 \
  X(TypeSelector, "type-selector")                                                                 \
  X(String, "string")                                                                              \
  X(Number, "number")                                                                              \
  X(Ident, "ident")                                                                                \
  X(Allow, "allow")

enum class Kind {
#define X(K, N) K,
  QSPEC_AST_KINDS(X)
#undef X
};
const char *kindName(Kind k);

// One node. `text` holds the node's own word: an identifier, the unescaped string, a number as
// written, an operator (`>=`), a role (`weight`), a keyword variant (`first`). Children are in
// source order.
struct Node {
  Kind kind;
  std::string text;
  SourceRange range;
  // Tune statements: `range` plus the ';' that ends it when one is written (qtune apply edits
  // the statements through these ranges).
  SourceRange statement;
  std::vector<std::unique_ptr<Node>> children;

  Node(Kind k, SourceRange r, std::string t = {}) : kind(k), text(std::move(t)), range(r) {}
  Node *add(std::unique_ptr<Node> n) {
    children.push_back(std::move(n));
    return children.back().get();
  }
  // A deep copy (the ranges still point into the same source file).
  std::unique_ptr<Node> copy() const;
  // Children of kind `k`.
  std::vector<const Node *> all(Kind k) const;
  const Node *first(Kind k) const;
};

// Stable JSON: {"kind", "text"?, "range": "file:l:c-l:c", "children"?}.
void printJSON(const Node &root, const SourceManager &sm, std::ostream &os);

} // namespace qspec::ast
