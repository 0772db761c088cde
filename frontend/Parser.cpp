// The only file that sees ANTLR: it runs the generated lexer and parser, routes their errors
// into the diagnostic engine, and turns the parse tree into the AST.
#include "frontend/Parser.h"

#include "QSpecLexer.h"
#include "QSpecParser.h"
#include "antlr4-runtime.h"
#include "ir/BoundedInput.h"
#include "ir/EditDistance.h"
#include "support/Utf8.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace qspec::frontend {

using ast::Kind;
using ast::Node;
using qspec_grammar::QSpecLexer;
using qspec_grammar::QSpecParser;

namespace {

// Maps ANTLR's code-point indexes to byte offsets (they differ only for non-ASCII text).
class OffsetMap {
public:
  explicit OffsetMap(const std::string &text) {
    offsets_.reserve(text.size() + 1);
    for (size_t i = 0; i < text.size();) {
      offsets_.push_back(static_cast<uint32_t>(i));
      unsigned char c = static_cast<unsigned char>(text[i]);
      i += c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
    }
    offsets_.push_back(static_cast<uint32_t>(text.size()));
  }
  uint32_t byteOffset(size_t cp) const {
    return cp < offsets_.size() ? offsets_[cp] : offsets_.back();
  }

private:
  std::vector<uint32_t> offsets_;
};

// ---- Syntax errors in words ------------------------------------------------------------
// ANTLR's "mismatched input 'x' expecting {...}" lists token names, and every keyword again where
// a name is allowed (keywords are valid names). These say what was expected the way clang does.

bool isKeywordToken(const std::string &display) {
  return display.size() > 2 && display.front() == '\'' &&
         std::isalpha(static_cast<unsigned char>(display[1]));
}

std::string tokenInWords(const antlr4::dfa::Vocabulary &voc, size_t type) {
  if (type == antlr4::Token::EOF)
    return "end of file";
  switch (type) {
  case QSpecLexer::IDENT:
    return "a name";
  case QSpecLexer::STRING:
    return "a string in quotes";
  case QSpecLexer::INT:
    return "a whole number";
  case QSpecLexer::FLOAT:
    return "a number";
  default:
    return voc.getDisplayName(type);
  }
}

std::string joinAlternatives(const std::vector<std::string> &words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i)
    out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  return out;
}

// The tokens the parser could have accepted, in words; keywords are left out where a name is
// allowed, and ';' and end of file where a declaration is.
std::vector<std::string> expectedInWords(antlr4::Parser &parser,
                                         const std::vector<ssize_t> &types) {
  const antlr4::dfa::Vocabulary &voc = parser.getVocabulary();
  bool nameAllowed = std::find(types.begin(), types.end(), QSpecLexer::IDENT) != types.end();
  std::vector<std::string> words;
  for (ssize_t t : types) {
    std::string w = tokenInWords(voc, static_cast<size_t>(t));
    if (nameAllowed && isKeywordToken(w))
      continue;
    if (std::find(words.begin(), words.end(), w) == words.end())
      words.push_back(w);
  }
  if (words.size() > 6)
    words.erase(
        std::remove_if(words.begin(), words.end(),
                       [](const std::string &w) { return w == "';'" || w == "end of file"; }),
        words.end());
  return words;
}

// The closest of the keywords `types`, if `text` is a near miss: two edits for a word of three
// to five letters (a swap of two letters, `teir`, is two), a third of the letters for a longer one.
std::string closestKeyword(antlr4::Parser &parser, const std::vector<ssize_t> &types,
                           const std::string &text) {
  std::string best;
  if (text.size() < 3)
    return best;
  size_t bestDist = (text.size() <= 5 ? 2 : text.size() / 3) + 1;
  for (ssize_t t : types) {
    std::string w = parser.getVocabulary().getDisplayName(static_cast<size_t>(t));
    if (!isKeywordToken(w))
      continue;
    std::string kw = w.substr(1, w.size() - 2);
    size_t d = editDistanceAtMost(text, kw, bestDist - 1);
    if (d > 0 && d < bestDist) {
      best = kw;
      bestDist = d;
    }
  }
  return best;
}

// Every keyword of the language (for a misspelt word the parser took as a name).
std::vector<ssize_t> allKeywords(antlr4::Parser &parser) {
  std::vector<ssize_t> out;
  for (size_t t = 1; t <= parser.getVocabulary().getMaxTokenType(); ++t)
    if (isKeywordToken(parser.getVocabulary().getDisplayName(t)))
      out.push_back(static_cast<ssize_t>(t));
  return out;
}

