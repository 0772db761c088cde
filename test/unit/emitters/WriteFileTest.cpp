// emit::writeFileStreamed (emitters/WriteFile.h): the chunks land in order (also where they cross
// the stretches whose writeback starts early), and a failure while they are made leaves the old
// file as it was and no temporary file behind.
#include "emitters/WriteFile.h"
#include "../TestFiles.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

using namespace qspec;
namespace fs = std::filesystem;

namespace {

fs::path freshDir(const char *name) {
  fs::path d = fs::temp_directory_path() /
               (std::string("qspec-writefile-") + name + "-" +
                std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

} // namespace

TEST(WriteFileStreamed, ChunksInOrder) {
  fs::path d = freshDir("order"), out = d / "out.json";
  std::string err;
  ASSERT_TRUE(emit::writeFileStreamed(
      out.string(),
      [](const emit::ChunkSink &sink) { return sink("{\"a\": ") && sink("") && sink("[1, 2]}\n"); },
      err))
      << err;
  EXPECT_EQ(slurp(out), "{\"a\": [1, 2]}\n");
  fs::remove_all(d);
}

// Chunks smaller than a stretch, one ending exactly on a stretch's end, and one spanning several:
// every byte once, in order (each byte says where it belongs).
TEST(WriteFileStreamed, ChunksAcrossWritebackStretches) {
  fs::path d = freshDir("stretch"), out = d / "out.bin";
  const size_t s = emit::kWritebackStretch;
  std::vector<size_t> sizes = {s / 3 + 1, s - (s / 3 + 1), 1, 2 * s + 7, s / 2, s + s / 2 - 8};
  std::string want;
  for (size_t n : sizes)
    for (size_t i = 0; i < n; ++i)
      want.push_back(static_cast<char>((want.size() * 131 + want.size() / 4093) & 0xff));
  std::string err;
  ASSERT_TRUE(emit::writeFileStreamed(
      out.string(),
      [&](const emit::ChunkSink &sink) {
        size_t at = 0;
        for (size_t n : sizes) {
          if (!sink(std::string_view(want).substr(at, n)))
            return false;
          at += n;
        }
        return true;
      },
      err))
      << err;
  std::string got = slurp(out);
  ASSERT_EQ(got.size(), want.size());
  EXPECT_TRUE(got == want);
  fs::remove_all(d);
}

TEST(WriteFileStreamed, FailureMidwayKeepsTheOldFile) {
  fs::path d = freshDir("fail"), out = d / "out.json";
  std::ofstream(out) << "old\n";
  std::string err;
  EXPECT_FALSE(emit::writeFileStreamed(
      out.string(), [](const emit::ChunkSink &sink) { return sink("partial") && false; }, err));
  EXPECT_FALSE(err.empty());
  EXPECT_EQ(slurp(out), "old\n");
  size_t files = 0;
  for (const auto &e : fs::directory_iterator(d))
    files += e.is_regular_file();
  EXPECT_EQ(files, 1u); // no temporary file left
  EXPECT_FALSE(
      emit::writeFileStreamed((d / "absent.json").string(),
                              [](const emit::ChunkSink &sink) { return sink("x") && false; }, err));
  EXPECT_FALSE(fs::exists(d / "absent.json"));
  fs::remove_all(d);
}
