// The bounded-input layer (ir/BoundedInput.h): regular files only (a FIFO refused without waiting
// for a writer), the size cap, symlinks refused when asked, nesting counted before any parse,
// strict UTF-8, repeated keys; each refusal with its own kind and message.
#include "ir/BoundedInput.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace qspec::bounded;

namespace {

// A fresh folder under the test's temporary directory.
std::string scratchDir(const std::string &name) {
  const char *base = std::getenv("TMPDIR");
  std::string dir = std::string(base && *base ? base : "/tmp") + "/qspec-bounded-" + name + "-" +
                    std::to_string(::getpid());
  std::string cmd = "rm -rf '" + dir + "' && mkdir -p '" + dir + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  return dir;
}

void writeFile(const std::string &path, const std::string &text) {
  std::ofstream(path, std::ios::binary) << text;
}

} // namespace

TEST(BoundedInput, ReadsARegularFile) {
  std::string dir = scratchDir("regular");
  writeFile(dir + "/a.json", "{\"a\": 1}");
  std::string out;
  Problem p = readBoundedFile(dir + "/a.json", out);
  EXPECT_FALSE(p) << p.message;
  EXPECT_EQ(out, "{\"a\": 1}");
}

TEST(BoundedInput, RefusesAFifoWithoutBlocking) {
  // Before the O_NONBLOCK open this call waited forever for a writer.
  std::string dir = scratchDir("fifo");
  ASSERT_EQ(::mkfifo((dir + "/f").c_str(), 0600), 0);
  std::string out;
  Problem p = readBoundedFile(dir + "/f", out);
  EXPECT_EQ(p.kind, Refusal::NotRegular);
  EXPECT_EQ(p.message, "is a FIFO, not a regular file");
  p = readBoundedFile(dir, out);
  EXPECT_EQ(p.kind, Refusal::NotRegular);
  EXPECT_EQ(p.message, "is a directory, not a regular file");
}

TEST(BoundedInput, RefusesAFileOverTheCapFromItsSize) {
  std::string dir = scratchDir("size");
  writeFile(dir + "/big", std::string(100, 'x'));
  std::string out;
  ReadOptions opt;
  opt.maxBytes = 99;
  Problem p = readBoundedFile(dir + "/big", out, opt);
  EXPECT_EQ(p.kind, Refusal::TooLarge);
  EXPECT_EQ(p.message, "is 100 bytes, over the limit of 99 bytes");
  EXPECT_TRUE(out.empty());
  opt.maxBytes = 100;
  EXPECT_FALSE(readBoundedFile(dir + "/big", out, opt));
}

TEST(BoundedInput, RefusesASymlinkWhenLinksAreNotFollowed) {
  std::string dir = scratchDir("link");
  writeFile(dir + "/real", "x");
  ASSERT_EQ(::symlink((dir + "/real").c_str(), (dir + "/link").c_str()), 0);
  std::string out;
  EXPECT_FALSE(readBoundedFile(dir + "/link", out)); // followed by default
  ReadOptions opt;
  opt.followSymlinks = false;
  Problem p = readBoundedFile(dir + "/link", out, opt);
  EXPECT_EQ(p.kind, Refusal::SymlinkName);
  p = readBoundedFile(dir + "/missing", out, opt);
  EXPECT_EQ(p.kind, Refusal::CannotOpen);
  EXPECT_EQ(p.error, ENOENT);
}

TEST(BoundedInput, NestingIsCountedOutsideStringsAndComments) {
  EXPECT_EQ(nestingPastLimit("[[[]]]", Syntax::Json, 3), std::string::npos);
  EXPECT_EQ(nestingPastLimit("[[[[]]]]", Syntax::Json, 3), 3u);
  EXPECT_EQ(nestingPastLimit("[\"[[[[\", [[]]]", Syntax::Json, 3), std::string::npos);
  EXPECT_EQ(nestingPastLimit("[\"\\\"[[[[\"]", Syntax::Json, 1), std::string::npos);
  // YAML: quoted scalars and comments do not count; a quote inside a plain scalar is no quote.
  EXPECT_EQ(nestingPastLimit("a: '[[[['\n# [[[[\nb: [x]\n", Syntax::Yaml, 1), std::string::npos);
  EXPECT_EQ(nestingPastLimit("a: don't [[\n", Syntax::Yaml, 1), 10u);
  std::string deep(200000, '[');
  EXPECT_EQ(nestingPastLimit(deep, Syntax::Yaml), kMaxNesting);
}