// The last token on the default channel before `tok` (null at the start of the file).
antlr4::Token *previousToken(antlr4::Parser &parser, antlr4::Token *tok) {
  antlr4::TokenStream *ts = parser.getTokenStream();
  for (size_t i = tok->getTokenIndex(); i-- > 0;)
    if (ts->get(i)->getChannel() == antlr4::Token::DEFAULT_CHANNEL)
      return ts->get(i);
  return nullptr;
}

class ErrorListener : public antlr4::BaseErrorListener {
public:
  ErrorListener(DiagnosticEngine &d, FileID f, const OffsetMap &m) : diags_(d), file_(f), map_(m) {}
  void syntaxError(antlr4::Recognizer *recognizer, antlr4::Token *tok, size_t, size_t,
                   const std::string &msg, std::exception_ptr) override {
    ++count;
    SourceManager &sm = diags_.sourceManager();
    SourceRange r;
    if (tok && tok->getType() != antlr4::Token::EOF) {
      r = sm.range(file_, map_.byteOffset(tok->getStartIndex()),
                   map_.byteOffset(tok->getStopIndex() + 1));
    } else if (tok) {
      // At end of file, point just past the last token the parser saw (clang points at the
      // end of the last line, not at an empty line after it).
      uint32_t end = static_cast<uint32_t>(sm.text(file_).size());
      if (auto *parser = dynamic_cast<antlr4::Parser *>(recognizer)) {
        antlr4::TokenStream *ts = parser->getTokenStream();
        for (size_t i = tok->getTokenIndex(); i-- > 0;) {
          antlr4::Token *prev = ts->get(i);
          if (prev->getChannel() == antlr4::Token::DEFAULT_CHANNEL) {
            end = map_.byteOffset(prev->getStopIndex() + 1);
            break;
          }
        }
      }
      r = sm.range(file_, end, end);
    }
    auto *parser = dynamic_cast<antlr4::Parser *>(recognizer);
    if (!parser || !tok) {
      std::string m = msg;
      // ANTLR spells EOF as <EOF>; say it the way a compiler does.
      for (size_t p; (p = m.find("<EOF>")) != std::string::npos;)
        m.replace(p, 5, "end of file");
      diags_.report(DiagID::err_syntax, r, {m});
      return;
    }
    reportInWords(*parser, tok, r);
  }
  unsigned count = 0;

private:
  // "expected '>=', '<=', '>' or '<' after 'accuracy', found '='", plus a did-you-mean note with
  // a fix-it when the token found is a near miss of an expected keyword, or when the word before
  // it is a near miss of any keyword and was taken as a name (`teir float` reads as a target
  // option block `teir { ... }`).
  void reportInWords(antlr4::Parser &parser, antlr4::Token *tok, SourceRange r) {
    std::vector<ssize_t> types = parser.getExpectedTokens().toList();
    std::vector<std::string> words = expectedInWords(parser, types);
    bool atEnd = tok->getType() == antlr4::Token::EOF;
    std::string found = atEnd ? "end of file" : "'" + tok->getText() + "'";
    antlr4::Token *before = previousToken(parser, tok);
    std::string prev = before ? before->getText() : "";
    // `metric accuracy = 0.985` parses as far as a generic setting `metric accuracy`; what the
    // user meant is a metric statement, which needs a comparison next.
    antlr4::Token *twoBack = before ? previousToken(parser, before) : nullptr;
    if (twoBack && twoBack->getText() == "metric") {
      words = {"'>='", "'<='", "'>'", "'<'"};
      prev = "the metric name '" + prev + "'";
    }
    std::string after = prev.empty()                 ? ""
                        : prev.rfind("the ", 0) == 0 ? " after " + prev
                                                     : " after '" + prev + "'";
    size_t rule = parser.getContext() ? parser.getContext()->getRuleIndex() : 0;
    bool topLevel = rule == QSpecParser::RuleSpec || rule == QSpecParser::RuleItem;
    std::string m = topLevel && words.size() > 6
                        ? "expected a declaration (" + joinAlternatives(words) + "), found " + found
                    : words.empty() || words.size() > 8
                        ? "unexpected " + found + after
                        : "expected " + joinAlternatives(words) + after + ", found " + found;
    Diagnostic &d = diags_.report(DiagID::err_syntax, r, {m});
    std::string kw = atEnd ? "" : closestKeyword(parser, types, tok->getText());
    SourceRange at = r;
    if (kw.empty() && before && before->getType() == QSpecLexer::IDENT) {
      kw = closestKeyword(parser, allKeywords(parser), prev);
      at = diags_.sourceManager().range(file_, map_.byteOffset(before->getStartIndex()),
                                        map_.byteOffset(before->getStopIndex() + 1));
    }
    if (!kw.empty()) {
      Diagnostic &n = diags_.note(d, DiagID::note_did_you_mean, at, {kw});
      n.fixits.push_back({at, kw});
    }
  }

