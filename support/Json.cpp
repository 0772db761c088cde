// The JSON writer; see Json.h.
#include "support/Json.h"

#include "support/Utf8.h"

#include <cassert>

namespace qspec::support {

void appendJsonString(std::string &out, std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  out += '"';
  size_t plain = 0; // start of the bytes not yet appended, all written as they are
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    uint32_t cp;
    size_t bad = 0, len = c < 0x80 ? 1 : utf8::decode(s, i, cp, &bad);
    if (len > 1) { // a valid multi-byte sequence: written as it is
      i += len;
      continue;
    }
    out.append(s.data() + plain, i - plain);
    if (len == 0) {
      out += "\xEF\xBF\xBD"; // U+FFFD for the maximal subpart
      i += bad;
    } else {
      switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 15];
      }
      ++i;
    }
    plain = i;
  }
  out.append(s.data() + plain, s.size() - plain);
  out += '"';
}

JsonWriter::JsonWriter(std::string &out, int indent, int depth, Start start)
    : out_(out), indent_(indent), base_(static_cast<size_t>(depth)) {
  if (start == Start::ObjectMembers)
    stack_.push_back({true, false});
}

void JsonWriter::newline(size_t depth) {
  if (indent_ < 0)
    return;
  out_ += '\n';
  out_.append(depth * static_cast<size_t>(indent_), ' ');
}

void JsonWriter::beforeValue() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (stack_.empty())
    return;
  Level &top = stack_.back();
  assert(!top.object && "a member's value needs its key first");
  if (!top.empty)
    out_ += ',';
  top.empty = false;
  newline(base_ + stack_.size());
}

void JsonWriter::key(std::string_view name) {
  assert(!stack_.empty() && stack_.back().object && !afterKey_);
  Level &top = stack_.back();
  if (!top.empty)
    out_ += ',';
  top.empty = false;
  newline(base_ + stack_.size());
  appendJsonString(out_, name);
  out_ += indent_ < 0 ? ":" : ": ";
  afterKey_ = true;
}

void JsonWriter::beginObject() {
  beforeValue();
  out_ += '{';
  stack_.push_back({true, true});
}

void JsonWriter::beginArray() {
  beforeValue();
  out_ += '[';
  stack_.push_back({false, true});
}

void JsonWriter::endObject() {
  assert(!stack_.empty() && stack_.back().object && !afterKey_);
  if (!stack_.back().empty)
    newline(base_ + stack_.size() - 1);
  stack_.pop_back();
  out_ += '}';
}

void JsonWriter::endArray() {
  assert(!stack_.empty() && !stack_.back().object);
  if (!stack_.back().empty)
    newline(base_ + stack_.size() - 1);
  stack_.pop_back();
  out_ += ']';
}

void JsonWriter::string(std::string_view s) {
  beforeValue();
  appendJsonString(out_, s);
}

void JsonWriter::boolean(bool b) {
  beforeValue();
  out_ += b ? "true" : "false";
}

void JsonWriter::number(int64_t n) {
  beforeValue();
  out_ += std::to_string(n);
}

void JsonWriter::null() {
  beforeValue();
  out_ += "null";
}

void JsonWriter::raw(std::string_view json) {
  beforeValue();
  out_ += json;
}

void JsonWriter::rawMembers(std::string_view json) {
  assert(!stack_.empty() && stack_.back().object && !stack_.back().empty && !afterKey_);
  out_ += json;
}

} // namespace qspec::support
