// One streaming JSON writer for the documents qspec writes at scale (`--emit=ir`, qtune's
// state.json): text exactly as nlohmann::json's dump(indent, ' ', false,
// error_handler_t::replace) prints the same document, without building a tree first. Keys are
// written in the order the caller gives them (nlohmann::json sorts them; ordered_json keeps
// insertion order), so a caller that must match a sorted dump writes its keys sorted.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace qspec::support {

// Appends `s` as a JSON string as nlohmann writes it: '"', '\\' and the C0 controls escaped
// (\b \t \n \f \r, else \u00xx), other bytes as they are, and each invalid UTF-8 sequence (its
// maximal subpart, support/Utf8.h) replaced by U+FFFD.
void appendJsonString(std::string &out, std::string_view s);

class JsonWriter {
public:
  // Where the writer starts: at a value (a whole document, or a value spliced into a larger
  // document at nesting `depth`), or inside an object at nesting `depth` that already holds
  // members, to write more of them (a fragment for rawMembers).
  enum class Start { Value, ObjectMembers };

  // Appends to `out` (which the caller may empty between calls: only appends are made), with
  // `indent` spaces a level (a negative indent writes the compact form, dump(-1)).
  explicit JsonWriter(std::string &out, int indent = 2, int depth = 0, Start start = Start::Value);

  void beginObject();
  void endObject();
  void beginArray();
  void endArray();
  // Starts a member of the current object; its value follows.
  void key(std::string_view name);

  void string(std::string_view s);
  void boolean(bool b);
  void number(int64_t n);
  void null();
  // A value already written as this writer would write it here (a cached fragment written by a
  // writer started at this depth).
  void raw(std::string_view json);
  // Members already written as this writer would write them here, each with its separator (a
  // fragment written by a writer started with Start::ObjectMembers at this object's depth), into
  // an object that already holds a member.
  void rawMembers(std::string_view json);

private:
  void beforeValue();
  void newline(size_t depth);

  struct Level {
    bool object;
    bool empty;
  };
  std::string &out_;
  int indent_;
  size_t base_;
  std::vector<Level> stack_;
  bool afterKey_ = false;
};

} // namespace qspec::support
