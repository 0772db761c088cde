// qtune strategies on simulated landscapes (in-process): decisions on known landscapes and the
// evaluation-count bounds of docs/performance.md. Counts, never time.
#include "driver/qtune/Driver.h"
#include "driver/qtune/Strategy.h"
#include "driver/qtune/Support.h"

#include <gtest/gtest.h>

using namespace qspec::tune;

namespace {

int ceilLog(int base, int n) {
  int r = 0;
  long v = 1;
  while (v < n) {
    v *= base;
    ++r;
  }
  return r;
}

SimResult run(const char *name, int L, int passLevel, unsigned slots, int chains = 0,
              std::vector<int> traps = {}) {
  SearchSpace sp;
  sp.levels = L;
  sp.chains = chains;
  SimLandscape land;
  land.levels = L;
  land.passLevel = passLevel;
  land.traps = std::move(traps);
  land.int16Passes = land.dualPasses = land.fp16Passes = passLevel <= L;
  auto s = createStrategy(name, sp);
  EXPECT_TRUE(s);
  return simulate(*s, land, slots);
}

} // namespace

TEST(QTuneStrategy, GroupBisectFindsSmallestPassingLevel) {
  for (int L : {1, 2, 3, 7, 16, 33})
    for (int p = 0; p <= L; ++p)
      for (unsigned k : {1u, 2u, 4u}) {
        SimResult r = run("group-bisect", L, p, k);
        ASSERT_EQ(r.verdict.kind, Verdict::Found) << "L=" << L << " p=" << p << " k=" << k;
        ASSERT_TRUE(r.verdict.best);
        EXPECT_EQ(r.verdict.best->level, p) << "L=" << L << " p=" << p << " k=" << k;
      }
}

TEST(QTuneStrategy, GroupBisectUnreachableAfterFeasibility) {
  for (unsigned k : {1u, 4u}) {
    SimResult r = run("group-bisect", 64, 65, k);
    EXPECT_EQ(r.verdict.kind, Verdict::Unreachable);
    EXPECT_FALSE(r.verdict.best);
    EXPECT_EQ(r.rounds, k == 1 ? 2 : 1);
  }
  SimResult low = run("group-bisect", 64, 0, 1);
  EXPECT_EQ(low.evaluations, 1);
  EXPECT_EQ(low.verdict.best->level, 0);
}

// The goal of the issue: on monotone landscapes with L levels, at most ceil(log2 L) + 2
// evaluations with one slot, at most ceil(log_(k+1) L) + 2 rounds with k slots, and never more
// evaluations than standing-high (msModelSlim's setting with two anti-outlier candidates).
TEST(QTuneStrategy, GroupBisectEvaluationBounds) {
  for (int G : {16, 32, 64, 128})
    for (int p = 0; p <= G + 1; ++p) {
      SimResult one = run("group-bisect", G, p, 1);
      EXPECT_LE(one.evaluations, ceilLog(2, G) + 2) << "G=" << G << " p=" << p;
      for (unsigned k : {2u, 4u}) {
        SimResult many = run("group-bisect", G, p, k);
        EXPECT_LE(many.rounds, ceilLog(static_cast<int>(k) + 1, G) + 2)
            << "G=" << G << " p=" << p << " k=" << k;
      }
      SimResult gb = run("group-bisect", G, p, 1, 2);
      SimResult sh = run("standing-high", G, p, 1, 2);
      EXPECT_LE(gb.evaluations, sh.evaluations) << "G=" << G << " p=" << p;
      if (p <= G) {
        ASSERT_TRUE(gb.verdict.best);
        ASSERT_TRUE(sh.verdict.best);
        EXPECT_EQ(gb.verdict.best->level, sh.verdict.best->level);
      }
    }
}

TEST(QTuneStrategy, GroupBisectHandlesNonMonotone) {
  // Level 4 of 16 is a trap whose metric drops below level 0's: the violation is noted and the
  // search scans below the bracket instead of trusting it, finding level 3.
  SimResult r = run("group-bisect", 16, 3, 1, 0, {4, 5, 6, 7, 8});
  ASSERT_EQ(r.verdict.kind, Verdict::Found);
  EXPECT_EQ(r.verdict.best->level, 3);
  // Standing-high trusts its bisection and settles higher.
  SimResult sh = run("standing-high", 16, 3, 1, 0, {4, 5, 6, 7, 8});
  ASSERT_TRUE(sh.verdict.best);
  EXPECT_GT(sh.verdict.best->level, 3);
}

