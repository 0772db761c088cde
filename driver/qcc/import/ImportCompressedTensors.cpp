// `qcc import` of an llm-compressor recipe or a compressed-tensors quantization_config (a
// checkpoint's config.json, or the bare block), read with vendors/compressed_tensors/ and turned
// into a spec whose `target llm-compressor` vLLM reads the same way:
//
// 1. The file's checks (ct::checkDocument on the inventory): an error (over-matching `re:`
//    pattern, split fused layer, unsupported scheme) refuses the file, as vLLM would refuse it or
//    read it otherwise than its writer meant.
// 2. vLLM's reading of every module of the inventory (ct::readCompressedTensors): the matching
//    rules (exact names, `re:` prefix matches, class names, ignore, fused layers) need the
//    model's names, so the import needs --inventory.
// 3. Each quantized linear module's config group (a reading carries its group's place); the group
//    with the most modules becomes `defaults`, every other one an `override name` over its
//    modules (compressed on the inventory), and the unquantized linear modules (`ignore`) one
//    `override name ... { tier float }`. A scheme is written as `tier`, `weight` and `act` recipes
//    (dtype, scope, symmetry, observer or `dynamic`, group_size); no input_activations is
//    `act float`.
// 4. kv_cache_scheme (int8, fp8) becomes the target's `kv_cache`; what the target does not write
//    -- the modifier other than a QuantizationModifier (GPTQModifier's algorithm), the recipe's
//    other modifiers, another observer, another kv-cache scheme -- is reported not carried.
#include "driver/qcc/import/Importer.h"

#include "vendors/compressed_tensors/CompressedTensors.h"

#include <algorithm>
#include <map>

namespace qspec::import {

namespace {

using vendors::ct::Args;
using vendors::ct::ConfigGroup;
using vendors::ct::Doc;

struct CtImport {
  const Source &src;
  const Context &ctx;
  const Doc &doc;
  ImportedSpec &out;

  // A QuantizationArgs as a qspec recipe's words.
  std::vector<std::string> words(const Args &a, const char *role) const {
    std::string dtype = a.type == "float" ? "fp8_e4m3" : "int" + std::to_string(a.numBits);
    std::string scope = a.strategy == "channel"                                 ? "per_channel"
                        : a.strategy == "token"                                 ? "per_token"
                        : a.strategy == "group" || a.strategy == "tensor_group" ? "per_group"
                                                                                : "per_tensor";
    std::string method = a.dynamic ? "dynamic" : a.observer;
    if (method != "dynamic" && method != "minmax" && method != "mse" && method != "memoryless") {
      ctx.notCarried(src, a.at.line, a.at.column, std::string(role) + " observer '" + method + "'",
                     "the llm-compressor target writes minmax, mse, memoryless or dynamic");
      method = "minmax";
    }
    std::vector<std::string> w = {dtype, scope, a.symmetric ? "symmetric" : "asymmetric", method};
    if (a.groupSize)
      w.push_back("group_size=" + std::to_string(*a.groupSize));
    return w;
  }

  RuleBody body(const ConfigGroup &g) const {
    RuleBody b;
    b.tier = g.weights->type == "int" && g.weights->numBits == 4 ? "int4" : "int8";
    b.weight = words(*g.weights, "weight");
    b.act = g.acts ? words(*g.acts, "act") : std::vector<std::string>{"float"};
    return b;
  }

  // Step 4: the modifiers and settings the target does not write, found by their lines.
  void otherModifiers() const {
    size_t i = 0;
    uint32_t line = 1;
    const std::string &t = *src.text;
    while (i < t.size()) {
      size_t e = std::min(t.find('\n', i), t.size());
      std::string_view l(t.data() + i, e - i);
      size_t s = l.find_first_not_of(" \t-");
      size_t c = l.find("Modifier:");
      if (s != std::string_view::npos && c != std::string_view::npos && c > s &&
          l.find_first_of(" \t#\"'", s) > c) {
        std::string name(l.substr(s, c + 8 - s));
        if (name == "GPTQModifier")
          ctx.notCarried(src, line, s + 1, "the GPTQModifier algorithm",
                         "the llm-compressor target writes a QuantizationModifier (its schemes "
                         "are imported)");
        else if (name != "QuantizationModifier")
          ctx.notCarried(src, line, s + 1, "the " + name,
                         "the llm-compressor target writes one QuantizationModifier");
      }
      i = e + 1;
      ++line;
    }
  }

