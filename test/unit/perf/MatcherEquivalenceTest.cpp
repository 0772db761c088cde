// The fast matcher (Pattern::matches with its fast paths, ModuleSelector's indexes) against the
// straightforward one (Pattern::matchesReference on every module), on random names and random
// patterns: same answers, same captures, same selections.
#include "ir/Pattern.h"
#include "ir/Select.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <set>

using qspec::Pattern;
using qspec::ir::Inventory;
using qspec::ir::ModuleSelector;

namespace {

std::optional<Pattern> compile(const std::string &text) {
  std::string err;
  return Pattern::compile(text, err);
}

// Names built from a small alphabet so that random patterns hit them often, plus LLM-like names.
std::string randomName(std::mt19937 &rng) {
  static const char *const kSegments[] = {
      "model", "layers", "mlp", "experts", "self_attn", "q_proj",         "kv_b_proj", "down_proj",
      "gate",  "a",      "ab",  "b_a",     "lm_head",   "shared_experts", "x1"};
  std::uniform_int_distribution<int> kind(0, 3);
  std::string name;
  if (kind(rng) == 0) { // characters from a tiny alphabet, dots included
    static const char kChars[] = "ab._01{},[]-";
    std::uniform_int_distribution<int> len(0, 10), ch(0, sizeof kChars - 2);
    for (int i = len(rng); i > 0; --i)
      name += kChars[ch(rng)];
    return name;
  }
  std::uniform_int_distribution<int> segs(1, 7), seg(0, 14), num(0, 130), isNum(0, 2);
  for (int i = segs(rng); i > 0; --i) {
    if (!name.empty())
      name += '.';
    if (isNum(rng) == 0) {
      int v = num(rng);
      name += (v % 17 == 0 ? "0" : "") + std::to_string(v); // some zero-padded numbers
    } else {
      name += kSegments[seg(rng)];
    }
  }
  return name;
}

// A pattern: pieces of a name, with glob items put in.
std::string randomPattern(std::mt19937 &rng, const std::string &base) {
  static const char *const kItems[] = {"*",
                                       "?",
                                       "[ab]",
                                       "[!0-9]",
                                       "[[:digit:]]",
                                       "{a,b}",
                                       "{ab,a}",
                                       "{0..12}",
                                       "{00..10}",
                                       "{0..20..3}",
                                       "{a..e}",
                                       "{i}",
                                       "{j}",
                                       "\\.",
                                       "*.",
                                       ".*",
                                       "{mlp,self_attn}.*",
                                       "{q,kv_b,down}_proj",
                                       "{,a}",
                                       "{{a,b},c}",
                                       "[a-c]",
                                       "**",
                                       "{1..100}",
                                       "\\*",
                                       "{x}"};
  std::uniform_int_distribution<int> op(0, 5), item(0, sizeof kItems / sizeof kItems[0] - 1);
  std::string out;
  size_t i = 0;
  while (i < base.size()) {
    switch (op(rng)) {
    case 0: // replace a run of the name by a glob item
      out += kItems[item(rng)];
      i += std::uniform_int_distribution<size_t>(0, 6)(rng);
      break;
    case 1: // insert an item
      out += kItems[item(rng)];
      break;
    default: {
      char c = base[i++];
      if (c == '*' || c == '?' || c == '[' || c == '{' || c == '\\')
        out += '\\';
      out += c;
    }
    }
  }
  if (op(rng) == 0)
    out += kItems[item(rng)];
  return out;
}

} // namespace

