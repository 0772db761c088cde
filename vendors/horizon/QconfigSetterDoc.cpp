// A parser of the generated QconfigSetter subset; see QconfigSetterDoc.h.
#include "vendors/horizon/QconfigSetterDoc.h"
#include "vendors/horizon/HorizonRules.h"

#include "support/Utf8.h"

#include <cctype>

namespace qspec::horizon {

const PyValue *PyValue::kwarg(std::string_view name) const {
  for (const auto &[k, v] : kwargs)
    if (k == name)
      return &v;
  return nullptr;
}

const PyValue *PyValue::dictGet(std::string_view key) const {
  const PyValue *found = nullptr;
  for (const auto &[k, v] : entries)
    if (k.kind == String && k.text == key)
      found = &v;
  return found;
}

const std::vector<PyValue> &QconfigSetterDoc::templates() const {
  static const std::vector<PyValue> none;
  const PyValue *t = setter.kwarg("templates");
  return t && t->kind == PyValue::List ? t->items : none;
}

namespace {

// A token is a slice of the text (24 bytes, no string of its own: a 45k-entry setter has about
// 270k tokens). A string's slice is its inside, decoded when the parser reads it.
struct Token {
  enum Kind : uint8_t { Name, String, Number, Punct, End } kind = End;
  bool escaped = false; // String: its slice holds a backslash escape
  uint32_t items = 0;   // `[` and `{`: the commas before the matching close, plus one
  uint32_t begin = 0, size = 0;
  uint32_t line = 0, column = 0;
};

class Lexer {
public:
  explicit Lexer(std::string_view t, size_t at = 0) : t_(t), i_(at) {}
  std::string error;
  uint32_t errLine = 0, errColumn = 0;

