// support::JsonWriter and appendJsonString against nlohmann's dump: the same document gives the
// same bytes, compact and indented, for strings of every kind (escapes, UTF-8, invalid bytes)
// and for nested objects and arrays, empty ones included.
#include "support/Json.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <random>

using json = nlohmann::ordered_json;
using qspec::support::appendJsonString;
using qspec::support::JsonWriter;

namespace {

std::string dumped(const json &j, int indent) {
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string written(std::string_view s) {
  std::string out;
  appendJsonString(out, s);
  return out;
}

// Bytes biased towards what breaks a JSON string: controls, quotes, backslashes, lead and
// continuation bytes, and whole valid sequences.
std::string randomString(std::mt19937 &rng) {
  static const std::vector<std::string> pieces = {"a",
                                                  "Z",
                                                  "/",
                                                  "\"",
                                                  "\\",
                                                  "\n",
                                                  "\t",
                                                  "\b",
                                                  "\f",
                                                  "\r",
                                                  std::string(1, '\0'),
                                                  "\x01",
                                                  "\x1f",
                                                  "\x7f",
                                                  "\xc3\xa9",
                                                  "\xe2\x80\xae",
                                                  "\xf0\x9f\x98\x80",
                                                  "\x80",
                                                  "\xbf",
                                                  "\xc0",
                                                  "\xc1",
                                                  "\xc2",
                                                  "\xe0",
                                                  "\xe0\x80",
                                                  "\xed\xa0\x80",
                                                  "\xef\xbf\xbd",
                                                  "\xf4\x90",
                                                  "\xf5",
                                                  "\xff",
                                                  "\xf0\x9f\x98",
                                                  "\xe2\x82"};
  std::string s;
  size_t n = rng() % 12;
  for (size_t i = 0; i < n; ++i)
    s += pieces[rng() % pieces.size()];
  return s;
}

// A random document, built as a tree for nlohmann and written through the writer alongside.
json randomValue(std::mt19937 &rng, JsonWriter &w, int depth) {
  switch (depth > 3 ? rng() % 4 : rng() % 6) {
  case 0: {
    std::string s = randomString(rng);
    w.string(s);
    return s;
  }
  case 1: {
    bool b = rng() % 2;
    w.boolean(b);
    return b;
  }
  case 2: {
    int64_t n = static_cast<int64_t>(rng()) - (1ll << 31);
    w.number(n);
    return n;
  }
  case 3:
    w.null();
    return nullptr;
  case 4: {
    json a = json::array();
    w.beginArray();
    for (size_t i = rng() % 4; i > 0; --i)
      a.push_back(randomValue(rng, w, depth + 1));
    w.endArray();
    return a;
  }
  default: {
    json o = json::object();
    w.beginObject();
    for (size_t i = rng() % 4; i > 0; --i) {
      std::string k = randomString(rng) + std::to_string(i); // distinct keys
      w.key(k);
      o[k] = randomValue(rng, w, depth + 1);
    }
    w.endObject();
    return o;
  }
  }
}

} // namespace

TEST(JsonString, EscapesAsNlohmannDoes) {
  for (std::string s : {std::string(), std::string("plain"), std::string("q\"b\\s/"),
                        std::string("\b\f\n\r\t\x01\x1f\x7f", 8), std::string("nul\0x", 5),
                        std::string("\xc3\xa9\xe2\x80\xae\xf0\x9f\x98\x80")})
    EXPECT_EQ(written(s), dumped(json(s), -1)) << s;
}

// Invalid UTF-8 becomes one U+FFFD per maximal subpart, as nlohmann's replace handler does.
TEST(JsonString, ReplacesInvalidUtf8AsNlohmannDoes) {
  EXPECT_EQ(written("a\xe0\x80z"), "\"a\xef\xbf\xbd\xef\xbf\xbdz\"");
  EXPECT_EQ(written("\xe1\x80z"), "\"\xef\xbf\xbdz\"");
  EXPECT_EQ(written("\xf0\x9f\x98"), "\"\xef\xbf\xbd\"");
  std::mt19937 rng(42);
  for (int i = 0; i < 20000; ++i) {
    std::string s = randomString(rng);
    ASSERT_EQ(written(s), dumped(json(s), -1)) << testing::PrintToString(s);
  }
}

TEST(JsonWriter, WritesWhatNlohmannDumps) {
  for (int i = 0; i < 2000; ++i)
    for (int indent : {-1, 0, 2, 4}) {
      std::mt19937 rng(static_cast<unsigned>(i)); // document i, the same at every indent
      std::string out;
      JsonWriter w(out, indent);
      json j = randomValue(rng, w, 0);
      ASSERT_EQ(out, dumped(j, indent)) << "document " << i << ", indent " << indent;
    }
}

// Fragments written apart (a cached value, cached members) splice in as if written in place.
TEST(JsonWriter, FragmentsSpliceInPlace) {
  std::string value, members, out;
  {
    JsonWriter v(value, 2, 3); // the value of a member of an object at depth 2
    v.beginObject();
    v.key("dtype");
    v.string("int8");
    v.endObject();
    JsonWriter m(members, 2, 2, JsonWriter::Start::ObjectMembers);
    m.key("tier");
    m.string("high");
    m.key("empty");
    m.beginArray();
    m.endArray();
  }
  JsonWriter w(out);
  w.beginObject();
  w.key("modules");
  w.beginArray();
  w.beginObject();
  w.key("name");
  w.string("m");
  w.rawMembers(members);
  w.key("weight");
  w.raw(value);
  w.endObject();
  w.endArray();
  w.endObject();
  json j = {{"modules",
             {{{"name", "m"},
               {"tier", "high"},
               {"empty", json::array()},
               {"weight", {{"dtype", "int8"}}}}}}};
  EXPECT_EQ(out, dumped(j, 2));
}