TEST(MatcherEquivalence, AnalysisFacts) {
  auto p = compile("model.layers.*.mlp.experts.*.down_proj");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->literalPrefix(), "model.layers.");
  EXPECT_EQ(p->literalSuffix(), ".down_proj");
  EXPECT_EQ(p->requiredLiterals(),
            (std::vector<std::string>{"model.layers.", ".mlp.experts.", ".down_proj"}));
  auto q = compile("a{b,}"); // the `b` is optional: no suffix, no required `b`
  ASSERT_TRUE(q);
  EXPECT_EQ(q->literalSuffix(), "");
  EXPECT_EQ(q->requiredLiterals(), (std::vector<std::string>{"a"}));
  auto r = compile("x{1..3}.y*z");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->literalSuffix(), "z");
  EXPECT_EQ(r->requiredLiterals(), (std::vector<std::string>{"x", ".y", "z"}));
  auto t = compile("model.layers.{1,17}.mlp.{0..2..2}*");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->literalPrefixes(),
            (std::vector<std::string>{"model.layers.1.mlp.0", "model.layers.1.mlp.2",
                                      "model.layers.17.mlp.0", "model.layers.17.mlp.2"}));
  auto u = compile("x.{i}.y");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->literalPrefixes(), (std::vector<std::string>{"x."}));
  auto s = compile("{a,b}c{d,e}");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->literalPrefix(), "");
  EXPECT_EQ(s->literalSuffix(), "");
  EXPECT_EQ(s->requiredLiterals(), (std::vector<std::string>{"c"}));
}

TEST(MatcherEquivalence, MatchesAgreesWithReferenceOnRandomInputs) {
  std::mt19937 rng(20261129);
  size_t agreedTrue = 0, compared = 0;
  for (int round = 0; round < 4000; ++round) {
    std::string base = randomName(rng);
    std::string text = randomPattern(rng, base);
    auto p = compile(text);
    if (!p)
      continue;
    for (int k = 0; k < 40; ++k) {
      std::string name = k == 0 ? base : randomName(rng);
      std::vector<std::string_view> fastCaps, refCaps;
      bool fast = p->matches(name, &fastCaps);
      bool ref = p->matchesReference(name, &refCaps);
      ASSERT_EQ(fast, ref) << "pattern '" << text << "' name '" << name << "'";
      if (ref) {
        ASSERT_EQ(fastCaps, refCaps) << "pattern '" << text << "' name '" << name << "'";
      }
      ASSERT_EQ(p->matches(name), ref) << "pattern '" << text << "' name '" << name << "'";
      agreedTrue += ref;
      ++compared;
    }
  }
  // The generator must produce matches (about 1 in 200 pairs), or the comparison proves little.
  EXPECT_GT(agreedTrue, 500u);
  EXPECT_GT(compared, 100000u);
}

TEST(MatcherEquivalence, SelectorAgreesWithReferenceOnRandomInventories) {
  std::mt19937 rng(7);
  size_t nonEmpty = 0, patterns = 0;
  for (int inventory = 0; inventory < 6; ++inventory) {
    Inventory inv;
    std::set<std::string> seen;
    // Large enough that the segment index is used (ModuleSelector builds it above 512).
    size_t target = inventory % 2 ? 3000 : 200;
    while (inv.modules.size() < target) {
      std::string name = randomName(rng);
      if (seen.insert(name).second)
        inv.modules.push_back({name, "Linear", -1, 0});
    }
    inv.rebuildIndex();
    ModuleSelector selector(inv);
    for (int k = 0; k < 300; ++k) {
      std::string base = inv.modules[rng() % inv.modules.size()].name;
      std::string text = randomPattern(rng, base);
      auto p = compile(text);
      if (!p)
        continue;
      std::vector<uint32_t> fast = selector.selectPattern(*p);
      ASSERT_EQ(fast, selector.selectPatternReference(*p)) << "pattern '" << text << "'";
      nonEmpty += !fast.empty();
      ++patterns;
    }
    // Realistic patterns too.
    for (const char *text : {"model.layers.*.mlp.experts.*.down_proj", "*.mlp.*", "*down_proj",
                             "model.layers.{0..20}.*", "*.{q,kv_b}_proj", "model.*.5.*",
                             "*.experts.{i}.*", "lm_head", "*", "model.layers.1*.gate"}) {
      auto p = compile(text);
      ASSERT_TRUE(p);
      ASSERT_EQ(selector.selectPattern(*p), selector.selectPatternReference(*p)) << text;
    }
  }
  EXPECT_GT(nonEmpty, patterns / 10);
}