TEST(BoundedInput, StrictUtf8) {
  EXPECT_EQ(firstInvalidUtf8("caf\xc3\xa9"), std::string::npos);
  EXPECT_EQ(firstInvalidUtf8("caf\xe9"), 3u);
  EXPECT_EQ(firstInvalidUtf8("\xc0\x80"), 0u);         // overlong
  EXPECT_EQ(firstInvalidUtf8("x\xed\xa0\x80"), 1u);    // surrogate
  EXPECT_EQ(firstInvalidUtf8("\xf4\x90\x80\x80"), 0u); // above U+10FFFF
}

TEST(BoundedInput, JsonRefusalsHaveTheirOwnMessages) {
  EXPECT_FALSE(checkJsonDocument("{\"a\": [1, 2, {\"b\": null}]}"));
  Problem p = checkJsonDocument("{\"a\": 1, \"a\": 2}");
  EXPECT_EQ(p.kind, Refusal::DuplicateKey);
  EXPECT_EQ(p.message, "key 'a' appears twice in one object");
  EXPECT_EQ(p.offset, 9u);
  // The same key in two objects is fine.
  EXPECT_FALSE(checkJsonDocument("[{\"a\": 1}, {\"a\": 2}]"));
  p = checkJsonDocument("{\"a\": \"\xff\"}");
  EXPECT_EQ(p.kind, Refusal::InvalidUtf8);
  EXPECT_EQ(p.offset, 7u);
  p = checkJsonDocument(std::string(1000, '['));
  EXPECT_EQ(p.kind, Refusal::TooDeep);
  EXPECT_EQ(p.offset, kMaxNesting);
  p = checkJsonDocument("{\"a\": }");
  EXPECT_EQ(p.kind, Refusal::Syntax);
}

TEST(BoundedInput, InvisibleControls) {
  EXPECT_EQ(invisibleControlAt("\xe2\x80\xae", 0), 3u);  // U+202E
  EXPECT_EQ(invisibleControlAt("x\xe2\x81\xa6", 1), 3u); // U+2066
  EXPECT_EQ(invisibleControlAt("\xc2\x85", 0), 2u);      // U+0085
  EXPECT_EQ(invisibleControlAt("\xd8\x9c", 0), 2u);      // U+061C
  EXPECT_EQ(invisibleControlAt("\xe2\x80\x94", 0), 0u);  // an em dash shows itself
  EXPECT_EQ(invisibleControlAt("\xc3\xa9", 0), 0u);
}

TEST(BoundedInput, BoundedFileReadsPartOfAFile) {
  // The safetensors reader reads 8 bytes and then the header, never the weights.
  std::string dir = scratchDir("part");
  writeFile(dir + "/f", "0123456789");
  BoundedFile f;
  ReadOptions opt;
  opt.maxBytes = 4; // the cap is on the file's size
  EXPECT_EQ(f.open(dir + "/f", opt).kind, Refusal::TooLarge);
  ASSERT_FALSE(f.open(dir + "/f"));
  EXPECT_EQ(f.size(), 10u);
  std::string out;
  ASSERT_FALSE(f.read(2, 3, out));
  EXPECT_EQ(out, "234");
  ASSERT_FALSE(f.read(8, 5, out)); // fewer at the end
  EXPECT_EQ(out, "89");
  ASSERT_EQ(::mkfifo((dir + "/p").c_str(), 0600), 0);
  BoundedFile p;
  Problem why = p.open(dir + "/p");
  EXPECT_EQ(why.kind, Refusal::NotRegular);
  EXPECT_EQ(reason(why), "is a FIFO, not a regular file");
  EXPECT_EQ(reason(p.open(dir)), "is a directory");
}

TEST(BoundedInput, CheckTextRefusesBadUtf8ThenDepth) {
  Problem p = checkText("a: [\xff]", Syntax::Yaml);
  EXPECT_EQ(p.kind, Refusal::InvalidUtf8);
  EXPECT_EQ(p.offset, 4u);
  p = checkText(std::string(600, '{'), Syntax::Yaml);
  EXPECT_EQ(p.kind, Refusal::TooDeep);
  EXPECT_EQ(p.message, "brackets nested deeper than 512 levels");
  EXPECT_FALSE(checkText("a: {b: [1, 2]}", Syntax::Yaml));
}

TEST(BoundedInput, JsonErrorsDoNotRepeatTheInput) {
  // nlohmann's "last read: '...'" quotes the file: a location says where instead.
  std::string s = cleanJsonError("[json.exception.parse_error.101] parse error at line 1, column "
                                 "14: syntax error while parsing value - invalid literal; last "
                                 "read: '\"a\": SECRET'; expected end of input");
  EXPECT_EQ(s.find("SECRET"), std::string::npos) << s;
  EXPECT_EQ(s, "invalid JSON while parsing value - invalid literal; expected end of input");
}