  void kvCache(TargetBlock &target) const {
    if (!doc.kvCache)
      return;
    const Args &a = *doc.kvCache;
    if (a.numBits == 8 && (a.type == "int" || a.type == "float") && a.strategy == "tensor")
      target.settings.push_back(std::string("kv_cache ") + (a.type == "int" ? "int8" : "fp8_e4m3"));
    else
      ctx.notCarried(src, a.at.line, a.at.column, "kv_cache_scheme '" + a.key() + "'",
                     "the llm-compressor target writes int8 or fp8 per-tensor kv-cache schemes");
  }
};

// Steps 2-3: the modules of each config group by vLLM's reading (-1: the unquantized linear ones).
bool modulesByGroup(const Source &src, const Context &ctx, const Doc &doc,
                    std::map<int, std::vector<std::string>> &out) {
  ir::Target target;
  target.kind = "llm-compressor";
  target.range = SourceRange::point(src.file, 1, 1);
  vendors::VendorReading reading;
  if (!vendors::ct::readCompressedTensors(*ctx.inventory, target, *src.text, reading, ctx.diags))
    return false;
  std::map<std::pair<uint32_t, uint32_t>, int> groupAt;
  for (size_t g = 0; g < doc.groups.size(); ++g)
    groupAt.emplace(std::make_pair(doc.groups[g].at.line, doc.groups[g].at.column),
                    static_cast<int>(g));
  const auto &mods = ctx.inventory->inventory.modules;
  for (size_t m = 0; m < mods.size() && m < reading.modules.size(); ++m) {
    if (!mods[m].type.empty() && mods[m].type != "Linear")
      continue; // vLLM quantizes linear layers only
    const vendors::ModuleReading &r = reading.modules[m];
    auto it = r.weight.dtype ? groupAt.find({r.line, r.column}) : groupAt.end();
    out[it == groupAt.end() ? -1 : it->second].push_back(mods[m].name);
  }
  return true;
}

} // namespace

bool importCompressedTensors(const Source &src, const Context &ctx, ImportedSpec &out) {
  Doc doc;
  std::string error;
  vendors::ct::Loc at;
  if (!vendors::ct::parseDoc(*src.text, doc, error, at)) {
    ctx.diags.report(DiagID::err_import_refused,
                     SourceRange::point(src.file, at.line ? at.line : 1, at.column ? at.column : 1),
                     {"compressed-tensors", error});
    return false;
  }
  const char *what = doc.recipe ? "llm-compressor recipes" : "compressed-tensors configs";
  if (!ctx.inventory) {
    ctx.diags.report(DiagID::err_import_needs_inventory, SourceRange::point(src.file, 1, 1),
                     {what});
    return false;
  }
  bool bad = false; // step 1
  for (const vendors::ct::Issue &i :
       vendors::ct::checkDocument(*src.text, &ctx.inventory->inventory.modules))
    if (i.error) {
      ctx.diags.report(
          DiagID::err_import_refused,
          SourceRange::point(src.file, i.at.line ? i.at.line : 1, i.at.column ? i.at.column : 1),
          {"qspec's reading of compressed-tensors",
           i.message + " (" + vendors::ct::checkName(i.check) + ")"});
      bad = true;
    }
  std::map<int, std::vector<std::string>> byGroup;
  if (bad || !modulesByGroup(src, ctx, doc, byGroup))
    return false;
  CtImport im{src, ctx, doc, out};
  Comments comments(*src.text, "#");
  out.header = doc.recipe ? comments.takeLeading() : std::vector<std::string>{};
  out.header.insert(
      out.header.begin(),
      " Imported by 'qcc import' from " + src.path + " (" +
          (doc.recipe ? "llm-compressor recipe" : "compressed-tensors quantization_config") +
          "). Review before use.");
  // The defaults: the group with the most modules (the first such in file order).
  int largest = -1;
  for (const auto &[g, names] : byGroup)
    if (g >= 0 && doc.groups[g].weights && (largest < 0 || names.size() > byGroup[largest].size()))
      largest = g;
  if (largest >= 0)
    out.defaults = im.body(doc.groups[largest]);
  else
    out.defaults.tier = "float";
  for (const auto &[g, names] : byGroup) {
    if (g == largest || (g < 0 && largest < 0))
      continue;
    Override o;
    o.selectors = namePatterns(ctx, names);
    if (g < 0) {
      o.comments.push_back(" ignore");
      o.body.tier = "float";
      if (!doc.ignore.empty())
        o.origin = SourceRange::point(src.file, doc.ignore[0].at.line, doc.ignore[0].at.column);
    } else {
      o.comments.push_back(" config group " + doc.groups[g].name);
      o.body = im.body(doc.groups[g]);
      o.origin = SourceRange::point(src.file, doc.groups[g].at.line, doc.groups[g].at.column);
    }
    out.overrides.push_back(std::move(o));
  }
  out.targets.push_back(TargetBlock{{}, "llm-compressor", "", {}});
  im.kvCache(out.targets.back());
  if (doc.recipe)
    im.otherModifiers();
  return true;
}

} // namespace qspec::import
