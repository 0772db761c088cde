// Evaluations-to-result of the qtune strategies on simulated landscapes (in-process, no
// evaluator processes, no timing). For every group count G in {16, 32, 64, 128}, slot count k in
// {1, 4} and anti-outlier candidate count S in {0, 2}, every threshold position p in 0..G+1
// (p = 0: all-low passes; p = G+1: unreachable) is one monotone landscape; the table shows the
// worst and mean evaluation and round counts per strategy, the bound of docs/performance.md, and
// how often group-bisect used more evaluations than standing-high on the same landscape.
//
//   qtune_strategy_bench [--nonmonotone]
#include "driver/qtune/Strategy.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

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

} // namespace

int main(int argc, char **argv) {
  bool nonMonotone = argc > 1 && std::strcmp(argv[1], "--nonmonotone") == 0;
  std::printf("| G = L | slots | S | strategy | evals max | evals mean | rounds max | bound | "
              "> standing-high |\n");
  std::printf("|---:|---:|---:|---|---:|---:|---:|---|---:|\n");
  for (int G : {16, 32, 64, 128})
    for (unsigned k : {1u, 4u})
      for (int S : {0, 2})
        for (const char *name : {"group-bisect", "standing-high", "hmct-ladder"}) {
          int maxE = 0, maxR = 0, worse = 0;
          double sumE = 0;
          int n = 0;
          for (int p = 0; p <= G + 1; ++p) {
            SimLandscape land;
            land.levels = G;
            land.passLevel = p;
            land.int16Passes = p <= G;
            land.dualPasses = p <= G;
            land.fp16Passes = p <= G;
            if (nonMonotone && p + 3 <= G)
              land.traps = {p + 2};
            SearchSpace sp;
            sp.levels = G;
            sp.chains = S;
            sp.maxRounds = std::string(name) == "standing-high" ? 0 : 0;
            auto s = createStrategy(name, sp);
            SimResult r = simulate(*s, land, k);
            if (std::string(name) == "group-bisect") {
              auto sh = createStrategy("standing-high", sp);
              SimResult rs = simulate(*sh, land, 1);
              worse += r.evaluations > rs.evaluations;
            }
            maxE = std::max(maxE, r.evaluations);
            maxR = std::max(maxR, r.rounds);
            sumE += r.evaluations;
            ++n;
          }
          std::string bound = "-";
          if (std::string(name) == "group-bisect")
            bound = k == 1 ? "evals <= " + std::to_string(ceilLog(2, G) + 2)
                           : "rounds <= " + std::to_string(ceilLog(static_cast<int>(k) + 1, G) + 2);
          std::printf("| %d | %u | %d | %s | %d | %.2f | %d | %s | %s |\n", G, k, S, name, maxE,
                      sumE / n, maxR, bound.c_str(),
                      std::string(name) == "group-bisect" ? std::to_string(worse).c_str() : "-");
        }
  return 0;
}
