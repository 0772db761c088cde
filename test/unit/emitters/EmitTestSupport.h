// Shared by the emitter unit tests: compile a spec text against a hand-given inventory and run
// one backend, collecting the diagnostic IDs; parse a practice text.
#pragma once

#include "emitters/Emitter.h"
#include "frontend/Frontend.h"
#include "passes/Pass.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"

#include <gtest/gtest.h>

#include <fstream>
#include <filesystem>
#include <functional>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace qspec::testsupport {

// A practice text parsed as msModelSlim's loader reads it (a parse failure fails the test).
inline msmodelslim::PracticeDoc parsePracticeText(const std::string &yaml) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  msmodelslim::PracticeDoc doc;
  EXPECT_TRUE(msmodelslim::parsePractice(yaml, 0, doc, diags));
  return doc;
}

struct EmitRun {
  bool ok = false;
  std::string out, fileName;
  std::vector<std::string> ids; // diagnostic IDs reported
};

using Mods = std::vector<std::pair<std::string, std::string>>; // name, type

// Compiles `specText` with `mods` as its inventory (empty: none) and emits target `kind`.
// `tweak` may edit the resolved spec before emission (to build IRs a manifest cannot hold).
// `inventoryFormat` is what the inventory claims to be (HMCT checks names only against ONNX).
// `beforePasses` may add to the spec what the frontend would have read (an ONNX graph beside the
// inventory) before the passes run.
inline EmitRun compileAndEmit(const std::string &kind, const std::string &specText,
                              const Mods &mods, ir::Spec &spec,
                              const std::function<void(ir::Spec &)> &tweak = {},
                              const std::string &inventoryFormat = "manifest",
                              const std::function<void(ir::Spec &)> &beforePasses = {}) {
  namespace fs = std::filesystem;
  emit::registerAllEmitters();
  fs::path dir =
      fs::temp_directory_path() / ("qspec_emit_" + kind + "_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path p = dir / "spec.qspec";
  std::ofstream(p) << specText;
  static SourceManager sm; // ranges in the spec outlive this call
  DiagnosticEngine diags(sm);
  EmitRun r;
  auto collect = [&] {
    for (const auto &d : diags.diagnostics())
      r.ids.push_back(d.code);
  };
  if (!frontend::loadSpec(p.string(), spec, diags)) {
    collect();
    return r;
  }
  if (!mods.empty()) {
    spec.inventory.path = "<test>";
    spec.inventory.format = inventoryFormat;
    for (const auto &[n, t] : mods)
      spec.inventory.modules.push_back({n, t, -1, 0});
    spec.inventory.rebuildIndex();
    if (spec.blockPattern)
      readers::assignBlocks(spec.inventory, *spec.blockPattern);
  }
  if (beforePasses)
    beforePasses(spec);
  if (!passes::runPipeline(spec, diags)) {
    collect();
    return r;
  }
  if (tweak)
    tweak(spec);
  auto em = emit::createEmitter(kind);
  emit::OutputContext out;
  r.ok = em->emit(spec, *spec.target(kind), out, diags) && !diags.hasErrors();
  r.out = out.buffer();
  r.fileName = out.fileName;
  collect();
  return r;
}

} // namespace qspec::testsupport