TEST(QTuneStrategy, StandingHighDecisions) {
  // L = 8, pass from 5: zero (0), bisect 4 (fail), 6 (pass), 5 (pass); descent probes 4 (cache
  // hit); final 5 (cache hit) -> 4 evaluations, 6 proposals.
  SimResult r = run("standing-high", 8, 5, 1);
  EXPECT_EQ(r.verdict.best->level, 5);
  EXPECT_EQ(r.evaluations, 4);
  EXPECT_EQ(r.probes, 6);
  // Unreachable: the final proposal is level 8's first evaluation.
  SimResult u = run("standing-high", 8, 9, 1);
  EXPECT_EQ(u.verdict.kind, Verdict::Unreachable);
  // The iteration cap (30 by default) stops a long descent with the best so far.
  SearchSpace sp;
  sp.levels = 64;
  sp.maxRounds = 3;
  SimLandscape land;
  land.levels = 64;
  land.passLevel = 10;
  auto s = createStrategy("standing-high", sp);
  SimResult c = simulate(*s, land, 1);
  EXPECT_EQ(c.verdict.kind, Verdict::Exhausted);
  EXPECT_EQ(c.rounds, 3);
}

// The descent's first probe can be the level the bisection failed last (pass from 6: bisection
// 4, 6, 5; descent 5): it is a proposal of its own (a cache hit), so the proposals are
// msModelSlim's sequence 0, 4, 6, 5, 5, 6 and the evaluations stay 4.
TEST(QTuneStrategy, StandingHighReprobeIsAProposal) {
  SimResult r = run("standing-high", 8, 6, 1);
  ASSERT_TRUE(r.verdict.best);
  EXPECT_EQ(r.verdict.best->level, 6);
  EXPECT_EQ(r.evaluations, 4);
  EXPECT_EQ(r.probes, 6);
}

TEST(QTuneStrategy, StandingHighChainRescuesLevel) {
  // The second anti-outlier candidate adds enough metric that one level lower passes with it.
  SearchSpace sp;
  sp.levels = 16;
  sp.chains = 2;
  SimLandscape land;
  land.levels = 16;
  land.passLevel = 8;
  land.chainBonus = {0, 0.1 / 16 * 1.0};
  auto s = createStrategy("standing-high", sp);
  SimResult r = simulate(*s, land, 1);
  ASSERT_TRUE(r.verdict.best);
  EXPECT_EQ(r.verdict.best->level, 7);
  EXPECT_EQ(r.verdict.best->chain, 1);
}

// With k slots standing-high evaluates its own sequence ahead (both outcomes of the next probe,
// breadth-first): the same answer as one slot, every slot used while the sequence is long
// enough, and fewer rounds.
TEST(QTuneStrategy, StandingHighUsesEverySlot) {
  for (int G : {8, 16, 64})
    for (int p = 0; p <= G + 1; ++p)
      for (int chains : {0, 2}) {
        SimResult one = run("standing-high", G, p, 1, chains);
        SimResult four = run("standing-high", G, p, 4, chains);
        ASSERT_EQ(four.verdict.kind, one.verdict.kind) << "G=" << G << " p=" << p;
        if (one.verdict.best) {
          ASSERT_TRUE(four.verdict.best);
          EXPECT_EQ(four.verdict.best->level, one.verdict.best->level) << "G=" << G << " p=" << p;
          EXPECT_EQ(four.verdict.best->chain, one.verdict.best->chain) << "G=" << G << " p=" << p;
        }
        EXPECT_LE(four.rounds, one.rounds) << "G=" << G << " p=" << p;
        if (p > 0 && G >= 16) {
          EXPECT_LT(four.rounds, one.rounds) << "G=" << G << " p=" << p;
        }
      }
  // The first round of a long search fills all four slots with distinct probes.
  SearchSpace sp;
  sp.levels = 64;
  auto s = createStrategy("standing-high", sp);
  std::vector<Probe> first = s->next(4);
  ASSERT_EQ(first.size(), 4u);
  for (size_t i = 0; i < first.size(); ++i)
    for (size_t j = i + 1; j < first.size(); ++j)
      EXPECT_FALSE(first[i].sameAs(first[j]));
}

TEST(QTuneStrategy, HmctLadderPhases) {
  SearchSpace sp;
  sp.levels = 8;
  SimLandscape land;
  land.levels = 8;
  land.passLevel = 3;
  land.int16Passes = true;
  auto s = createStrategy("hmct-ladder", sp);
  SimResult r = simulate(*s, land, 1);
  // 1 fails, 2 (all int16) passes, 3 tries the progressive levels 1, 2, 4: 4 passes first.
  ASSERT_TRUE(r.verdict.best);
  EXPECT_EQ(r.verdict.best->level, 4);
  EXPECT_EQ(r.verdict.best->levelTier, 2);
  EXPECT_EQ(r.evaluations, 5);
  // No tier helps: unreachable after phase 6.
  land.passLevel = 9;
  land.int16Passes = land.dualPasses = land.fp16Passes = false;
  auto u = createStrategy("hmct-ladder", sp);
  SimResult ru = simulate(*u, land, 1);
  EXPECT_EQ(ru.verdict.kind, Verdict::Unreachable);
  EXPECT_EQ(ru.evaluations, 4); // phases 1, 2, 4, 6
}