  bool run(std::vector<Token> &out) {
    while (true) {
      skipSpace();
      Token tok;
      tok.line = line_;
      tok.column = col();
      tok.begin = static_cast<uint32_t>(i_);
      if (i_ >= t_.size()) {
        out.push_back(tok);
        return true;
      }
      char c = t_[i_];
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        tok.kind = Token::Name;
        while (i_ < t_.size() &&
               (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_'))
          ++i_;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        tok.kind = Token::Number;
        while (i_ < t_.size() &&
               (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '.' ||
                ((t_[i_] == '-' || t_[i_] == '+') && (t_[i_ - 1] == 'e' || t_[i_ - 1] == 'E'))))
          ++i_;
      } else if (c == '"') {
        tok.kind = Token::String;
        if (!string(tok))
          return false;
        out.push_back(tok);
        continue;
      } else if (std::string_view("()[]{},:=.-").find(c) != std::string_view::npos) {
        tok.kind = Token::Punct;
        ++i_;
      } else {
        return fail("unexpected character in the generated Python");
      }
      tok.size = static_cast<uint32_t>(i_ - tok.begin);
      out.push_back(tok);
    }
  }

  // The decoded text of a "..." string token with escapes, which run() has checked.
  static std::string decode(std::string_view text, const Token &tok) {
    Lexer again(text, tok.begin);
    std::string out;
    again.body(&out);
    return out;
  }

private:
  std::string_view t_;
  size_t i_ = 0, lineStart_ = 0;
  uint32_t line_ = 1;

  uint32_t col() const { return static_cast<uint32_t>(i_ - lineStart_ + 1); }
  bool fail(const std::string &why) {
    error = why;
    errLine = line_;
    errColumn = col();
    return false;
  }
  void newline() {
    ++line_;
    lineStart_ = i_ + 1;
  }
  void skipSpace() {
    while (i_ < t_.size()) {
      char c = t_[i_];
      if (c == '\n') {
        newline();
        ++i_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\\') {
        ++i_;
      } else if (c == '#') {
        while (i_ < t_.size() && t_[i_] != '\n')
          ++i_;
      } else {
        return;
      }
    }
  }
  bool hex(size_t n, uint32_t &cp) {
    cp = 0;
    for (size_t k = 0; k < n; ++k) {
      if (i_ >= t_.size() || !std::isxdigit(static_cast<unsigned char>(t_[i_])))
        return fail("bad escape in a string literal");
      char h = t_[i_++];
      cp = cp * 16 + static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(h))
                                               ? h - '0'
                                               : (std::tolower(h) - 'a' + 10));
    }
    return true;
  }
  // One escape after its backslash, appended to `out` when there is one (else only checked).
  bool escape(std::string *out) {
    if (i_ >= t_.size())
      return fail("unterminated string literal");
    char e = t_[i_++];
    uint32_t cp = 0;
    switch (e) {
    case '\\':
      cp = '\\';
      break;
    case '"':
      cp = '"';
      break;
    case 'n':
      cp = '\n';
      break;
    case 'r':
      cp = '\r';
      break;
    case 't':
      cp = '\t';
      break;
    case 'x':
      if (!hex(2, cp))
        return false;
      break;
    case 'u':
      if (!hex(4, cp))
        return false;
      break;
    case 'U':
      if (!hex(8, cp))
        return false;
      break;
    default:
      return fail("escape the generated Python does not use");
    }
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      return fail("bad code point in a string literal");
    if (out)
      support::utf8::append(*out, cp);
    return true;
  }
  // A "..." string or a """docstring""" (kept as is) from its opening quote: the token's slice
  // is its inside, and whether that holds an escape.
  bool string(Token &tok) {
    if (t_.compare(i_, 3, "\"\"\"") == 0) {
      size_t end = t_.find("\"\"\"", i_ + 3);
      if (end == std::string_view::npos)
        return fail("unterminated docstring");
      for (size_t k = i_; k < end; ++k)
        if (t_[k] == '\n') {
          ++line_;
          lineStart_ = k + 1;
        }
      tok.begin = static_cast<uint32_t>(i_ + 3);
      tok.size = static_cast<uint32_t>(end - (i_ + 3));
      i_ = end + 3;
      return true;
    }
    tok.begin = static_cast<uint32_t>(++i_);
    if (!body(nullptr, &tok.escaped))
      return false;
    tok.size = static_cast<uint32_t>(i_ - tok.begin);
    ++i_;
    return true;
  }
  // A "..." string's inside from i_ to its closing quote, where i_ stops; decoded into `out`
  // when there is one, else only checked.
  bool body(std::string *out, bool *escaped = nullptr) {
    while (i_ < t_.size() && t_[i_] != '"') {
      size_t run = i_; // taken at once up to a quote, escape or newline
      while (run < t_.size() && t_[run] != '"' && t_[run] != '\\' && t_[run] != '\n')
        ++run;
      if (out)
        out->append(t_.substr(i_, run - i_));
      i_ = run;
      if (i_ >= t_.size() || t_[i_] == '"')
        break;
      if (t_[i_++] == '\n')
        return fail("unterminated string literal");
      if (escaped)
        *escaped = true;
      if (!escape(out))
        return false;
    }
    if (i_ >= t_.size())
      return fail("unterminated string literal");
    return true;
  }
};

// Each `[` and `{` learns how many items it may hold (its commas at its own depth, plus one), so
// the parser reserves a list or dict once: a 45k-entry dict grown by doubling allocated and
// cleared about three times its 11 MB. One pass with a stack; unmatched brackets keep 0.
void countItems(std::string_view text, std::vector<Token> &toks) {
  std::vector<size_t> open;
  for (size_t k = 0; k < toks.size(); ++k) {
    if (toks[k].kind != Token::Punct)
      continue;
    char c = text[toks[k].begin];
    if (c == '[' || c == '{' || c == '(') {
      open.push_back(k);
      toks[k].items = 1;
    } else if (c == ',' && !open.empty()) {
      ++toks[open.back()].items;
    } else if ((c == ']' || c == '}' || c == ')') && !open.empty()) {
      open.pop_back();
    }
  }
}

class Parser {
public:
  Parser(std::string_view text, std::vector<Token> toks) : text_(text), t_(std::move(toks)) {}
  std::string error;
  uint32_t errLine = 0, errColumn = 0;

  bool run(QconfigSetterDoc &doc) {
    std::string marchVar;
    for (size_t k = 0; k + 2 < t_.size(); ++k) {
      if (isName(k, "MARCH") && isPunct(k + 1, "=") && k + 3 < t_.size() &&
          (k == 0 || t_[k - 1].line != t_[k].line))
        marchVar = marchAt(k + 2);
      if (isName(k, "set_march") && isPunct(k + 1, "(")) {
        doc.marchSet = true;
        doc.marchLine = t_[k + 2].line;
        doc.marchColumn = t_[k + 2].column;
        doc.march = isName(k + 2, "MARCH") ? marchVar : marchAt(k + 2);
      }
      if (isName(k, "QconfigSetter") && isPunct(k + 1, "(")) {
        i_ = k;
        return value(doc.setter, 0);
      }
    }
    return fail(t_.back(), "no QconfigSetter(...) call");
  }

private:
  std::string_view text_;
  std::vector<Token> t_;
  size_t i_ = 0;