  DiagnosticEngine &diags_;
  FileID file_;
  const OffsetMap &map_;
};

// A '{' without its '}': the error at the brace, and a note at the first line after it that
// starts in column 1 (where the next declaration usually begins), else at the end of the file.
void reportUnclosedBrace(antlr4::CommonTokenStream &tokens, antlr4::Token *brace, FileID file,
                         const OffsetMap &map, DiagnosticEngine &diags) {
  SourceManager &sm = diags.sourceManager();
  auto rangeOf = [&](antlr4::Token *t) {
    return sm.range(file, map.byteOffset(t->getStartIndex()),
                    map.byteOffset(t->getStopIndex() + 1));
  };
  Diagnostic &d = diags.report(DiagID::err_unclosed_brace, rangeOf(brace));
  for (antlr4::Token *t : tokens.getTokens()) {
    if (t->getTokenIndex() <= brace->getTokenIndex() ||
        t->getChannel() != antlr4::Token::DEFAULT_CHANNEL)
      continue;
    if (t->getType() == antlr4::Token::EOF)
      break;
    if (t->getCharPositionInLine() == 0) {
      diags.note(d, DiagID::note_block_ends_here, rangeOf(t));
      return;
    }
  }
  // At the end of the last line, not on the empty line after its newline (as clang does).
  const std::string &text = sm.text(file);
  uint32_t end = static_cast<uint32_t>(text.size());
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r'))
    --end;
  diags.note(d, DiagID::note_file_ends_open, sm.range(file, end, end));
}

class Builder {
public:
  Builder(FileID f, SourceManager &sm, const OffsetMap &m, DiagnosticEngine &d)
      : file_(f), sm_(sm), map_(m), diags_(d) {}

  SourceRange range(antlr4::ParserRuleContext *ctx) {
    auto *start = ctx->getStart();
    auto *stop = ctx->getStop();
    uint32_t b = map_.byteOffset(start->getStartIndex());
    uint32_t e = stop ? map_.byteOffset(stop->getStopIndex() + 1) : b;
    return sm_.range(file_, b, std::max(b, e));
  }
  SourceRange range(antlr4::Token *t) {
    return sm_.range(file_, map_.byteOffset(t->getStartIndex()),
                     map_.byteOffset(t->getStopIndex() + 1));
  }
  SourceRange range(antlr4::tree::TerminalNode *n) { return range(n->getSymbol()); }