TEST(MatcherEquivalence, SelectorAgreesOnAnLlmInventory) {
  // MoE naming large enough for every index path (segments, prefix alternatives, sorted prefix).
  Inventory inv;
  for (int n = 0; n < 24; ++n) {
    std::string p = "model.layers." + std::to_string(n);
    for (const char *a : {"q_proj", "k_proj", "v_proj", "o_proj"})
      inv.modules.push_back({p + ".self_attn." + a, "Linear", n, 0});
    inv.modules.push_back({p + ".mlp.gate", "Linear", n, 0});
    for (int e = 0; e < 64; ++e)
      for (const char *m : {"gate_proj", "up_proj", "down_proj"})
        inv.modules.push_back({p + ".mlp.experts." + std::to_string(e) + "." + m, "Linear", n, 0});
  }
  inv.modules.push_back({"lm_head", "Linear", -1, 0});
  inv.rebuildIndex();
  ModuleSelector selector(inv);
  size_t nonEmpty = 0;
  const char *const texts[] = {
      "model.layers.{1,5,17}.mlp.experts.*.down_proj", "model.layers.{0..3}.*",
      "model.layers.{00..10}.*", "model.layers.{0..20..5}.mlp.*", "{lm_head,model.layers.1.mlp}*",
      "model.layers.1*.mlp.gate", "model.layers.{2,3}.mlp.experts.{10..12}.{gate,up}_proj",
      "*.experts.{7,8}.*", "model.layers.{i}.*", "model.layers.{1..3}{0..1}.self_attn.*",
      "model.layers.*.mlp.experts.4[0-4].down_proj", "model.layers.1[0-2].mlp.gate",
      "*.experts.[1-3]0.*", "model.layers.*.mlp.experts.[+-/]1.up_proj",
      "model.layers.[!0]*.mlp.experts.1[_0-9].down_proj", "model[.]layers.*.mlp.gate",
      "model.layers.{5,6}.mlp.experts.1?.up_proj", "model.layers.{1,2}",
      "model.layers.{9,10}.mlp.gate", "*.{q,k}_proj", "model.layers.2.mlp.experts.*",
      "model.layers.{0..23}.mlp.experts.0.up_proj", "*.down_proj", "*.gate", "*.lm_head", "*.7",
      "*.self_attn",
      // brace pieces that are whole segments (their posting lists are intersected)
      "model.layers.{1,5,9}.mlp.experts.{0..3,7,60}.{gate,down}_proj", "*.experts.{1[0-2],3}.*",
      "model.layers.{0..23..4}.mlp.experts.{5..9}.up_proj", "model.layers.{1,2.mlp}.*",
      "model.layers.{a..c}.*", "model.layers.{1,{2,3}}.mlp.{gate,experts.{4,5}.up_proj}",
      "{model,x}.layers.{i}.self_attn.{q,k}_proj", "model.layers.{2,}.mlp.gate"};
  for (const char *text : texts) {
    auto p = compile(text);
    ASSERT_TRUE(p) << text;
    std::vector<uint32_t> fast = selector.selectPattern(*p);
    ASSERT_EQ(fast, selector.selectPatternReference(*p)) << text;
    nonEmpty += !fast.empty();
  }
  EXPECT_GE(nonEmpty, 15u);
}

