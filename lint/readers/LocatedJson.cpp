// A small JSON parser that keeps locations and duplicate keys (nlohmann_json drops both). Input
// is the file text with comments already blanked out, so offsets are the file's offsets.
#include "lint/readers/Located.h"

#include <cstdlib>

namespace qspec::lint {

std::string stripJsonComments(const std::string &text) {
  std::string out = text;
  size_t i = 0, n = out.size();
  while (i < n) {
    if (out[i] == '/' && i + 1 < n && out[i + 1] == '/') {
      while (i < n && out[i] != '\n')
        out[i++] = ' ';
    } else if (out[i] == '/' && i + 1 < n && out[i + 1] == '*') {
      size_t end = out.find("*/", i + 2);
      size_t stop = end == std::string::npos ? n : end + 2;
      for (; i < stop; ++i)
        if (out[i] != '\n')
          out[i] = ' ';
    } else {
      ++i;
    }
  }
  return out;
}

namespace {

class JsonParser {
public:
  JsonParser(SourceManager &sm, FileID f, const std::string &t) : sm_(sm), file_(f), t_(t) {}

  bool parseDocument(LNode &root, ParseError &err) {
    skip();
    if (!value(root, 0))
      return fail(err);
    skip();
    if (i_ < t_.size()) {
      error("unexpected text after the JSON value");
      return fail(err);
    }
    return true;
  }

private:
  bool fail(ParseError &err) {
    err = err_;
    return false;
  }
  void error(const std::string &msg) {
    if (err_.message.empty()) {
      size_t at = i_ < t_.size() ? i_ : t_.size();
      err_.range = sm_.range(file_, static_cast<uint32_t>(at), static_cast<uint32_t>(at + 1));
      err_.message = msg;
    }
  }
  void skip() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r'))
      ++i_;
  }
  bool value(LNode &n, int depth) {
    if (depth > 256) {
      error("JSON nested too deeply");
      return false;
    }
    if (i_ >= t_.size()) {
      error("unexpected end of input; expected a value");
      return false;
    }
    switch (t_[i_]) {
    case '{':
      return object(n, depth);
    case '[':
      return array(n, depth);
    case '"':
      return string(n);
    default:
      return scalar(n);
    }
  }
  // After an object member or an array item: a ',' (more follow), the closing bracket, or an
  // error.
  enum class Next { More, Closed, Error };
  Next afterItem(char close) {
    skip();
    if (i_ < t_.size() && (t_[i_] == ',' || t_[i_] == close))
      return t_[i_++] == ',' ? Next::More : Next::Closed;
    error(std::string("expected ',' or '") + close + "'");
    return Next::Error;
  }
  // An object, at its '{'.
  bool object(LNode &n, int depth) {
    n.kind = LNode::Map;
    n.range = sm_.range(file_, static_cast<uint32_t>(i_), static_cast<uint32_t>(i_ + 1));
    ++i_;
    skip();
    if (i_ < t_.size() && t_[i_] == '}') {
      ++i_;
      return true;
    }
    while (true) {
      skip();
      if (i_ >= t_.size() || t_[i_] != '"') {
        error(i_ < t_.size() && t_[i_] == '}' ? "trailing comma before '}'"
              : i_ < t_.size() && t_[i_] == '#'
                  ? "'#' comments are not JSON (HMCT strips only // and /* */ comments)"
                  : "expected a string key");
        return false;
      }
      LNode key, val;
      if (!string(key))
        return false;
      skip();
      if (i_ >= t_.size() || t_[i_] != ':') {
        error("expected ':' after the key");
        return false;
      }
      ++i_;
      skip();
      if (!value(val, depth + 1))
        return false;
      n.map.emplace_back(std::move(key), std::move(val));
      if (Next next = afterItem('}'); next != Next::More)
        return next == Next::Closed;
    }
  }
  // An array, at its '['.
  bool array(LNode &n, int depth) {
    n.kind = LNode::Seq;
    n.range = sm_.range(file_, static_cast<uint32_t>(i_), static_cast<uint32_t>(i_ + 1));
    ++i_;
    skip();
    if (i_ < t_.size() && t_[i_] == ']') {
      ++i_;
      return true;
    }
    while (true) {
      skip();
      if (i_ < t_.size() && t_[i_] == ']') {
        error("trailing comma before ']'");
        return false;
      }
      LNode item;
      if (!value(item, depth + 1))
        return false;
      n.seq.push_back(std::move(item));
      if (Next next = afterItem(']'); next != Next::More)
        return next == Next::Closed;
    }
  }
  // A literal (true, false, null) or a number.
  bool scalar(LNode &n) {
    const char c = t_[i_];
    size_t j = i_;
    while (j < t_.size() && (isalnum(static_cast<unsigned char>(t_[j])) || t_[j] == '-' ||
                             t_[j] == '+' || t_[j] == '.'))
      ++j;
    std::string word = t_.substr(i_, j - i_);
    bool ok = word == "true" || word == "false" || word == "null";
    if (!ok && !word.empty()) {
      char *end = nullptr;
      std::strtod(word.c_str(), &end);
      ok = end && *end == '\0' && (isdigit(static_cast<unsigned char>(word[0])) || word[0] == '-');
    }
    if (!ok) {
      error(c == '#' ? "'#' comments are not JSON (HMCT strips only // and /* */ comments)"
                     : "expected a value");
      return false;
    }
    n.kind = word == "null" ? LNode::Null : LNode::Scalar;
    n.value = word;
    n.range = sm_.range(file_, static_cast<uint32_t>(i_), static_cast<uint32_t>(j));
    i_ = j;
    return true;
  }
  bool string(LNode &n) {
    size_t start = i_++;
    std::string out;
    while (i_ < t_.size() && t_[i_] != '"') {
      char c = t_[i_];
      if (c == '\n' || static_cast<unsigned char>(c) < 0x20) {
        error("control character in a string");
        return false;
      }
      if (c == '\\') {
        if (i_ + 1 >= t_.size())
          break;
        char e = t_[i_ + 1];
        i_ += 2;
        switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          if (i_ + 4 > t_.size()) {
            error("bad \\u escape");
            return false;
          }
          unsigned cp = static_cast<unsigned>(std::strtoul(t_.substr(i_, 4).c_str(), nullptr, 16));
          i_ += 4;
          if (cp < 0x80) {
            out += static_cast<char>(cp);
          } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
          }
          break;
        }
        default:
          --i_;
          error("bad escape in a string");
          return false;
        }
        continue;
      }
      out += c;
      ++i_;
    }
    if (i_ >= t_.size()) {
      i_ = start;
      error("missing terminating '\"' character");
      return false;
    }
    ++i_;
    n.kind = LNode::Scalar;
    n.quoted = true;
    n.value = std::move(out);
    n.range = sm_.range(file_, static_cast<uint32_t>(start), static_cast<uint32_t>(i_));
    return true;
  }

  SourceManager &sm_;
  FileID file_;
  const std::string &t_;
  size_t i_ = 0;
  ParseError err_;
};

} // namespace

bool parseLocatedJson(SourceManager &sm, FileID file, const std::string &text, LNode &root,
                      ParseError &err) {
  JsonParser p(sm, file, text);
  return p.parseDocument(root, err);
}

} // namespace qspec::lint