  std::unique_ptr<Node> str(antlr4::tree::TerminalNode *n) {
    const std::string raw = n->getText();
    std::string body = raw.size() >= 2 ? raw.substr(1, raw.size() - 2) : std::string();
    std::string out;
    size_t badAt = 0;
    SourceRange r = range(n);
    if (!unescapeString(body, out, badAt)) {
      // +1 for the opening quote; the escape's backslash is at body[badAt].
      SourceRange at = sm_.range(file_, r.begin.offset + 1 + static_cast<uint32_t>(badAt),
                                 r.begin.offset + 3 + static_cast<uint32_t>(badAt));
      std::string esc = badAt + 1 < body.size() ? body.substr(badAt + 1, 1) : std::string();
      diags_.report(DiagID::err_bad_escape, at, {esc});
      ok = false;
    }
    return std::make_unique<Node>(Kind::String, r, out);
  }
  std::unique_ptr<Node> ident(QSpecParser::IdentContext *c) {
    return std::make_unique<Node>(Kind::Ident, range(c), c->getText());
  }
  std::unique_ptr<Node> number(QSpecParser::NumberContext *c) {
    return std::make_unique<Node>(Kind::Number, range(c), c->getText());
  }
  std::unique_ptr<Node> value(QSpecParser::ValueContext *c) {
    if (c->STRING())
      return str(c->STRING());
    if (c->number())
      return number(c->number());
    return ident(c->ident());
  }
  std::unique_ptr<Node> setting(QSpecParser::SettingContext *c) {
    auto n = std::make_unique<Node>(Kind::Setting, range(c), c->ident()->getText());
    n->add(ident(c->ident()));
    if (c->block())
      blockInto(*n, c->block());
    for (auto *v : c->value())
      n->add(value(v));
    return n;
  }
  void blockInto(Node &parent, QSpecParser::BlockContext *b) {
    for (auto *s : b->setting())
      parent.add(setting(s));
  }
  std::unique_ptr<Node> selector(QSpecParser::SelectorContext *c) {
    if (auto *t = dynamic_cast<QSpecParser::TypeSelectorContext *>(c))
      return std::make_unique<Node>(Kind::TypeSelector, range(c), t->ident()->getText());
    auto *n = dynamic_cast<QSpecParser::NameSelectorContext *>(c);
    auto s = str(n->STRING());
    s->kind = Kind::NameSelector;
    return s;
  }
  void ruleBody(Node &parent, QSpecParser::RuleBodyContext *b) {
    for (auto *st : b->ruleStmt()) {
      if (auto *t = dynamic_cast<QSpecParser::TierStmtContext *>(st)) {
        auto n = std::make_unique<Node>(Kind::TierStmt, range(st), t->ident()->getText());
        n->add(ident(t->ident()));
        parent.add(std::move(n));
      } else if (auto *r = dynamic_cast<QSpecParser::RecipeStmtContext *>(st)) {
        auto n = std::make_unique<Node>(Kind::Recipe, range(st), r->role->getText());
        for (auto *item : r->recipeItem()) {
          auto *in = n->add(
              std::make_unique<Node>(Kind::RecipeItem, range(item), item->recipeWord()->getText()));
          if (item->value())
            in->add(value(item->value()));
        }
        parent.add(std::move(n));
      } else if (auto *o = dynamic_cast<QSpecParser::TargetOptionsContext *>(st)) {
        auto n = std::make_unique<Node>(Kind::TargetOptions, range(st), o->ident()->getText());
        blockInto(*n, o->block());
        parent.add(std::move(n));
      }
    }
  }

  std::unique_ptr<Node> item(QSpecParser::ItemContext *c) {
    if (auto *d = c->includeDecl()) {
      auto n = std::make_unique<Node>(Kind::Include, range(d));
      n->add(str(d->STRING()));
      return n;
    }
    if (auto *d = c->allowDecl()) {
      auto n = std::make_unique<Node>(Kind::Allow, range(d), d->ident()->getText());
      n->add(ident(d->ident()));
      n->add(str(d->STRING()));
      return n;
    }
    if (auto *d = c->modelDecl()) {
      auto n = std::make_unique<Node>(Kind::Model, range(d));
      if (d->STRING())
        n->add(str(d->STRING()));
      blockInto(*n, d->block());
      return n;
    }
    if (auto *d = c->defaultsDecl()) {
      auto n = std::make_unique<Node>(Kind::Defaults, range(d));
      ruleBody(*n, d->ruleBody());
      return n;
    }
    if (auto *d = c->tiersDecl()) {
      auto n = std::make_unique<Node>(Kind::Tiers, range(d));
      for (auto *i : d->ident())
        n->add(ident(i));
      return n;
    }
    if (auto *d = c->protectDecl()) {
      auto n = std::make_unique<Node>(Kind::Protect, range(d));
      for (auto *s : d->selector())
        n->add(selector(s));
      return n;
    }
    if (auto *d = c->groupDecl()) {
      if (auto *g = dynamic_cast<QSpecParser::SameScoreGroupContext *>(d)) {
        auto n = std::make_unique<Node>(Kind::SameScoreGroup, range(d));
        if (g->STRING())
          n->add(str(g->STRING()));
        return n;
      }
      if (auto *g = dynamic_cast<QSpecParser::NamedGroupContext *>(d)) {
        auto n = std::make_unique<Node>(Kind::NamedGroup, range(d), g->ident()->getText());
        for (auto *s : g->STRING()) {
          auto sel = str(s);
          sel->kind = Kind::NameSelector;
          n->add(std::move(sel));
        }
        return n;
      }
      auto *g = dynamic_cast<QSpecParser::WithGroupContext *>(d);
      auto n = std::make_unique<Node>(Kind::WithGroup, range(d));
      for (auto *s : g->STRING()) {
        auto sel = str(s);
        sel->kind = Kind::NameSelector;
        n->add(std::move(sel));
      }
      return n;
    }
    if (auto *d = c->overrideDecl()) {
      auto n = std::make_unique<Node>(Kind::Override, range(d));
      auto *subj = d->overrideSubject();
      if (auto *t = dynamic_cast<QSpecParser::TypeSubjectContext *>(subj)) {
        n->text = "type";
        n->add(std::make_unique<Node>(Kind::TypeSubject, range(subj), t->ident()->getText()));
      } else {
        n->text = "name";
        auto *ns = dynamic_cast<QSpecParser::NameSubjectContext *>(subj);
        auto s = std::make_unique<Node>(Kind::NameSubject, range(subj));
        for (auto *x : ns->STRING()) {
          auto sel = str(x);
          sel->kind = Kind::NameSelector;
          s->add(std::move(sel));
        }
        n->add(std::move(s));
      }
      if (d->INT()) {
        n->add(std::make_unique<Node>(Kind::Priority, range(d->INT()), d->INT()->getText()));
      }
      ruleBody(*n, d->ruleBody());
      return n;
    }
    if (auto *d = c->targetDecl()) {
      auto ids = d->ident();
      auto n = std::make_unique<Node>(Kind::Target, range(d), ids[0]->getText());
      n->add(ident(ids[0]));
      if (ids.size() > 1)
        n->add(ident(ids[1]));
      blockInto(*n, d->block());
      return n;
    }
    if (auto *d = c->tuneDecl()) {
      auto n = std::make_unique<Node>(Kind::Tune, range(d));
      Node *last = nullptr;
      for (auto *child : d->children) {
        if (auto *st = dynamic_cast<QSpecParser::TuneStmtContext *>(child)) {
          last = n->add(tuneStmt(st));
          last->statement = last->range;
        } else if (auto *t = dynamic_cast<antlr4::tree::TerminalNode *>(child);
                   t && last && t->getText() == ";") {
          last->statement.end = range(t).end;
          last = nullptr;
        }
      }
      return n;
    }
    return nullptr;
  }