namespace {

std::string repeatPiece(const std::string &piece, size_t times) {
  std::string out;
  for (size_t i = 0; i < times; ++i)
    out += piece;
  return out;
}

// A long pattern (the DFA path starts at 48 instructions): random glob items and brace lists of
// random alternatives, some nested, no ranges and no variables.
std::string randomLongPattern(std::mt19937 &rng) {
  static const char *const kAtoms[] = {"a",    "b",  ".",  "*",       "?",      "[ab]",
                                       "[!a]", "ab", "b.", "{a,b}",   "{,a}",   "{a..c}",
                                       "\\*",  "a*", "*b", "{*a,a*}", "{*?,?*}"};
  std::uniform_int_distribution<int> atom(0, sizeof kAtoms / sizeof kAtoms[0] - 1), alts(2, 12),
      len(1, 4), kind(0, 2), pieces(4, 14);
  std::string out;
  for (int i = pieces(rng); i > 0; --i) {
    if (kind(rng) != 0) {
      out += kAtoms[atom(rng)];
      continue;
    }
    out += '{';
    for (int k = alts(rng); k > 0; --k) {
      for (int j = len(rng); j > 0; --j)
        out += kAtoms[atom(rng)];
      out += k > 1 ? "," : "";
    }
    out += '}';
  }
  return out;
}

// A long brace list of the kind the msModelSlim compressor writes: numbers and numeric ranges
// (merged runs `{3..5}`, zero-padded, stepped, descending, one value, too large for the DFA).
std::string randomRangeList(std::mt19937 &rng) {
  static const char *const kRanges[] = {"{3..5}",    "{0..12}",  "{00..10}", "{0..20..3}",
                                        "{9..2}",    "{5..5}",   "{007..9}", "{10..1..4}",
                                        "{0..3000}", "{99..101}"};
  std::uniform_int_distribution<int> alts(8, 30), kind(0, 2), num(0, 130),
      range(0, sizeof kRanges / sizeof kRanges[0] - 1);
  std::string out = "{";
  for (int k = alts(rng); k > 0; --k) {
    out += kind(rng) == 0 ? std::string(kRanges[range(rng)]) : std::to_string(num(rng));
    out += k > 1 ? "," : "}";
  }
  return out;
}

std::string randomAbName(std::mt19937 &rng, size_t maxLen) {
  std::uniform_int_distribution<size_t> len(0, maxLen);
  std::uniform_int_distribution<int> ch(0, 3);
  std::string name;
  for (size_t i = len(rng); i > 0; --i)
    name += "aab."[ch(rng)];
  return name;
}

} // namespace

TEST(MatcherEquivalence, LongAlternationsGetRequiredLiterals) {
  // 300 alternatives: a program far over 512 instructions still learns the runs every match
  // contains (the segment index can then narrow the candidates).
  std::string list;
  for (int e = 0; e < 300; ++e)
    list += (e ? "," : "") + std::to_string(e);
  auto p = compile("model.layers.{" + list + "}.mlp.experts.{" + list + "}.down_proj");
  ASSERT_TRUE(p);
  EXPECT_GT(p->size(), 1000u);
  EXPECT_EQ(p->requiredLiterals(),
            (std::vector<std::string>{"model.layers.", ".mlp.experts.", ".down_proj"}));
  EXPECT_TRUE(p->matches("model.layers.299.mlp.experts.0.down_proj"));
  EXPECT_FALSE(p->matches("model.layers.300.mlp.experts.0.down_proj"));
}

TEST(MatcherEquivalence, WorstCaseBraceStarPatternsAgree) {
  // Worst cases: braces mixing `*` far beyond the analysis limits, on long and short names.
  auto starA = compile(repeatPiece("{*a,a*}", 200));
  auto anyAny = compile(repeatPiece("{*?,?*}", 575));
  ASSERT_TRUE(starA && anyAny);
  std::mt19937 rng(2007);
  size_t matched = 0;
  for (int k = 0; k < 16; ++k) {
    std::string name = randomAbName(rng, 650);
    bool fast = starA->matches(name);
    ASSERT_EQ(fast, starA->matchesReference(name)) << name.size();
    matched += fast;
    ASSERT_EQ(anyAny->matches(name), anyAny->matchesReference(name)) << name.size();
  }
  EXPECT_GT(matched, 0u);
  EXPECT_TRUE(anyAny->matches(std::string(575, 'x')));
  EXPECT_FALSE(anyAny->matches(std::string(574, 'x'))); // too short: rejected by length
}