  std::string_view textAt(size_t k) const { return text_.substr(t_[k].begin, t_[k].size); }
  // A string token's text, decoded.
  std::string stringAt(size_t k) const {
    return t_[k].escaped ? Lexer::decode(text_, t_[k]) : std::string(textAt(k));
  }
  // The march the expression at token k gives: a string's text, a March constant's march string,
  // else the dotted name as written ("" for anything else).
  std::string marchAt(size_t k) const {
    if (t_[k].kind == Token::String)
      return stringAt(k);
    std::string name;
    for (; t_[k].kind == Token::Name; k += 2) {
      name += textAt(k);
      if (!isPunct(k + 1, "."))
        break;
      name += '.';
    }
    std::string march = marchForConstant(name);
    return march.empty() ? name : march;
  }
  bool isName(size_t k, const char *s) const { return t_[k].kind == Token::Name && textAt(k) == s; }
  // Every punctuation token is one character.
  bool isPunct(size_t k, const char *s) const {
    return t_[k].kind == Token::Punct && text_[t_[k].begin] == s[0];
  }
  bool fail(const Token &at, const std::string &why) {
    if (error.empty()) {
      error = why;
      errLine = at.line;
      errColumn = at.column;
    }
    return false;
  }
  bool expect(const char *p) {
    if (!isPunct(i_, p))
      return fail(t_[i_], std::string("expected '") + p + "'");
    ++i_;
    return true;
  }
  // Items up to `close`, separated by commas, a trailing comma allowed.
  template <typename F> bool sequence(const char *close, F item) {
    while (!isPunct(i_, close)) {
      if (t_[i_].kind == Token::End)
        return fail(t_[i_], std::string("expected '") + close + "'");
      if (!item())
        return false;
      if (!isPunct(i_, ","))
        break;
      ++i_;
    }
    return expect(close);
  }
  bool call(PyValue &v, int depth) {
    v.kind = PyValue::Call;
    ++i_;
    return sequence(")", [&] {
      if (t_[i_].kind == Token::Name && isPunct(i_ + 1, "=")) {
        v.kwargs.emplace_back(std::string(textAt(i_)), PyValue{});
        i_ += 2;
        return value(v.kwargs.back().second, depth + 1);
      }
      v.items.emplace_back();
      return value(v.items.back(), depth + 1);
    });
  }
  bool name(PyValue &v, int depth) {
    v.text.assign(textAt(i_++));
    while (isPunct(i_, ".") && t_[i_ + 1].kind == Token::Name) {
      v.text += '.';
      v.text += textAt(i_ + 1);
      i_ += 2;
    }
    if (v.text == "True" || v.text == "False") {
      v.kind = PyValue::Bool;
      return true;
    }
    v.kind = v.text == "None" ? PyValue::None : PyValue::Name;
    return isPunct(i_, "(") ? call(v, depth) : true;
  }
  bool value(PyValue &v, int depth) {
    const Token &tok = t_[i_];
    v.line = tok.line;
    v.column = tok.column;
    if (depth > 64)
      return fail(tok, "nested too deeply");
    switch (tok.kind) {
    case Token::Name:
      return name(v, depth);
    case Token::String:
      v.kind = PyValue::String;
      v.text = stringAt(i_++);
      return true;
    case Token::Number:
      v.kind = PyValue::Number;
      v.text.assign(textAt(i_++));
      return true;
    case Token::End:
      return fail(tok, "unexpected end of the file");
    case Token::Punct:
      break;
    }
    if (isPunct(i_, "-") && t_[i_ + 1].kind == Token::Number) {
      v.kind = PyValue::Number;
      v.text = "-" + std::string(textAt(i_ + 1));
      i_ += 2;
      return true;
    }
    if (isPunct(i_, "[")) {
      v.kind = PyValue::List;
      v.items.reserve(tok.items);
      ++i_;
      return sequence("]", [&] {
        v.items.emplace_back();
        return value(v.items.back(), depth + 1);
      });
    }
    if (isPunct(i_, "{")) {
      v.kind = PyValue::Dict;
      v.entries.reserve(tok.items);
      ++i_;
      return sequence("}", [&] {
        v.entries.emplace_back();
        return value(v.entries.back().first, depth + 1) && expect(":") &&
               value(v.entries.back().second, depth + 1);
      });
    }
    return fail(tok, "unexpected '" + std::string(textAt(i_)) + "'");
  }
};

} // namespace

bool parseQconfigSetter(std::string_view text, QconfigSetterDoc &doc, std::string &error,
                        uint32_t &line, uint32_t &column) {
  doc = QconfigSetterDoc{};
  if (text.size() > UINT32_MAX) { // a token's slice is 32-bit
    error = "the generated Python is larger than 4 GiB";
    line = column = 1;
    return false;
  }
  Lexer lex(text);
  std::vector<Token> toks;
  toks.reserve(text.size() / 8);
  if (!lex.run(toks)) {
    error = lex.error;
    line = lex.errLine;
    column = lex.errColumn;
    return false;
  }
  countItems(text, toks);
  Parser p(text, std::move(toks));
  if (!p.run(doc)) {
    error = p.error;
    line = p.errLine;
    column = p.errColumn;
    return false;
  }
  return true;
}

} // namespace qspec::horizon