  std::unique_ptr<Node> tuneStmt(QSpecParser::TuneStmtContext *st) {
    if (auto *m = dynamic_cast<QSpecParser::MetricStmtContext *>(st)) {
      auto n = std::make_unique<Node>(Kind::Metric, range(st), m->op->getText());
      n->add(ident(m->ident(0)));
      n->add(number(m->number()));
      if (m->pct) { // `>= 99% of float`: children 2 and 3 are the two words after '%'
        n->add(ident(m->of));
        n->add(ident(m->base));
      }
      return n;
    }
    if (auto *l = dynamic_cast<QSpecParser::LevelsStmtContext *>(st)) {
      auto n = std::make_unique<Node>(Kind::Levels, range(st));
      for (auto *e : l->levelExpr()) {
        auto *lv = n->add(std::make_unique<Node>(Kind::Level, range(e), e->getText()));
        for (auto *t : e->levelTerm()) {
          if (t->STRING()) {
            auto s = str(t->STRING());
            lv->add(std::make_unique<Node>(Kind::LevelTerm, range(t), "pattern"))
                ->add(std::move(s));
          } else {
            auto *term = lv->add(std::make_unique<Node>(Kind::LevelTerm, range(t),
                                                        t->which->getText() + (t->pct ? "%" : "")));
            term->add(std::make_unique<Node>(Kind::Number, range(t->INT()), t->INT()->getText()));
          }
        }
        // Level text as the author would read it: "first 4 + last 4".
        std::string text;
        for (auto *t : e->levelTerm()) {
          if (!text.empty())
            text += " + ";
          text += t->STRING()
                      ? t->STRING()->getText()
                      : t->which->getText() + " " + t->INT()->getText() + (t->pct ? "%" : "");
        }
        lv->text = text;
      }
      return n;
    }
    if (auto *x = dynamic_cast<QSpecParser::TuneExcludeStmtContext *>(st)) {
      auto n = std::make_unique<Node>(Kind::TuneExclude, range(st));
      for (auto *s : x->STRING()) {
        auto sel = str(s);
        sel->kind = Kind::NameSelector;
        n->add(std::move(sel));
      }
      return n;
    }
    if (auto *r = dynamic_cast<QSpecParser::TuneRaiseStmtContext *>(st)) {
      auto n = std::make_unique<Node>(Kind::TuneRaise, range(st), r->ident()->getText());
      for (auto *s : r->STRING()) {
        auto sel = str(s);
        sel->kind = Kind::NameSelector;
        n->add(std::move(sel));
      }
      n->add(ident(r->ident()));
      return n;
    }
    auto *s = dynamic_cast<QSpecParser::TuneSettingContext *>(st);
    return setting(s->setting());
  }

