// Micro-benchmarks of the inventory and score readers (and assignBlocks) on model-sized inputs,
// written to a temporary folder first (DeepSeek-V3 names; the 1,000,000-module stress manifest).
//
//   qspec_bench_readers [--benchmark_filter=REGEX] [--benchmark_repetitions=5]
#include "BenchNames.h"

#include "frontend/readers/Readers.h"
#include "ir/Diagnostics.h"
#include "ir/Location.h"
#include "ir/Pattern.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>

#include <unistd.h>

using namespace qspec;
namespace fs = std::filesystem;

namespace {

fs::path benchDir() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("qspec-bench-readers-" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

// Writes `file` once per process with `fill`.
std::string input(const std::string &file, const std::function<void(std::ofstream &)> &fill) {
  fs::path p = benchDir() / file;
  if (!fs::exists(p)) {
    fs::create_directories(p.parent_path());
    std::ofstream os(p);
    fill(os);
  }
  return p.string();
}

void manifest(std::ofstream &os, const ir::Inventory &inv) {
  for (const ir::Module &m : inv.modules)
    os << m.name << ' ' << m.type << '\n';
}

void BM_ReadInventory(benchmark::State &state, const std::string &path) {
  size_t modules = 0;
  for (auto _ : state) {
    SourceManager sm;
    DiagnosticEngine diags(sm);
    ir::Inventory inv;
    if (!readers::readInventory(path, inv, diags)) {
      state.SkipWithError("the reader rejected the input (format not supported yet?)");
      break;
    }
    modules = inv.modules.size();
  }
  state.counters["modules"] = static_cast<double>(modules);
}

void BM_ReadScores(benchmark::State &state, const std::string &path, bool stream = true) {
  size_t entries = 0;
  readers::ReaderLimits limits;
  limits.streamAnalysisYaml = stream;
  for (auto _ : state) {
    SourceManager sm;
    DiagnosticEngine diags(sm);
    ir::Scores scores;
    if (!readers::readScores(path, scores, diags, {}, limits)) {
      state.SkipWithError("the reader rejected the input (format not supported yet?)");
      break;
    }
    entries = scores.entries.size();
  }
  state.counters["entries"] = static_cast<double>(entries);
}

// assignBlocks with the block pattern of the model specs, on an inventory built once.
void BM_AssignBlocks(benchmark::State &state, ir::Inventory inv) {
  std::string err;
  const std::optional<Pattern> blocks = Pattern::compile("model.layers.{i}", err);
  for (auto _ : state) {
    readers::assignBlocks(inv, *blocks);
    benchmark::DoNotOptimize(inv.modules.back().block);
  }
  state.counters["modules"] = static_cast<double>(inv.modules.size());
}

// Linear modules of DeepSeek-V3 with a made-up, distinct score each.
std::vector<std::pair<std::string, double>> deepseekScores() {
  std::vector<std::pair<std::string, double>> out;
  ir::Inventory inv = bench::deepseekV3Inventory();
  for (size_t i = 0; i < inv.modules.size(); ++i)
    if (inv.modules[i].type == "Linear")
      out.emplace_back(inv.modules[i].name, 1.0 / static_cast<double>(i + 2));
  return out;
}

void registerAll() {
  benchmark::RegisterBenchmark("BM_ReadInventory/manifest/deepseek-v3", [](benchmark::State &s) {
    BM_ReadInventory(s, input("deepseek-v3.manifest", [](std::ofstream &os) {
                       manifest(os, bench::deepseekV3Inventory());
                     }));
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_ReadInventory/manifest/stress-1M", [](benchmark::State &s) {
    BM_ReadInventory(s, input("stress.manifest", [](std::ofstream &os) {
                       manifest(os, bench::stressInventory(1'000'000));
                     }));
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_ReadInventory/index-json/deepseek-v3", [](benchmark::State &s) {
    BM_ReadInventory(s, input("deepseek-v3/model.safetensors.index.json", [](std::ofstream &os) {
                       ir::Inventory inv = bench::deepseekV3Inventory();
                       os << "{\n  \"metadata\": {\"total_size\": 1},\n  \"weight_map\": {\n";
                       for (size_t i = 0; i < inv.modules.size(); ++i)
                         os << "    \"" << inv.modules[i].name << ".weight\": \"model-"
                            << (i / 300 + 1) << ".safetensors\""
                            << (i + 1 < inv.modules.size() ? ",\n" : "\n");
                       os << "  }\n}\n";
                     }));
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_AssignBlocks/deepseek-v3", [](benchmark::State &s) {
    BM_AssignBlocks(s, bench::deepseekV3Inventory());
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_AssignBlocks/stress-1M", [](benchmark::State &s) {
    BM_AssignBlocks(s, bench::stressInventory(1'000'000));
  })->Unit(benchmark::kMillisecond);
  static const auto deepseekYaml = [](std::ofstream &os) {
    os << "method: std\nlayer_scores:\n";
    for (auto &[name, score] : deepseekScores())
      os << "- name: " << name << "\n  score: " << score << "\n";
  };
  benchmark::RegisterBenchmark("BM_ReadScores/analysis-yaml/deepseek-v3", [](benchmark::State &s) {
    BM_ReadScores(s, input("analysis_result.yaml", deepseekYaml));
  })->Unit(benchmark::kMillisecond);
  // The same file by the yaml-cpp tree reader alone (what the streamed reader replaced), and
  // 90k / 1M entries of the stress naming for the growth.
  benchmark::RegisterBenchmark("BM_ReadScores/analysis-yaml-tree/deepseek-v3", [](benchmark::State
                                                                                      &s) {
    BM_ReadScores(s, input("analysis_result.yaml", deepseekYaml), false);
  })->Unit(benchmark::kMillisecond);
  for (size_t n : {90'000, 1'000'000}) {
    std::string name = "BM_ReadScores/analysis-yaml/stress-" + std::to_string(n / 1000) + "k";
    benchmark::RegisterBenchmark(name.c_str(), [n](benchmark::State &s) {
      BM_ReadScores(s,
                    input("analysis_result-" + std::to_string(n) + ".yaml", [n](std::ofstream &os) {
                      os << "method: std\nlayer_scores:\n";
                      ir::Inventory inv = bench::stressInventory(n);
                      for (size_t i = 0; i < inv.modules.size(); ++i)
                        os << "- name: " << inv.modules[i].name
                           << "\n  score: " << 1.0 / static_cast<double>(i + 2) << "\n";
                    }));
    })->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("BM_ReadScores/msmodelslim-log/deepseek-v3", [](benchmark::State
                                                                                   &s) {
    BM_ReadScores(s, input("analyze.log", [](std::ofstream &os) {
                    os << "Layer Analysis Results (method: std)\n";
                    int rank = 1;
                    for (auto &[name, score] : deepseekScores()) {
                      char buf[256];
                      std::snprintf(buf, sizeof buf, "%3d. %-50s | Score: %12.4e\n", rank++,
                                    name.c_str(), score);
                      os << buf;
                    }
                  }));
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_ReadScores/hmct-json/deepseek-v3", [](benchmark::State &s) {
    BM_ReadScores(s, input("sensitivity.json", [](std::ofstream &os) {
                    os << "{\n";
                    auto scores = deepseekScores();
                    for (size_t i = 0; i < scores.size(); ++i)
                      os << "  \"" << scores[i].first
                         << "\": {\"cosine-similarity\": " << 1.0 - scores[i].second << "}"
                         << (i + 1 < scores.size() ? ",\n" : "\n");
                    os << "}\n";
                  }));
  })->Unit(benchmark::kMillisecond);
}

} // namespace

int main(int argc, char **argv) {
  registerAll();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::error_code ec;
  fs::remove_all(benchDir(), ec);
  return 0;
}
