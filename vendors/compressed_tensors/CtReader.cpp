// vLLM's reading of a recipe or a quantization_config (CompressedTensors.h, rules 1-4), module by
// module over the inventory's (unfused, Hugging Face) names:
//
// 1. vLLM quantizes linear layers only: a module of another known type is read unquantized.
// 2. A shard of a fused layer (q/k/v_proj, gate/up_proj, all shards present) is read as vLLM reads
//    the fused layer: ignored only if every shard is ignored (some but not all is refused, as vLLM
//    refuses it), else the fused layer's group (name, class, then all shards). Each shard's own
//    group -- the scheme llm-compressor quantized it with -- must be that scheme, else refused.
// 3. Any other module: ignored, else vLLM's group; when compressed-tensors (the quantizing side)
//    gives it a group with another scheme, the file is refused.
// 4. Under an activation format (int-, float-, naive-quantized), vLLM requires activations in
//    every group whose weights are integers: a group without is refused.
#include "vendors/compressed_tensors/CompressedTensors.h"

namespace qspec::vendors::ct {

namespace {

const char *scopeWord(const std::string &strategy) {
  if (strategy == "tensor")
    return "per_tensor";
  if (strategy == "channel")
    return "per_channel";
  if (strategy == "group" || strategy == "tensor_group")
    return "per_group";
  if (strategy == "block")
    return "per_block";
  if (strategy == "token")
    return "per_token";
  return nullptr;
}

std::string dtypeWord(const Args &a) {
  if (a.type == "float")
    return a.numBits == 8 ? "fp8_e4m3" : "fp" + std::to_string(a.numBits);
  return "int" + std::to_string(a.numBits);
}

RoleReading roleOf(const Args &a) {
  RoleReading r;
  r.dtype = dtypeWord(a);
  if (const char *s = scopeWord(a.strategy))
    r.scope = s;
  r.symmetric = a.symmetric;
  r.method = a.dynamic ? std::string("dynamic") : a.observer;
  return r;
}

} // namespace

ModuleReading readingOf(const ConfigGroup *g) {
  ModuleReading r;
  r.known = true;
  if (!g || !g->weights)
    return r; // unquantized (a group without weights quantizes nothing qspec compares)
  r.tier = g->weights->numBits == 4 ? ir::Tier::Int4 : ir::Tier::Int8;
  r.weight = roleOf(*g->weights);
  if (g->acts)
    r.act = roleOf(*g->acts);
  else
    r.act.dtype = "float";
  r.line = g->at.line;
  r.column = g->at.column;
  return r;
}

bool readCompressedTensors(const ir::Spec &spec, const ir::Target &target, std::string_view bytes,
                           VendorReading &out, DiagnosticEngine &diags) {
  Doc doc;
  std::string error;
  Loc at;
  const char *what = "file";
  auto refuse = [&](const std::string &why) {
    diags.report(DiagID::err_llmc_refused, target.range,
                 {what, std::to_string(at.line), std::to_string(at.column), why});
    return false;
  };
  if (!parseDoc(bytes, doc, error, at))
    return refuse(error);
  what = doc.recipe ? "recipe" : "quantization_config";
  Rules rules;
  if (!rules.build(doc, error, at))
    return refuse(error);
  if (std::vector<Issue> bad = schemeIssues(doc); !bad.empty()) {
    at = bad[0].at;
    return refuse(bad[0].message);
  }
  // Quantized or not, the dtypes (the weight's width tells int4 from int8), scopes and symmetry;
  // the method is not compared (compressed-tensors has observers for few of qspec's methods).
  out.fields = FieldWeightDtype | FieldWeightScope | FieldWeightSymmetric | FieldActDtype |
               FieldActScope | FieldActSymmetric;
  const auto &mods = spec.inventory.modules;
  out.modules.assign(mods.size(), ModuleReading{});
  auto schemeKey = [&](int g) { return g < 0 ? std::string("unquantized") : doc.groups[g].key(); };
  auto groupName = [&](int g) { return g < 0 ? std::string("no group") : doc.groups[g].name; };
  for (size_t i = 0; i < mods.size(); ++i) {
    const ir::Module &m = mods[i];
    ModuleReading &r = out.modules[i];
    if (!m.type.empty() && m.type != "Linear") {
      r.known = true; // rule 1
      continue;
    }
    std::string cls = m.type.empty() ? std::string("Linear") : m.type;
    std::optional<Fused> f = fusedLayerOf(m.name);
    if (f)
      for (const std::string &s : f->shards)
        if (!spec.inventory.index.find(s).found)
          f.reset();
    int group = -1;
    const Entry *ign = rules.ignoredBy(m.name);
    if (f) { // rule 2
      bool all = true, any = false;
      for (const std::string &s : f->shards) {
        const Entry *e = rules.ignoredBy(s);
        all = all && e;
        any = any || e;
        if (e)
          at = e->at;
      }
      if (any && !all)
        return refuse("ignore takes some shards of the fused layer '" + f->name +
                      "' but not all; vLLM refuses the checkpoint");
      if (!all) {
        group = rules.vllmFusedGroup(*f, "ParallelLinear");
        for (const std::string &s : f->shards) {
          int own = rules.libraryGroup(s, cls);
          if (schemeKey(own) != schemeKey(group)) {
            at = own >= 0 ? doc.groups[own].at : Loc{};
            return refuse("'" + s + "' is quantized by " + groupName(own) + " but vLLM loads the " +
                          "fused layer '" + f->name + "' with " + groupName(group) +
                          "; every shard of a fused layer needs one scheme");
          }
        }
      }
    } else if (!ign) { // rule 3
      group = rules.vllmGroup(m.name, cls);
      int own = rules.libraryGroup(m.name, cls);
      if (schemeKey(own) != schemeKey(group)) {
        at = own >= 0 ? doc.groups[own].at : Loc{};
        return refuse("compressed-tensors quantizes '" + m.name + "' with " + groupName(own) +
                      " but vLLM loads it with " + groupName(group));
      }
    }
    r = readingOf(group >= 0 ? &doc.groups[group] : nullptr);
    if (group < 0 && ign) {
      r.line = ign->at.line;
      r.column = ign->at.column;
    }
  }
  return true;
}

} // namespace qspec::vendors::ct