  bool ok = true;

private:
  FileID file_;
  SourceManager &sm_;
  const OffsetMap &map_;
  DiagnosticEngine &diags_;
};

} // namespace

std::string qspecString(const std::string &text) {
  std::string out = "\"";
  static const char *hex = "0123456789abcdef";
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else if (size_t n = bounded::invisibleControlAt(text, i)) {
      // A 2- or 3-byte sequence (invisibleControlAt checked it): its code point as \uHHHH.
      uint32_t cp = n == 2 ? ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(text[i + 1]) & 0x3Fu)
                           : ((c & 0x0Fu) << 12) |
                                 ((static_cast<unsigned char>(text[i + 1]) & 0x3Fu) << 6) |
                                 (static_cast<unsigned char>(text[i + 2]) & 0x3Fu);
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4)
        out += hex[(cp >> shift) & 15];
      i += n - 1;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

bool unescapeString(std::string_view body, std::string &out, size_t &badAt) {
  out.clear();
  auto hexval = [](char c) -> int {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    if (i + 1 >= body.size()) {
      badAt = i;
      return false;
    }
    char e = body[++i];
    switch (e) {
    case '"':
      out += '"';
      break;
    case '\\':
      out += '\\';
      break;
    case 'n':
      out += '\n';
      break;
    case 't':
      out += '\t';
      break;
    case 'r':
      out += '\r';
      break;
    case '0':
      out += '\0';
      break;
    case 'x':
    case 'u':
    case 'U': {
      size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
      uint32_t v = 0;
      for (size_t k = 1; k <= digits; ++k) {
        int h = i + k < body.size() ? hexval(body[i + k]) : -1;
        if (h < 0) {
          badAt = i - 1;
          return false;
        }
        v = v * 16 + static_cast<uint32_t>(h);
      }
      if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
        badAt = i - 1;
        return false;
      }
      if (e == 'x')
        out += static_cast<char>(v);
      else
        support::utf8::append(out, v);
      i += digits;
      break;
    }
    default:
      badAt = i - 1;
      return false;
    }
  }
  return true;
}

std::vector<Token> tokenize(FileID file, const SourceManager &sm) {
  const std::string &text = sm.text(file);
  std::vector<Token> out;
  if (support::utf8::firstInvalid(text) != std::string::npos)
    return out; // ANTLR's decoder would throw; parse() reports the byte
  OffsetMap map(text);
  antlr4::ANTLRInputStream input(text);
  QSpecLexer lexer(&input);
  lexer.removeErrorListeners();
  for (auto t = lexer.nextToken(); t->getType() != antlr4::Token::EOF; t = lexer.nextToken()) {
    size_t type = t->getType();
    if (type == QSpecLexer::WS)
      continue;
    Token::Kind k = Token::Kind::Punct;
    if (type == QSpecLexer::IDENT)
      k = Token::Kind::Ident;
    else if (type == QSpecLexer::STRING)
      k = Token::Kind::String;
    else if (type == QSpecLexer::INT || type == QSpecLexer::FLOAT)
      k = Token::Kind::Number;
    else if (type == QSpecLexer::LINE_COMMENT)
      k = Token::Kind::LineComment;
    else if (type == QSpecLexer::BLOCK_COMMENT)
      k = Token::Kind::BlockComment;
    else if (type == QSpecLexer::BAD_CHAR || type == QSpecLexer::UNTERMINATED_STRING)
      k = Token::Kind::Bad;
    else if (isalpha(static_cast<unsigned char>(t->getText()[0])))
      k = Token::Kind::Keyword;
    out.push_back({k, sm.range(file, map.byteOffset(t->getStartIndex()),
                               map.byteOffset(t->getStopIndex() + 1))});
  }
  return out;
}