// Patterns of literal runs and `*` only (`*a*b*c*`, `ab*.0**b`) take the left-to-right search of
// their runs; runs that overlap, repeat or touch the prefix and suffix must answer as the VM does.
TEST(MatcherEquivalence, StarOnlyPatternsAgreeWithReference) {
  std::mt19937 rng(1205);
  std::uniform_int_distribution<int> runs(0, 5), len(0, 3), ch(0, 4), stars(1, 2);
  static const char kChars[] = "ab._0";
  size_t agreedTrue = 0, fastPath = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    for (int r = runs(rng); r >= 0; --r) {
      for (int i = len(rng); i > 0; --i)
        text += kChars[ch(rng)];
      if (r > 0 || text.empty() || len(rng) < 2)
        text += std::string(static_cast<size_t>(stars(rng)), '*');
    }
    auto p = compile(text);
    ASSERT_TRUE(p) << text;
    fastPath += p->starsOnly();
    for (int k = 0; k < 30; ++k) {
      std::string name = randomAbName(rng, k % 2 ? 6 : 14);
      for (char &c : name) // the pattern's alphabet
        c = c == 'a' ? kChars[ch(rng)] : c;
      bool ref = p->matchesReference(name);
      ASSERT_EQ(p->matches(name), ref) << "pattern '" << text << "' name '" << name << "'";
      agreedTrue += ref;
    }
  }
  EXPECT_GT(fastPath, 2400u);
  EXPECT_GT(agreedTrue, 5000u);
  // Runs must not overlap, and the leftmost place of each is the one to take.
  auto q = compile("*ab*ba*");
  ASSERT_TRUE(q && q->starsOnly());
  EXPECT_FALSE(q->matches("aba"));
  EXPECT_TRUE(q->matches("abba"));
  auto r = compile("a*aa*a");
  ASSERT_TRUE(r && r->starsOnly());
  EXPECT_FALSE(r->matches("aaa"));
  EXPECT_TRUE(r->matches("aaaa"));
  auto s = compile("*a?b*"); // `?`: not this path
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->starsOnly());
}

TEST(MatcherEquivalence, SelectorMatchesStarOnlyPatternsBySegment) {
  // Star-only patterns whose runs have no dot or are a lone dot, run on many candidates, are
  // matched segment by segment over the trie of the names (ModuleSelector's StarFold): the same
  // selections as the reference, with empty segments, leading and trailing dots, prefixes ending
  // and suffixes starting with a dot, and lone-dot runs next to each other. The names come in four
  // orders, as the trie reuses the segments a name shares with the one before it: as generated,
  // sorted (a name, then the names it begins), sorted backwards (the longer names first), and
  // sorted with some names twice in a row.
  std::mt19937 rng(512);
  std::uniform_int_distribution<int> ch(0, 4), runs(0, 4), len(1, 3), edge(0, 3);
  std::vector<std::string> names;
  std::set<std::string> seen;
  // Few distinct segments, so that the table is worth building for most patterns.
  static const char *const kSegments[] = {"",   "a", "b",  "ab", "a_", "0",
                                          "b0", "_", "ba", "00", "a_b"};
  std::uniform_int_distribution<int> segs(1, 6), seg(0, 10);
  while (names.size() < 3000) {
    std::string name = kSegments[seg(rng)];
    for (int i = segs(rng); i > 1; --i)
      name += std::string(".") + kSegments[seg(rng)];
    if (seen.insert(name).second)
      names.push_back(name);
  }
  std::vector<std::vector<std::string>> orders{
      names, {seen.begin(), seen.end()}, {seen.rbegin(), seen.rend()}, {}};
  for (const std::string &name : seen)
    for (int twice = orders[3].size() % 7 == 0 ? 2 : 1; twice > 0; --twice)
      orders[3].push_back(name);
  std::vector<Inventory> invs(orders.size());
  for (size_t o = 0; o < orders.size(); ++o) {
    for (const std::string &name : orders[o])
      invs[o].modules.push_back({name, "Linear", -1, 0});
    invs[o].rebuildIndex();
  }
  std::vector<std::unique_ptr<ModuleSelector>> selectors;
  for (const Inventory &inv : invs)
    selectors.push_back(std::make_unique<ModuleSelector>(inv));
  static const char *const kPrefixes[] = {"", "a.", "0.a.", "."}, *const kSuffixes[] = {
                                                                      "", ".b", ".a_.", "."};
  size_t bySegment = 0, nonEmpty = 0;
  for (int round = 0; round < 600; ++round) {
    std::string text = kPrefixes[edge(rng)], run;
    bool dotFree = true;
    for (int r = runs(rng); r > 0; --r) {
      run.clear();
      for (int i = len(rng); i > 0; --i)
        run += "ab_0."[ch(rng) % (round % 3 ? 4 : 5)]; // a dot in the runs of one pattern in three
      if (round % 3 == 1 && ch(rng) < 2)
        run = "."; // a lone dot, taken by the dot between two segments
      dotFree = dotFree && (run == "." || run.find('.') == std::string::npos);
      text += "*" + run;
    }
    text += std::string("*") + kSuffixes[edge(rng)];
    auto p = compile(text);
    ASSERT_TRUE(p && p->starsOnly()) << text;
    bySegment += dotFree;
    std::set<std::string> matched; // the reference's answer, by name
    for (uint32_t i : selectors[0]->selectPatternReference(*p))
      matched.insert(orders[0][i]);
    nonEmpty += !matched.empty();
    for (size_t o = 0; o < selectors.size(); ++o) {
      std::vector<uint32_t> expected;
      for (uint32_t i = 0; i < orders[o].size(); ++i)
        if (matched.count(orders[o][i]))
          expected.push_back(i);
      ASSERT_EQ(selectors[o]->selectPattern(*p), expected)
          << "pattern '" << text << "', order " << o;
    }
  }
  EXPECT_GT(bySegment, 300u);
  EXPECT_GT(nonEmpty, 150u);
}

