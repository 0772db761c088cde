// Fuzz target: a .qspec source through the parser, the frontend (AST -> ir::Spec), every pass,
// the IR printers and every emitter the spec names. Inventory and scores are fixed in-memory
// tables (the readers have their own targets), so pattern resolution, groups and precedence run
// against real module names. Includes are not followed (no file system access).
#include "FuzzSupport.h"
#include "Targets.h"

#include "emitters/Emitter.h"
#include "frontend/Frontend.h"
#include "frontend/Parser.h"
#include "ir/IRPrinter.h"
#include "passes/Pass.h"

#include <cstdio>
#include <sstream>

using namespace qspec;

namespace {

void fillInventory(ir::Inventory &inv) {
  inv.path = "fuzz-inventory.txt";
  inv.format = "manifest";
  inv.modules.clear();
  auto add = [&](std::string name, std::string type) {
    ir::Module m;
    m.name = std::move(name);
    m.type = std::move(type);
    inv.modules.push_back(std::move(m));
  };
  add("model.embed_tokens", "Embedding");
  for (int l = 0; l < 4; ++l) {
    std::string p = "model.layers." + std::to_string(l) + ".";
    for (const char *n : {"q_proj", "k_proj", "v_proj", "o_proj"})
      add(p + "self_attn." + n, "Linear");
    for (const char *n : {"gate_proj", "up_proj", "down_proj"})
      add(p + "mlp." + n, "Linear");
    add(p + "mlp.gate", "Linear");
    add(p + "input_layernorm", "RMSNorm");
    add(p + "mlp.experts.0.conv", "Conv2d");
  }
  add("model.norm", "RMSNorm");
  add("lm_head", "Linear");
  inv.rebuildIndex();
}

void fillScores(const ir::Inventory &inv, ir::Scores &scores) {
  scores.path = "fuzz-scores.yaml";
  scores.format = "analysis-yaml";
  scores.metric = "mse_layer_wise";
  scores.entries.clear();
  uint32_t line = 1;
  for (const ir::Module &m : inv.modules) {
    if (m.type != "Linear")
      continue;
    ir::ScoreEntry e;
    e.name = m.name;
    e.score = static_cast<double>((line * 7) % 5); // some ties, so same-score groups form
    e.line = line++;
    scores.entries.push_back(std::move(e));
  }
}

} // namespace

void fuzz::initQspec() { emit::registerAllEmitters(); }

void fuzz::runQspec(const uint8_t *data, size_t size, const char *) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  diags.setErrorLimit(20);
  FileID file = sm.addFile("fuzz.qspec", std::string(reinterpret_cast<const char *>(data), size));
  frontend::FrontendOptions opts;
  opts.loadInputs = false;
  opts.parseLimits.maxFileBytes = 1u << 20;

  std::unique_ptr<ast::Node> root = frontend::parse(file, diags, opts.parseLimits);
  if (root && !diags.hasErrors()) {
    {
      fuzz::NullStream null;
      ast::printJSON(*root, sm, null);
    }
    ir::Spec spec;
    if (frontend::buildSpec(*root, "fuzz.qspec", spec, diags, opts)) {
      fillInventory(spec.inventory);
      if (spec.blockPattern)
        readers::assignBlocks(spec.inventory, *spec.blockPattern);
      bool needScores = spec.tune.present;
      for (const ir::GroupDecl &g : spec.groups)
        needScores = needScores || g.kind == ir::GroupDecl::SameScore;
      if (needScores)
        fillScores(spec.inventory, spec.scores);
      passes::PipelineOptions po;
      po.verifyEach = true;
      if (passes::runPipeline(spec, diags, po) && !diags.hasErrors()) {
        fuzz::NullStream null;
        ir::printIRJSON(spec, sm, null);
        for (uint32_t i = 0; i < spec.inventory.modules.size(); i += 5)
          ir::printExplain(spec, i, sm, null);
        for (const ir::Target &t : spec.targets) {
          auto emitter = emit::createEmitter(t.kind);
          emit::OutputContext out;
          if (emitter)
            emitter->emit(spec, t, out, diags);
        }
      }
    }
  }
  fuzz::renderAll(diags);
}