std::unique_ptr<ast::Node> parse(FileID file, DiagnosticEngine &diags, const ParseLimits &limits) {
  SourceManager &sm = diags.sourceManager();
  const std::string &text = sm.text(file);
  if (text.size() > limits.maxFileBytes) {
    diags.report(DiagID::err_file_too_large, SourceRange{},
                 {sm.path(file), std::to_string(text.size()), std::to_string(limits.maxFileBytes)});
    return nullptr;
  }
  size_t bad = support::utf8::firstInvalid(text);
  if (bad != std::string::npos) {
    diags.report(DiagID::err_bad_character,
                 sm.range(file, static_cast<uint32_t>(bad), static_cast<uint32_t>(bad + 1)),
                 {"\\x" +
                  [](unsigned char c) {
                    const char *h = "0123456789abcdef";
                    return std::string{h[c >> 4], h[c & 15]};
                  }(static_cast<unsigned char>(text[bad])) +
                  " (invalid UTF-8)"});
    return nullptr;
  }
  if (text.find('\0') != std::string::npos) {
    uint32_t at = static_cast<uint32_t>(text.find('\0'));
    diags.report(DiagID::err_bad_character, sm.range(file, at, at + 1), {"\\x00"});
    return nullptr;
  }

  OffsetMap map(text);
  antlr4::ANTLRInputStream input(text);
  QSpecLexer lexer(&input);
  lexer.removeErrorListeners();
  ErrorListener listener(diags, file, map);
  lexer.addErrorListener(&listener);
  antlr4::CommonTokenStream tokens(&lexer);
  tokens.fill();

  // Lexical errors live on channel 2; nesting depth is checked before the recursive parser runs.
  size_t depth = 0;
  bool lexOk = true;
  std::vector<antlr4::Token *> open; // '{' not closed yet
  for (antlr4::Token *t : tokens.getTokens()) {
    SourceRange r =
        sm.range(file, map.byteOffset(t->getStartIndex()), map.byteOffset(t->getStopIndex() + 1));
    if (t->getType() == QSpecLexer::BAD_CHAR) {
      diags.report(DiagID::err_bad_character, r, {t->getText()});
      lexOk = false;
    } else if (t->getType() == QSpecLexer::UNTERMINATED_STRING) {
      diags.report(DiagID::err_unterminated_string,
                   sm.range(file, r.begin.offset, r.begin.offset + 1));
      lexOk = false;
    } else if (t->getText() == "{" && t->getChannel() == 0) {
      if (++depth > limits.maxNesting) {
        diags.report(DiagID::err_nesting_too_deep, r, {std::to_string(limits.maxNesting)});
        return nullptr;
      }
      open.push_back(t);
    } else if (t->getText() == "}" && t->getChannel() == 0 && depth > 0) {
      --depth;
      open.pop_back();
    }
  }
  if (lexOk && !open.empty()) {
    // The parser would complain at the next declaration or at the end of the file; the fix is
    // at the '{' that is never closed (as rustc says), so report it there and stop.
    reportUnclosedBrace(tokens, open.back(), file, map, diags);
    return nullptr;
  }

  // Two-stage parse: SLL prediction (no full-context retries) bailing out at the first error,
  // and only if that fails the usual LL parse with error recovery and the messages.
  QSpecParser parser(&tokens);
  parser.removeErrorListeners();
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
      antlr4::atn::PredictionMode::SLL);
  parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  QSpecParser::SpecContext *tree = nullptr;
  try {
    tree = parser.spec();
  } catch (const std::exception &) { // antlr4::ParseCancellationException: try again with LL
    tree = nullptr;
  }
  if (!tree) {
    tokens.seek(0);
    parser.reset();
    parser.addErrorListener(&listener);
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::LL);
    parser.setErrorHandler(std::make_shared<antlr4::DefaultErrorStrategy>());
  }
  try {
    if (!tree)
      tree = parser.spec();
  } catch (const std::exception &e) {
    diags.report(DiagID::err_syntax, SourceRange{}, {std::string("parser failure: ") + e.what()});
    return nullptr;
  }
  if (listener.count > 0 || !lexOk)
    return nullptr;

  Builder b(file, sm, map, diags);
  auto root =
      std::make_unique<Node>(Kind::Spec, sm.range(file, 0, static_cast<uint32_t>(text.size())));
  if (auto *v = tree->versionDecl())
    root->add(std::make_unique<Node>(Kind::Version, b.range(v), v->INT()->getText()));
  for (auto *it : tree->item())
    if (auto n = b.item(it))
      root->add(std::move(n));
  if (!b.ok)
    return nullptr;
  return root;
}

} // namespace qspec::frontend
