// The matching cost of an msModelSlim practice: replays what msModelSlim's
// LinearQuantProcessor does for every Linear of the inventory, with wcmatch's semantics: each
// include/exclude entry is tested by exact equality, then expanded (braces) into its patterns,
// which are compiled (an LRU cache of 256 entries, as wcmatch's) and tested one by one until one
// matches. Prints the entries, their expansions, the pattern tests and compilations, and the
// replay's time.
//
//   qspec_bench_msmodelslim_match SPEC [--inventory FILE] [PRACTICE.yaml]
// Without PRACTICE the spec's msmodelslim target is compiled (with its inventory) first.
#include "emitters/Emitter.h"
#include "frontend/Frontend.h"
#include "ir/Pattern.h"
#include "passes/Pass.h"
#include "vendors/msmodelslim/MsModelSlimBraces.h"
#include "vendors/msmodelslim/MsModelSlimReader.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <list>
#include <sstream>
#include <unordered_map>

using namespace qspec;

namespace {

// wcmatch's compiled-pattern cache: 256 entries, least recently used out.
class Cache {
public:
  const std::vector<Pattern> &get(const std::string &entry) {
    auto it = index_.find(entry);
    if (it != index_.end()) {
      order_.splice(order_.begin(), order_, it->second);
      return it->second->second;
    }
    std::vector<Pattern> compiled;
    for (const std::string &p : msmodelslim::splitBraces(entry, 1)) {
      std::string err;
      if (auto c = Pattern::compile(msmodelslim::vendorPatternText(p), err))
        compiled.push_back(std::move(*c));
    }
    compilations += compiled.size();
    order_.emplace_front(entry, std::move(compiled));
    index_[entry] = order_.begin();
    if (order_.size() > 256) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
    return order_.front().second;
  }
  uint64_t compilations = 0;

private:
  std::list<std::pair<std::string, std::vector<Pattern>>> order_;
  std::unordered_map<std::string, std::list<std::pair<std::string, std::vector<Pattern>>>::iterator>
      index_;
};

struct Replay {
  Cache cache;
  uint64_t tests = 0;
  bool any(const std::vector<std::string> &entries, const std::string &name) {
    for (const std::string &e : entries) {
      if (e == name)
        return true;
      for (const Pattern &p : cache.get(e)) {
        ++tests;
        if (p.matches(name))
          return true;
      }
    }
    return false;
  }
};

bool compileSpec(const std::string &path, const std::string &inventory, ir::Spec &spec,
                 std::string &practice) {
  emit::registerAllEmitters();
  SourceManager sm;
  DiagnosticEngine diags(sm);
  frontend::FrontendOptions opts;
  opts.inventoryOverride = inventory;
  bool ok = frontend::loadSpec(path, spec, diags, opts) && passes::runPipeline(spec, diags);
  if (ok && practice.empty()) {
    const ir::Target *t = spec.target("msmodelslim");
    auto results = t ? emit::emitTargets(spec, {t}, diags, 1) : std::vector<emit::EmitResult>{};
    ok = !results.empty() && results[0].ok;
    if (ok)
      practice = results[0].out.buffer();
  }
  for (const Diagnostic &d : diags.diagnostics())
    if (d.severity == Severity::Error)
      std::cerr << d.code << ": " << d.message << "\n";
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  std::string specPath, inventory, practice;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--inventory" && i + 1 < argc) {
      inventory = argv[++i];
    } else if (specPath.empty()) {
      specPath = a;
    } else {
      std::ifstream in(a);
      std::stringstream ss;
      ss << in.rdbuf();
      practice = ss.str();
    }
  }
  if (specPath.empty()) {
    std::cerr << "usage: qspec_bench_msmodelslim_match SPEC [--inventory FILE] [PRACTICE.yaml]\n";
    return 2;
  }
  ir::Spec spec;
  if (!compileSpec(specPath, inventory, spec, practice))
    return 1;
  auto lists = vendors::linearQuantPatterns(practice);
  uint64_t entries = 0, expansions = 0, maxExpansions = 0;
  for (const auto &l : lists)
    for (const auto *list : {&l.include, &l.exclude})
      for (const std::string &e : *list) {
        uint64_t n = msmodelslim::braceExpansions(e);
        ++entries;
        expansions += n;
        maxExpansions = std::max(maxExpansions, n);
      }
  Replay r;
  uint64_t linears = 0, quantized = 0;
  auto start = std::chrono::steady_clock::now();
  for (const ir::Module &m : spec.inventory.modules) {
    if (!m.type.empty() && m.type != "Linear")
      continue;
    ++linears;
    for (const auto &l : lists)
      if (r.any(l.include, m.name) && !r.any(l.exclude, m.name)) {
        ++quantized;
        break;
      }
  }
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "practice: %zu linear_quant, %llu entries, %llu expansions (at most %llu in one entry)\n",
      lists.size(), (unsigned long long)entries, (unsigned long long)expansions,
      (unsigned long long)maxExpansions);
  std::printf(
      "replay over %llu Linears (%llu quantized): %llu pattern tests, %llu compilations, %.1f ms\n",
      (unsigned long long)linears, (unsigned long long)quantized, (unsigned long long)r.tests,
      (unsigned long long)r.cache.compilations, ms);
  return 0;
}