TEST(MatcherEquivalence, LongPatternsAgreeWithReference) {
  std::mt19937 rng(19);
  size_t agreedTrue = 0, long_ = 0;
  for (int round = 0; round < 700; ++round) {
    std::string text = randomLongPattern(rng);
    auto p = compile(text);
    if (!p)
      continue;
    long_ += p->size() >= 48;
    for (int k = 0; k < 30; ++k) {
      std::string name = randomAbName(rng, k % 3 ? 12 : 40);
      bool ref = p->matchesReference(name);
      ASSERT_EQ(p->matches(name), ref) << "pattern '" << text << "' name '" << name << "'";
      agreedTrue += ref;
    }
  }
  EXPECT_GT(long_, 250u);
  EXPECT_GT(agreedTrue, 500u);
}

TEST(MatcherEquivalence, ManyPatternsInterleavedOnOneThread) {
  // More long patterns than the per-thread DFA caches, used in turn: answers stay right while
  // the caches are reused for other patterns.
  std::mt19937 rng(4);
  std::vector<Pattern> pats;
  std::vector<std::string> texts;
  while (pats.size() < 9) {
    std::string text = randomLongPattern(rng);
    if (auto p = compile(text); p && p->size() >= 48) {
      pats.push_back(*p);
      texts.push_back(text);
    }
  }
  for (int k = 0; k < 3000; ++k) {
    std::string name = randomAbName(rng, 30);
    size_t i = rng() % pats.size();
    ASSERT_EQ(pats[i].matches(name), pats[i].matchesReference(name)) << texts[i] << " / " << name;
  }
}

