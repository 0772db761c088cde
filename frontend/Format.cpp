// The formatter: walks the token stream once and decides the whitespace before each token from
// the token before it, the statement starts (from the AST) and the author's line breaks.
#include "frontend/Format.h"

#include <unordered_set>

namespace qspec::frontend {
namespace {

using ast::Kind;

bool isStatement(Kind k) {
  switch (k) {
  case Kind::Version:
  case Kind::Include:
  case Kind::Model:
  case Kind::Defaults:
  case Kind::Tiers:
  case Kind::Protect:
  case Kind::SameScoreGroup:
  case Kind::NamedGroup:
  case Kind::WithGroup:
  case Kind::Override:
  case Kind::Target:
  case Kind::Tune:
  case Kind::TierStmt:
  case Kind::Recipe:
  case Kind::TargetOptions:
  case Kind::Setting:
  case Kind::Metric:
  case Kind::Levels:
  case Kind::TuneExclude:
  case Kind::TuneRaise:
    return true;
  default:
    return false;
  }
}

// What the layout needs from the syntax tree: where statements begin, and the recipe items
// (`group_size=128` is written without spaces around its `=`).
struct Shape {
  std::unordered_set<uint32_t> starts;              // byte offsets
  std::vector<std::pair<uint32_t, uint32_t>> items; // recipe items with a value, [begin, end)
};

void collectShape(const ast::Node &n, Shape &out) {
  if (isStatement(n.kind))
    out.starts.insert(n.range.begin.offset);
  if (n.kind == Kind::RecipeItem && !n.children.empty())
    out.items.emplace_back(n.range.begin.offset, n.range.end.offset);
  for (const auto &c : n.children)
    collectShape(*c, out);
}

class Formatter {
public:
  Formatter(const std::string &text, const std::vector<Token> &toks, const Shape &shape)
      : text_(text), toks_(toks), starts_(shape.starts), items_(shape.items) {}

  std::string run() {
    markInlineBlocks();
    for (size_t i = 0; i < toks_.size(); ++i)
      place(i);
    out_ += '\n';
    return std::move(out_);
  }

private:
  std::string_view tokText(size_t i) const {
    const SourceRange &r = toks_[i].range;
    return std::string_view(text_).substr(r.begin.offset, r.end.offset - r.begin.offset);
  }
  bool is(size_t i, const char *s) const {
    return toks_[i].kind == Token::Kind::Punct && tokText(i) == s;
  }
  bool isComment(size_t i) const {
    return toks_[i].kind == Token::Kind::LineComment || toks_[i].kind == Token::Kind::BlockComment;
  }
  unsigned newlinesBefore(size_t i) const {
    uint32_t from = i == 0 ? 0 : toks_[i - 1].range.end.offset;
    unsigned n = 0;
    for (uint32_t k = from; k < toks_[i].range.begin.offset; ++k)
      n += text_[k] == '\n';
    return n;
  }

  // A `{ }` pair with no line break between them (and no line comment inside) stays on one line.
  void markInlineBlocks() {
    inline_.assign(toks_.size(), false);
    std::vector<size_t> open;
    for (size_t i = 0; i < toks_.size(); ++i) {
      if (is(i, "{")) {
        open.push_back(i);
      } else if (is(i, "}") && !open.empty()) {
        size_t b = open.back();
        open.pop_back();
        bool oneLine = true;
        for (size_t k = b + 1; k <= i && oneLine; ++k)
          oneLine = newlinesBefore(k) == 0 && toks_[k - 1].kind != Token::Kind::LineComment;
        inline_[b] = inline_[i] = oneLine;
      }
    }
  }

  void newline(unsigned blankLines, unsigned extraIndent) {
    while (!out_.empty() && (out_.back() == ' ' || out_.back() == '\t'))
      out_.pop_back();
    out_ += blankLines ? "\n\n" : "\n";
    out_.append(2 * depth_ + extraIndent, ' ');
  }

  bool inRecipeItem(size_t i) const {
    uint32_t at = toks_[i].range.begin.offset;
    for (const auto &[b, e] : items_)
      if (b <= at && at < e)
        return true;
    return false;
  }
  bool glued(size_t i) const {
    if (is(i, ",") || is(i, ";"))
      return true;
    if ((is(i, "=") && inRecipeItem(i)) || (is(i - 1, "=") && inRecipeItem(i - 1)))
      return true;
    return is(i - 1, "-"); // a unary minus: the grammar has no binary one
  }

  void place(size_t i) {
    bool close = is(i, "}");
    if (close) {
      inlineDepth_ -= inline_[i] && inlineDepth_ > 0;
      depth_ -= depth_ > 0;
    }
    if (i > 0)
      separate(i, close);
    std::string_view t = tokText(i);
    if (toks_[i].kind == Token::Kind::LineComment)
      t = t.substr(0, t.find_last_not_of(" \t") + 1);
    out_ += t;
    if (is(i, "{")) {
      ++depth_;
      inlineDepth_ += inline_[i];
    }
  }

  // Does a statement continue at token i (a comment between two lines of one statement)? Yes
  // when the next code token neither starts a statement nor closes a block.
  bool midStatement(size_t i) const {
    size_t j = i;
    while (j < toks_.size() && isComment(j))
      ++j;
    return j < toks_.size() && !starts_.count(toks_[j].range.begin.offset) && !is(j, "}");
  }

  void separate(size_t i, bool close) {
    unsigned nl = newlinesBefore(i);
    bool inLine = inlineDepth_ > 0 || (close && inline_[i]);
    if (isComment(i) && nl == 0) {
      out_ += ' ';
      return;
    }
    bool forced =
        toks_[i - 1].kind == Token::Kind::LineComment || isComment(i) ||
        ((is(i - 1, "{") || close || starts_.count(toks_[i].range.begin.offset)) && !inLine);
    if (is(i - 1, "{") && close) {
      if (!inLine)
        newline(0, 0);
      return; // `{}`
    }
    if (forced) {
      bool blank = nl >= 2 && !is(i - 1, "{") && !close;
      newline(blank ? 1 : 0, midStatement(i) ? 4 : 0);
    } else if (nl > 0 && !inLine) {
      newline(0, 4); // the author's break inside a statement
    } else if (!glued(i)) {
      out_ += ' ';
    }
  }

  const std::string &text_;
  const std::vector<Token> &toks_;
  const std::unordered_set<uint32_t> &starts_;
  const std::vector<std::pair<uint32_t, uint32_t>> &items_;
  std::vector<bool> inline_;
  std::string out_;
  unsigned depth_ = 0, inlineDepth_ = 0;
};

} // namespace

bool formatSpec(FileID file, DiagnosticEngine &diags, std::string &out, const ParseLimits &limits) {
  auto root = parse(file, diags, limits);
  if (!root)
    return false;
  Shape shape;
  for (const auto &item : root->children)
    collectShape(*item, shape);
  const std::string &text = diags.sourceManager().text(file);
  std::vector<Token> toks = tokenize(file, diags.sourceManager());
  if (toks.empty()) {
    out.clear();
    return true;
  }
  out = Formatter(text, toks, shape).run();
  return true;
}

} // namespace qspec::frontend
