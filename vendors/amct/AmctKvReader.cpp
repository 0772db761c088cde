// The KV-cache read-back (AmctReader.h, readAmctKv): AMCT's reading of an AMCTQuantCaliConfig.
// AMCT quantizes the K/V output of the Linears listed in kv_cache_quant_config.quant_layers and of
// those an override_layers_configs entry names (AMCT merges both lists), to INT8 by the layer's
// entry (the first with its name) or else calibration_config: the
// algorithm (no algorithm written: ifmr) is the act method, quant_granularity (when written)
// the act scope, `asymmetric` (else activation_offset, default true) the act symmetry. A Linear
// not listed stays float; a layer of another type is not decided by the config.
#include "vendors/amct/AmctIntent.h"
#include "vendors/amct/AmctReader.h"
#include "vendors/ViewIndex.h"

namespace qspec::amct {

std::vector<vendors::ModuleReading> readKvDocument(const AmctDocument &doc,
                                                   const std::vector<ir::Module> &modules) {
  vendors::ViewIndex<const Entry *> listed(doc.kvQuantLayers.size());
  for (const Entry &e : doc.kvQuantLayers)
    listed.add(e.text, &e);
  vendors::ViewIndex<const Override *> byName(doc.nameOverrides.size());
  for (const Override &o : doc.nameOverrides)
    byName.add(o.key, &o);
  static const vendors::ReadingWord kPerChannel("per_channel"), kPerTensor("per_tensor");
  std::vector<vendors::ModuleReading> out(modules.size());
  for (size_t i = 0; i < modules.size(); ++i) {
    const ir::Module &m = modules[i];
    vendors::ModuleReading &r = out[i];
    r.known = m.type.empty() || isQuantizableType(m.type, ConfigKind::KVCache, Version{});
    const Entry *const *e = listed.find(m.name);
    const Override *const *o = byName.find(m.name);
    if (!r.known || (!e && !o))
      continue;
    const Recipe &rec = o ? (*o)->recipe : doc.global;
    r.line = o ? (*o)->line : (*e)->line;
    r.column = o ? (*o)->col : (*e)->col;
    r.tier = ir::Tier::Int8;
    r.act.method = vendors::ReadingWord(methodWord(rec.actAlgo.empty() ? "ifmr" : rec.actAlgo));
    if (rec.perChannelAct)
      r.act.scope = *rec.perChannelAct ? kPerChannel : kPerTensor;
    r.act.symmetric = !rec.asymmetric.value_or(doc.activationOffset.value_or(true));
  }
  return out;
}

} // namespace qspec::amct

namespace qspec::vendors {

bool readAmctKv(const ir::Spec &spec, const ir::Target &target, const amct::AmctDocument &doc,
                VendorReading &out, DiagnosticEngine &diags) {
  out.fields = FieldTier | FieldActMethod | FieldActScope | FieldActSymmetric;
  amct::CheckOptions co;
  co.pytorchTypes = true;
  const auto &mods = spec.inventory.modules;
  bool withInventory = spec.resolution.done && spec.resolution.modules.size() == mods.size();
  std::string tiedHead; // outlives co.layerTypes' views
  if (withInventory)
    amct::addInventoryLayers(spec.inventory, spec.modelConfig, co, tiedHead);
  bool ok = true;
  for (const amct::Finding &f : amct::checkDocument(doc, co))
    if (f.level == amct::Finding::Error) {
      diags.report(DiagID::err_amct_check, target.range, {amct::checkName(f.check), f.message});
      ok = false;
    }
  if (ok && withInventory)
    out.modules = amct::readKvDocument(doc, mods);
  return ok;
}

} // namespace qspec::vendors