TEST(MatcherEquivalence, CompressedRangeListsRunOnTheDfaAndAgree) {
  // Lists with small numeric ranges run on the DFA (the ranges spelled out as alternatives);
  // a range of more values keeps the pattern on the VM. Both agree with the reference.
  auto small = compile("model.layers.{0..3,5,{7..9},12}.mlp.experts.{1,{4..6},40,{00..10}}.*");
  auto large = compile("model.layers.{0..3,5,{7..9},12}.mlp.experts.{1,{4..6},{0..5000}}.*");
  ASSERT_TRUE(small && large);
  EXPECT_TRUE(small->runsOnDfa());
  EXPECT_FALSE(large->runsOnDfa());
  EXPECT_TRUE(small->matches("model.layers.8.mlp.experts.07.up_proj"));
  EXPECT_FALSE(small->matches("model.layers.8.mlp.experts.7.up_proj"));
  std::mt19937 rng(96);
  size_t onDfa = 0, agreedTrue = 0;
  for (int round = 0; round < 300; ++round) {
    std::string text = "model.layers." + randomRangeList(rng) + ".mlp.experts." +
                       randomRangeList(rng) + (round % 2 ? ".{gate,up,down}_proj" : "*");
    auto p = compile(text);
    ASSERT_TRUE(p) << text;
    onDfa += p->runsOnDfa();
    for (int k = 0; k < 60; ++k) {
      std::string name = randomName(rng);
      if (k % 2) // names of the pattern's shape, numbers and padding random
        name = "model.layers." + std::string(k % 4 == 1 ? "0" : "") + std::to_string(rng() % 140) +
               ".mlp.experts." + std::string(k % 8 == 3 ? "00" : "") + std::to_string(rng() % 140) +
               (k % 3 ? ".up_proj" : ".o");
      bool ref = p->matchesReference(name);
      ASSERT_EQ(p->matches(name), ref) << "pattern '" << text << "' name '" << name << "'";
      agreedTrue += ref;
    }
  }
  EXPECT_GT(onDfa, 50u);
  EXPECT_GT(agreedTrue, 300u);
}

TEST(MatcherEquivalence, FinalStarAcceptsInTheVm) {
  // Patterns the VM runs (braces, ranges and variables in short programs: neither the
  // two-pointer matcher nor the DFA) that end in `*`: the VM accepts when it reaches that star,
  // with the captures bound before it. A star that does not end the pattern, or ends only one
  // alternative, still reads the rest of the name.
  const char *const kPatterns[] = {"model.layers.{i}.mlp.experts.{{0..159},{174..255}}.*",
                                   "{a,b}*",
                                   "x{1..3}*",
                                   "{b,a*}",
                                   "{a*,b}",
                                   "{i}.*",
                                   "{a,b}*.c",
                                   "{a,b}*c*",
                                   "{i}*{j}",
                                   "{a,b}**"};
  const char *const kNames[] = {"model.layers.3.mlp.experts.45.down_proj",
                                "model.layers.3.mlp.experts.160.up_proj",
                                "model.layers.12.mlp.experts.200.",
                                "model.layers.7.mlp.experts.0",
                                "a",
                                "b.x.y",
                                "ab",
                                "x2",
                                "x4",
                                "x3.*.z",
                                "a.c",
                                "a.cx",
                                "bcc",
                                "b",
                                "7.",
                                "7",
                                "12.a.5",
                                "ba"};
  size_t vm = 0, accepted = 0;
  for (const char *text : kPatterns) {
    auto p = compile(text);
    ASSERT_TRUE(p) << text;
    vm += !p->runsOnDfa() && !p->starsOnly();
    for (const char *name : kNames) {
      std::vector<std::string_view> fastCaps, refCaps;
      bool ref = p->matchesReference(name, &refCaps);
      ASSERT_EQ(p->matches(name, &fastCaps), ref)
          << "pattern '" << text << "' name '" << name << "'";
      if (ref) {
        EXPECT_EQ(fastCaps, refCaps) << "pattern '" << text << "' name '" << name << "'";
      }
      accepted += ref;
    }
  }
  EXPECT_EQ(vm, sizeof kPatterns / sizeof kPatterns[0]);
  EXPECT_GT(accepted, 15u);
  auto p = compile("model.layers.{i}.mlp.experts.{{0..159},{174..255}}.*");
  std::vector<std::string_view> caps;
  EXPECT_TRUE(p->matches("model.layers.12.mlp.experts.200.", &caps));
  EXPECT_EQ(caps, (std::vector<std::string_view>{"12"}));
  EXPECT_FALSE(p->matches("model.layers.12.mlp.experts.160.up_proj"));
  EXPECT_FALSE(compile("{a*,b}")->matches("bx"));
  EXPECT_TRUE(compile("{b,a*}")->matches("a.x"));
}
