// Micro-benchmarks of pattern matching and selection (docs/performance.md has the numbers).
//
//   qspec_bench_matcher [--benchmark_filter=REGEX] [--benchmark_repetitions=5]
#include "BenchNames.h"

#include "ir/Pattern.h"
#include "ir/Select.h"

#include <benchmark/benchmark.h>

using namespace qspec;

namespace {

const ir::Inventory &deepseek() {
  static const ir::Inventory inv = bench::deepseekV3Inventory();
  return inv;
}

std::vector<Pattern> compileAll(const std::vector<std::string> &texts) {
  std::vector<Pattern> out;
  std::string err;
  for (const std::string &t : texts)
    if (auto p = Pattern::compile(t, err))
      out.push_back(std::move(*p));
  return out;
}

// One pattern against every DeepSeek-V3 name: Pattern::matches (fast paths, reused memory) or
// matchesReference (the plain VM).
void matchAllNames(benchmark::State &state, const char *text, bool fast) {
  std::string err;
  Pattern p = *Pattern::compile(text, err);
  const auto &mods = deepseek().modules;
  size_t hits = 0;
  for (auto _ : state) {
    hits = 0;
    for (const ir::Module &m : mods)
      hits += fast ? p.matches(m.name) : p.matchesReference(m.name);
    benchmark::DoNotOptimize(hits);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * mods.size()));
  state.counters["hits"] = static_cast<double>(hits);
}
void BM_MatchFast(benchmark::State &state, const char *text) { matchAllNames(state, text, true); }
void BM_MatchReference(benchmark::State &state, const char *text) { matchAllNames(state, text, false); }
BENCHMARK_CAPTURE(BM_MatchFast, glob, "model.layers.*.mlp.experts.*.down_proj");
BENCHMARK_CAPTURE(BM_MatchReference, glob, "model.layers.*.mlp.experts.*.down_proj");
BENCHMARK_CAPTURE(BM_MatchFast, ranges, "model.layers.{3..10}.mlp.experts.{0..63}.*");
BENCHMARK_CAPTURE(BM_MatchReference, ranges, "model.layers.{3..10}.mlp.experts.{0..63}.*");
BENCHMARK_CAPTURE(BM_MatchFast, variables, "model.layers.{i}.mlp.experts.{j}.up_proj");
BENCHMARK_CAPTURE(BM_MatchReference, variables, "model.layers.{i}.mlp.experts.{j}.up_proj");

// Selecting N patterns over DeepSeek-V3, a fresh selector each time (its indexes included).
template <bool Fast> void BM_SelectDeepSeek(benchmark::State &state) {
  std::vector<Pattern> pats = compileAll(bench::deepseekPatterns(static_cast<size_t>(state.range(0))));
  size_t selected = 0;
  for (auto _ : state) {
    ir::ModuleSelector sel(deepseek());
    selected = 0;
    for (const Pattern &p : pats)
      selected += (Fast ? sel.selectPattern(p) : sel.selectPatternReference(p)).size();
    benchmark::DoNotOptimize(selected);
  }
  state.counters["selected"] = static_cast<double>(selected);
}
BENCHMARK_TEMPLATE(BM_SelectDeepSeek, true)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_SelectDeepSeek, false)->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond);

// Growth in modules: 1,000 patterns over the stress naming at 250k, 500k and 1M modules.
void BM_SelectStress(benchmark::State &state) {
  ir::Inventory inv = bench::stressInventory(static_cast<size_t>(state.range(0)));
  std::vector<Pattern> pats = compileAll(bench::deepseekPatterns(static_cast<size_t>(state.range(1))));
  size_t selected = 0;
  for (auto _ : state) {
    ir::ModuleSelector sel(inv);
    selected = 0;
    for (const Pattern &p : pats)
      selected += sel.selectPattern(p).size();
    benchmark::DoNotOptimize(selected);
  }
  state.counters["selected"] = static_cast<double>(selected);
}
BENCHMARK(BM_SelectStress)
    ->Args({250'000, 1000})
    ->Args({500'000, 1000})
    ->Args({1'000'000, 1000})
    ->Args({1'000'000, 100})
    ->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
