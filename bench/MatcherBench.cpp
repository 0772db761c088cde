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
void BM_MatchReference(benchmark::State &state, const char *text) {
  matchAllNames(state, text, false);
}
BENCHMARK_CAPTURE(BM_MatchFast, glob, "model.layers.*.mlp.experts.*.down_proj");
BENCHMARK_CAPTURE(BM_MatchReference, glob, "model.layers.*.mlp.experts.*.down_proj");
BENCHMARK_CAPTURE(BM_MatchFast, ranges, "model.layers.{3..10}.mlp.experts.{0..63}.*");
BENCHMARK_CAPTURE(BM_MatchReference, ranges, "model.layers.{3..10}.mlp.experts.{0..63}.*");
BENCHMARK_CAPTURE(BM_MatchFast, variables, "model.layers.{i}.mlp.experts.{j}.up_proj");
BENCHMARK_CAPTURE(BM_MatchReference, variables, "model.layers.{i}.mlp.experts.{j}.up_proj");

// Selecting N patterns over DeepSeek-V3, a fresh selector each time (its indexes included).
template <bool Fast> void BM_SelectDeepSeek(benchmark::State &state) {
  std::vector<Pattern> pats =
      compileAll(bench::deepseekPatterns(static_cast<size_t>(state.range(0))));
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
BENCHMARK_TEMPLATE(BM_SelectDeepSeek, true)
    ->Arg(10)
    ->Arg(100)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_SelectDeepSeek, false)->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond);

// Growth in modules: 1,000 patterns over the stress naming at 250k, 500k and 1M modules.
void BM_SelectStress(benchmark::State &state) {
  ir::Inventory inv = bench::stressInventory(static_cast<size_t>(state.range(0)));
  std::vector<Pattern> pats =
      compileAll(bench::deepseekPatterns(static_cast<size_t>(state.range(1))));
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

// Worst cases: long brace alternations and patterns the literal prefilters cannot help, selected
// over inventories (fresh selector each time, its indexes included).
std::string repeat(const std::string &piece, size_t times) {
  std::string out;
  for (size_t i = 0; i < times; ++i)
    out += piece;
  return out;
}

// `count` names of `length` characters from 'a', 'b' and '.', deterministic.
ir::Inventory longNames(size_t count, size_t length) {
  ir::Inventory inv;
  uint64_t x = 88172645463325252ull;
  for (size_t i = 0; i < count; ++i) {
    std::string name(length, 'a');
    for (char &c : name) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      c = "aab."[x % 4];
    }
    inv.modules.push_back({name + std::to_string(i), "Linear"});
  }
  inv.rebuildIndex();
  return inv;
}

void selectOver(benchmark::State &state, const ir::Inventory &inv,
                const std::vector<std::string> &texts) {
  std::vector<Pattern> pats = compileAll(texts);
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

// `{*a,a*}` x 200 over 3,000 names of 1,500 characters (and the doubles: 6,000 names; 3,000
// names of 3,000 characters).
void BM_WorstStarBraces(benchmark::State &state) {
  ir::Inventory inv =
      longNames(static_cast<size_t>(state.range(0)), static_cast<size_t>(state.range(1)));
  selectOver(state, inv, {repeat("{*a,a*}", 200)});
}
BENCHMARK(BM_WorstStarBraces)
    ->Args({3000, 1500})
    ->Args({6000, 1500})
    ->Args({3000, 3000})
    ->Unit(benchmark::kMillisecond);

// `{*?,?*}` x 575 over the stress naming at 500k and 1M modules (no name is long enough).
void BM_WorstAnyBraces(benchmark::State &state) {
  selectOver(state, bench::stressInventory(static_cast<size_t>(state.range(0))),
             {repeat("{*?,?*}", 575)});
}
BENCHMARK(BM_WorstAnyBraces)->Arg(500'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

// 10 long brace alternations (40 layers x 100 experts x 3 projections, listed) at 500k and 1M.
std::vector<std::string> braceLists(size_t modules) {
  size_t layers = std::max<size_t>(1, (modules - 3) / 3078);
  std::vector<std::string> out;
  uint64_t x = 19;
  auto pick = [&](size_t of, size_t k) {
    std::vector<bool> used(of, false);
    std::string list;
    for (size_t n = 0; n < std::min(k, of);) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      size_t v = x % of;
      if (used[v])
        continue;
      used[v] = true;
      ++n;
    }
    for (size_t v = 0; v < of; ++v)
      if (used[v])
        list += (list.empty() ? "" : ",") + std::to_string(v);
    return list;
  };
  for (int i = 0; i < 10; ++i)
    out.push_back("model.layers.{" + pick(layers, 40) + "}.mlp.experts.{" + pick(1024, 100) +
                  "}.{gate,up,down}_proj");
  return out;
}
void BM_BraceLists(benchmark::State &state) {
  size_t n = static_cast<size_t>(state.range(0));
  selectOver(state, bench::stressInventory(n), braceLists(n));
}
BENCHMARK(BM_BraceLists)->Arg(500'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

// 100 many-star patterns (`*a*b*c*` with segments of the names) over DeepSeek-V3.
std::vector<std::string> manyStars() {
  static const char *const kPieces[] = {"layers", "mlp",  "experts", "proj", "self_attn", "down",
                                        "up",     "gate", "kv",      "q_",   "1",         "2",
                                        "3",      "4",    "5",       "0",    ".",         "_"};
  std::vector<std::string> out;
  uint64_t x = 6;
  for (int i = 0; i < 100; ++i) {
    std::string p = "*";
    for (int k = 0; k < 3 + i % 3; ++k) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      p += std::string(kPieces[x % (sizeof kPieces / sizeof kPieces[0])]) + "*";
    }
    out.push_back(p);
  }
  return out;
}
void BM_ManyStars(benchmark::State &state) { selectOver(state, deepseek(), manyStars()); }
BENCHMARK(BM_ManyStars)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