// A failed evaluation is never a verdict: the level is unknown, the answer comes from real
// metrics only and says which levels are unknown.
TEST(QTuneStrategy, FailedEvaluationsAreUnknownNotFailures) {
  SearchSpace sp;
  sp.levels = 16;
  SimLandscape land;
  land.levels = 16;
  land.passLevel = 13;
  land.crashes = {12};
  auto s = createStrategy("group-bisect", sp);
  SimResult r = simulate(*s, land, 1);
  EXPECT_EQ(r.verdict.kind, Verdict::Found);
  ASSERT_TRUE(r.verdict.best);
  EXPECT_EQ(r.verdict.best->level, 13);
  EXPECT_NE(r.verdict.message.find("level 11 fails"), std::string::npos) << r.verdict.message;
  EXPECT_NE(r.verdict.message.find("unknown (evaluation failed): level 12"), std::string::npos)
      << r.verdict.message;
  // All high runs out of memory and nothing passes: no verdict, never "unreachable".
  land.passLevel = 17;
  land.crashes = {16};
  auto u = createStrategy("group-bisect", sp);
  SimResult ru = simulate(*u, land, 1);
  EXPECT_EQ(ru.verdict.kind, Verdict::Unknown) << ru.verdict.message;
  // All high fails to evaluate, but a smaller level passes: found from real metrics.
  land.passLevel = 5;
  auto f = createStrategy("group-bisect", sp);
  SimResult rf = simulate(*f, land, 2);
  EXPECT_EQ(rf.verdict.kind, Verdict::Found);
  ASSERT_TRUE(rf.verdict.best);
  EXPECT_EQ(rf.verdict.best->level, 5);
  // standing-high: the final probe crashing is no verdict either.
  land.passLevel = 17;
  auto h = createStrategy("standing-high", sp);
  EXPECT_EQ(simulate(*h, land, 1).verdict.kind, Verdict::Unknown);
}

TEST(QTuneApply, RewritesOnlyTuningStatements) {
  // Spans as the parser reports them (each statement with its ';').
  std::string text = "model \"m\" { inventory \"x.txt\" }\n"
                     "tune {\n"
                     "    metric accuracy >= 0.9   // keep me\n"
                     "    exclude \"a.*\", \"b\"\n"
                     "    raise \"c\" to int16;  // qtune: old\n"
                     "    scores \"s.yaml\"\n"
                     "}\n"
                     "// trailing\n";
  auto span = [&](const std::string &from, const std::string &to) {
    size_t b = text.find(from);
    return TextSpan{b, text.find(to, b) + to.size()};
  };
  std::vector<TextSpan> spans = {span("exclude", "\"b\""), span("raise", "int16;")};
  size_t close = text.find("}\n//");
  EXPECT_EQ(statementIndent(text, text.find("metric")), "    ");
  std::string out = rewriteTuneStatements(text, spans, close, "    exclude \"z\"\n");
  EXPECT_EQ(out, "model \"m\" { inventory \"x.txt\" }\n"
                 "tune {\n"
                 "    metric accuracy >= 0.9   // keep me\n"
                 "    exclude \"z\"\n"
                 "    scores \"s.yaml\"\n"
                 "}\n"
                 "// trailing\n");
  // Empty state: the statements go, nothing is added; a one-line block keeps its shape.
  std::string one = "tune { metric acc >= 1 exclude \"q\" }\n";
  size_t b = one.find("exclude");
  EXPECT_EQ(rewriteTuneStatements(one, {{b, b + 11}}, one.find('}'), ""),
            "tune { metric acc >= 1  }\n");
  // Two statements on one line, the second with its qtune comment: the line goes.
  std::string two =
      "tune {\n  metric a >= 1\n  exclude \"x\"; raise \"y\" to fp16  // qtune: u\n}\n";
  size_t e = two.find("exclude"), r = two.find("raise");
  EXPECT_EQ(
      rewriteTuneStatements(two, {{e, e + 12}, {r, r + 17}}, two.find('}'), "  exclude \"n\"\n"),
      "tune {\n  metric a >= 1\n  exclude \"n\"\n}\n");
}
