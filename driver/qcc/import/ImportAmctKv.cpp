// `qcc import` of an AMCT KV-cache config (AMCTQuantCaliConfig, importAmctKv in Importer.h): a
// spec with `target amct kv` that AMCT's KV-cache reading (vendors/amct/AmctReader.h,
// readKvDocument) agrees with. Every layer is float by default; the layers of quant_layers and
// of override_layers_configs (AMCT merges the two lists) are int8 by name, each with the recipe
// AMCT applies to it (its override_layers_configs entry, else calibration_config) written complete:
// the algorithm as the act method (none written: ifmr), quant_granularity as the act scope, the
// symmetry AMCT gives (`asymmetric`, else activation_offset), the algorithm's fields in the rule's
// `amct { }` block. Layers with the same recipe share one rule.
#include "driver/qcc/import/Importer.h"

#include "frontend/Parser.h"
#include "vendors/amct/AmctConfig.h"

#include <map>
#include <set>

namespace qspec::import {

namespace {

using namespace qspec::amct;

RuleBody kvBody(const AmctDocument &doc, const Recipe &r) {
  RuleBody b;
  b.tier = "int8";
  b.act.push_back("int8");
  if (r.perChannelAct)
    b.act.push_back(*r.perChannelAct ? "per_channel" : "per_tensor");
  bool asym = r.asymmetric.value_or(doc.activationOffset.value_or(true));
  b.act.push_back(asym ? "asymmetric" : "symmetric");
  std::string algo = r.actAlgo.empty() ? "ifmr" : r.actAlgo;
  b.act.push_back(algo);
  std::string block;
  auto add = [&](const std::string &s) { block += (block.empty() ? "" : "; ") + s; };
  if (algo == "hfmg" && r.numOfBins)
    add("num_of_bins " + std::to_string(*r.numOfBins));
  if (algo == "ifmr") {
    const std::pair<const char *, const std::optional<double> *> knobs[] = {
        {"search_range_start", &r.searchStart},
        {"search_range_end", &r.searchEnd},
        {"search_step", &r.searchStep},
        {"max_percentile", &r.maxPercentile}};
    for (const auto &[name, v] : knobs)
      if (*v)
        add(std::string(name) + " " + floatText(**v));
  }
  if (!block.empty())
    b.targetBlocks.push_back("amct { " + block + " }");
  return b;
}

} // namespace

bool importAmctKv(const Source &src, const Context &ctx, const AmctDocument &doc,
                  ImportedSpec &out) {
  Comments comments(*src.text);
  out.header = comments.takeLeading();
  out.header.insert(out.header.begin(), " Imported by 'qcc import' from " + src.path +
                                            " (AMCT KV-cache). Review before use.");
  out.defaults.tier = "float";
  std::map<std::string, const amct::Override *> entries;
  for (const amct::Override &o : doc.nameOverrides)
    entries.try_emplace(o.key, &o); // the first entry of a name decides
  std::set<std::string> listed;
  std::vector<std::string> order;
  std::map<std::string, std::pair<import::Override, std::vector<std::string>>> byBody;
  // quant_layers, then the entries' layers not listed there (AMCT quantizes both).
  std::vector<const Entry *> layers;
  std::vector<Entry> extra;
  extra.reserve(doc.nameOverrides.size());
  for (const amct::Override &o : doc.nameOverrides)
    extra.push_back(Entry{o.key, o.line, o.col});
  for (const Entry &e : doc.kvQuantLayers)
    layers.push_back(&e);
  for (const Entry &e : extra)
    layers.push_back(&e);
  for (const Entry *ep : layers) {
    const Entry &e = *ep;
    if (!listed.insert(e.text).second)
      continue;
    const ir::Module *m = ctx.inventory ? ctx.inventory->inventory.find(e.text) : nullptr;
    if (ctx.inventory && (!m || (!m->type.empty() && m->type != "Linear"))) {
      ctx.notCarried(src, e.line ? e.line : 1, e.col ? e.col : 1, "the layer \"" + e.text + "\"",
                     m ? "the layer is a " + m->type + ", and AMCT's KV-cache quantizes Linear only"
                       : "the inventory has no layer of that name");
      continue;
    }
    auto it = entries.find(e.text);
    const amct::Override *entry = it == entries.end() ? nullptr : it->second;
    RuleBody b = kvBody(doc, entry ? entry->recipe : doc.global);
    std::string key = b.text();
    auto [slot, fresh] = byBody.try_emplace(key);
    if (fresh) {
      order.push_back(key);
      slot->second.first.body = b;
      uint32_t line = entry ? entry->line : e.line, col = entry ? entry->col : e.col;
      slot->second.first.origin = SourceRange::point(src.file, line ? line : 1, col ? col : 1);
    }
    for (const std::string &c : comments.take(e.line))
      slot->second.first.comments.push_back(c);
    slot->second.second.push_back(e.text);
  }
  for (const std::string &key : order) {
    auto &[rule, names] = byBody[key];
    rule.selectors = namePatterns(ctx, names);
    out.overrides.push_back(std::move(rule));
  }
  TargetBlock t;
  t.kind = "amct";
  t.variant = "kv";
  if (doc.batchNum)
    t.settings.push_back("batch_num " + std::to_string(*doc.batchNum));
  if (doc.activationOffset)
    t.settings.push_back(std::string("activation_offset ") +
                         (*doc.activationOffset ? "true" : "false"));
  t.comments = comments.rest();
  out.targets.push_back(std::move(t));
  return true;
}

} // namespace qspec::import
