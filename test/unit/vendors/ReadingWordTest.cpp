// vendors::ReadingWord: an interned word of a vendor reading that reads like an optional string.
#include "vendors/Reading.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

using qspec::vendors::ReadingWord;

TEST(ReadingWord, ReadsLikeAnOptionalString) {
  ReadingWord none;
  EXPECT_FALSE(none.has_value());
  EXPECT_FALSE(none);
  EXPECT_EQ(none.value_or("-"), "-");
  EXPECT_EQ(static_cast<std::optional<std::string>>(none), std::nullopt);

  std::string built = "per_" + std::string("channel");
  ReadingWord w = built;
  ASSERT_TRUE(w);
  EXPECT_EQ(*w, "per_channel");
  EXPECT_EQ(w->size(), 11u);
  EXPECT_EQ(w.value_or("-"), "per_channel");
  EXPECT_EQ(static_cast<std::optional<std::string>>(w), std::optional<std::string>("per_channel"));
  w.reset();
  EXPECT_FALSE(w);
}

TEST(ReadingWord, EqualTextsAreOneCopy) {
  ReadingWord a = "int8", b = std::string("in") + "t8", c = "int4",
              d = std::optional<std::string>("int8");
  EXPECT_TRUE(a == b);
  EXPECT_TRUE(a == d);
  EXPECT_FALSE(a == c);
  EXPECT_TRUE(a != c);
  EXPECT_EQ(&*a, &*b);
  EXPECT_TRUE(a == "int8");
  EXPECT_FALSE(ReadingWord() == a);
  EXPECT_TRUE(ReadingWord() == ReadingWord(std::nullopt));
  // Text that differs only past a common prefix, and the empty word (present, not none).
  EXPECT_FALSE(ReadingWord("minmax") == ReadingWord("minmax2"));
  ReadingWord empty = "";
  EXPECT_TRUE(empty);
  EXPECT_FALSE(empty == ReadingWord());
}

TEST(ReadingWord, ThreadsShareTheCopies) {
  // Several threads interning the same and different words (more than the per-thread cache holds).
  constexpr int kThreads = 4, kWords = 300;
  std::vector<std::vector<const std::string *>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, &seen] {
      for (int round = 0; round < 3; ++round)
        for (int i = 0; i < kWords; ++i) {
          ReadingWord w = "word" + std::to_string((i * 7 + t) % kWords);
          if (round == 0)
            seen[t].push_back(&*w);
          else
            EXPECT_EQ(seen[t][static_cast<size_t>(i)], &*w);
        }
    });
  for (auto &th : threads)
    th.join();
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kWords; ++i) {
      ReadingWord w = "word" + std::to_string((i * 7 + t) % kWords);
      EXPECT_EQ(seen[t][static_cast<size_t>(i)], &*w);
      EXPECT_EQ(*w, "word" + std::to_string((i * 7 + t) % kWords));
    }
}
