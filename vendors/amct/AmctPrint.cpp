// printAmctConfig (AmctConfig.h): a qspec-typed AmctDocument built into the project's protobuf
// messages and printed with libprotobuf's TextFormat::Printer. The emitter lowers its plan to a
// document and calls this; no protobuf type leaves this folder.
#include "vendors/amct/AmctConfig.h"
#include "vendors/amct/AmctProto.h"

#include <google/protobuf/stubs/strutil.h>
#include <google/protobuf/text_format.h>

#include <algorithm>

namespace qspec::amct {

namespace {

namespace P = AMCTPytorchProto;
namespace K = AMCTPytorchQuantCaliProto;

P::DataType toProto(DataType t) {
  return t == DataType::Int4 ? P::INT4 : t == DataType::Int16 ? P::INT16 : P::INT8;
}

// A document's string: copied from a const one, moved out of one printed as a temporary.
std::string take(const std::string &s) { return s; }
std::string take(std::string &s) { return std::move(s); }

template <typename List, typename Entries> void addAll(List *list, Entries &entries) {
  for (auto &e : entries)
    list->Add(take(e.text));
}

// IFMR's search of the clip factor, in the PTQ and the KV-cache message alike.
template <typename Q> void setIfmrSearch(Q *q, const Recipe &r) {
  if (r.searchStart)
    q->set_search_range_start(static_cast<float>(*r.searchStart));
  if (r.searchEnd)
    q->set_search_range_end(static_cast<float>(*r.searchEnd));
  if (r.searchStep)
    q->set_search_step(static_cast<float>(*r.searchStep));
  if (r.maxPercentile)
    q->set_max_percentile(static_cast<float>(*r.maxPercentile));
}

template <typename Q> void setWeightQuantize(Q *q, const Recipe &r) {
  if (r.channelWise)
    q->set_channel_wise(*r.channelWise);
}

void writePtqRecipe(const Recipe &r, P::CalibrationConfig &c) {
  if (r.wtsAlgo == "ada") {
    setWeightQuantize(c.mutable_ada_quantize(), r);
  } else if (r.wtsAlgo == "arq") {
    auto *q = c.mutable_arq_quantize();
    setWeightQuantize(q, r);
    if (r.quantBits)
      q->set_quant_bits(*r.quantBits);
  }
  if (r.actAlgo == "hfmg") {
    auto *q = c.mutable_hfmg_quantize();
    if (r.numOfBins)
      q->set_num_of_bins(*r.numOfBins);
    if (r.asymmetric)
      q->set_asymmetric(*r.asymmetric);
    if (r.actType)
      q->set_dst_type(*r.actType == DataType::Int16 ? P::HFMGQuantize::INT16
                                                    : P::HFMGQuantize::INT8);
  } else if (r.actAlgo == "ifmr") {
    auto *q = c.mutable_ifmr_quantize();
    setIfmrSearch(q, r);
    if (r.asymmetric)
      q->set_asymmetric(*r.asymmetric);
    if (r.actType)
      q->set_dst_type(*r.actType == DataType::Int16 ? P::FMRQuantize::INT16 : P::FMRQuantize::INT8);
  }
  if (r.hasDmq && r.dmqStrength)
    c.mutable_dmq_balancer()->set_migration_strength(static_cast<float>(*r.dmqStrength));
}

void writePrune(const Recipe &r, P::PruneConfig &p) {
  if (r.pruner == "filter") {
    auto *f = p.mutable_filter_pruner()->mutable_balanced_l2_norm_filter_prune();
    f->set_prune_ratio(static_cast<float>(r.pruneRatio.value_or(0)));
    if (r.ascendOptimized)
      f->set_ascend_optimized(*r.ascendOptimized);
  } else if (r.pruner == "n_out_of_m") {
    auto *l = p.mutable_n_out_of_m_pruner()->mutable_l1_selective_prune();
    l->set_n_out_of_m_type(P::M4N2);
    if (r.updateFreq)
      l->set_update_freq(*r.updateFreq);
  }
}

// The QAT blocks of a recipe, into any message with the retrain_* and prune_config fields.
template <typename M> void writeQatRecipe(const Recipe &r, M &m) {
  if (r.actAlgo == "ulq") {
    auto *u = m.mutable_retrain_data_quant_config()->mutable_ulq_quantize();
    if (r.clipMax && r.clipMin) {
      u->mutable_clip_max_min()->set_clip_max(static_cast<float>(*r.clipMax));
      u->mutable_clip_max_min()->set_clip_min(static_cast<float>(*r.clipMin));
    }
    if (r.fixedMin)
      u->set_fixed_min(*r.fixedMin);
    if (r.actType)
      u->set_dst_type(toProto(*r.actType));
  }
  auto weights = [&](auto *q) {
    if (r.weightType)
      q->set_dst_type(toProto(*r.weightType));
    setWeightQuantize(q, r);
  };
  if (r.wtsAlgo == "ulq")
    weights(m.mutable_retrain_weight_quant_config()->mutable_ulq_retrain());
  else if (r.wtsAlgo == "arq")
    weights(m.mutable_retrain_weight_quant_config()->mutable_arq_retrain());
  if (r.hasPrune)
    writePrune(r, *m.mutable_prune_config());
}

// Strings as SetUseUtf8StringEscaping(true) prints them (in quotes, through Utf8SafeCEscape), with
// one shortcut: a string of printable ASCII that needs no escape (a module name) is written as it
// is. The escaping scanned and copied each byte of tens of thousands of layer names twice.
class Utf8StringPrinter : public google::protobuf::TextFormat::FastFieldValuePrinter {
public:
  void PrintString(const std::string &val,
                   google::protobuf::TextFormat::BaseTextGenerator *out) const override {
    auto plain = [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\'' && c != '\\'; };
    out->PrintLiteral("\"");
    if (std::all_of(val.begin(), val.end(), plain))
      out->PrintString(val);
    else
      out->PrintString(google::protobuf::strings::Utf8SafeCEscape(val));
    out->PrintLiteral("\"");
  }
  // bytes fields keep the plain C escaping, as with SetUseUtf8StringEscaping.
  void PrintBytes(const std::string &val,
                  google::protobuf::TextFormat::BaseTextGenerator *out) const override {
    FastFieldValuePrinter::PrintString(val, out);
  }
};

std::string print(const google::protobuf::Message &m) {
  google::protobuf::TextFormat::Printer printer;
  printer.SetDefaultFieldValuePrinter(new Utf8StringPrinter); // the printer owns it
  std::string out;
  printer.PrintToString(m, &out);
  return out;
}

template <typename Doc> std::string printPtq(Doc &doc) {
  P::AMCTConfig m;
  if (doc.batchNum)
    m.set_batch_num(*doc.batchNum);
  if (doc.activationOffset)
    m.set_activation_offset(*doc.activationOffset);
  addAll(m.mutable_skip_layers(), doc.skipLayers);
  addAll(m.mutable_skip_layer_types(), doc.skipLayerTypes);
  if (doc.forceFp16)
    m.set_fakequant_precision_mode(P::FORCE_FP16_QUANT);
  if (doc.global.present)
    writePtqRecipe(doc.global, *m.mutable_common_config());
  for (auto &o : doc.typeOverrides) {
    auto *e = m.add_override_layer_types();
    e->set_layer_type(take(o.key));
    writePtqRecipe(o.recipe, *e->mutable_calibration_config());
  }
  for (auto &o : doc.nameOverrides) {
    auto *e = m.add_override_layer_configs();
    e->set_layer_name(take(o.key));
    writePtqRecipe(o.recipe, *e->mutable_calibration_config());
  }
  if (doc.doFusion)
    m.set_do_fusion(*doc.doFusion);
  addAll(m.mutable_skip_fusion_layers(), doc.skipFusionLayers);
  return print(m);
}

template <typename Doc> std::string printQat(Doc &doc) {
  P::AMCTRetrainConfig m;
  if (doc.batchNum)
    m.set_batch_num(*doc.batchNum);
  writeQatRecipe(doc.global, m);
  addAll(m.mutable_skip_layers(), doc.skipLayers);
  addAll(m.mutable_skip_layer_types(), doc.skipLayerTypes);
  addAll(m.mutable_quant_skip_layers(), doc.quantSkipLayers);
  addAll(m.mutable_quant_skip_types(), doc.quantSkipTypes);
  addAll(m.mutable_regular_prune_skip_layers(), doc.pruneSkipLayers);
  addAll(m.mutable_regular_prune_skip_types(), doc.pruneSkipTypes);
  for (auto &o : doc.nameOverrides) {
    auto *e = m.add_override_layer_configs();
    e->set_layer_name(take(o.key));
    writeQatRecipe(o.recipe, *e);
  }
  for (auto &o : doc.typeOverrides) {
    auto *e = m.add_override_layer_types();
    e->set_layer_type(take(o.key));
    writeQatRecipe(o.recipe, *e);
  }
  if (doc.forceFp16)
    m.set_fakequant_precision_mode(P::AMCTRetrainConfig::FORCE_FP16_QUANT);
  return print(m);
}

void writeKvRecipe(const Recipe &r, K::CalibrationConfig &c) {
  auto common = [&](auto *q) {
    if (r.asymmetric)
      q->set_asymmetric(*r.asymmetric);
    if (r.perChannelAct)
      q->set_quant_granularity(*r.perChannelAct ? K::per_channel : K::per_tensor);
  };
  if (r.actAlgo == "hfmg") {
    auto *q = c.mutable_hfmg_quantize();
    if (r.numOfBins)
      q->set_num_of_bins(*r.numOfBins);
    common(q);
  } else if (r.actAlgo == "ifmr") {
    auto *q = c.mutable_ifmr_quantize();
    setIfmrSearch(q, r);
    common(q);
  }
}

template <typename Doc> std::string printKv(Doc &doc) {
  K::AMCTQuantCaliConfig m;
  if (doc.batchNum)
    m.set_batch_num(*doc.batchNum);
  if (doc.activationOffset)
    m.set_activation_offset(*doc.activationOffset);
  auto *kv = m.mutable_kv_cache_quant_config();
  addAll(kv->mutable_quant_layers(), doc.kvQuantLayers);
  if (doc.global.present)
    writeKvRecipe(doc.global, *kv->mutable_calibration_config());
  for (auto &o : doc.nameOverrides) {
    auto *e = m.add_override_layers_configs();
    e->set_layer_name(take(o.key));
    writeKvRecipe(o.recipe, *e->mutable_kv_data_quant_config());
  }
  return print(m);
}

template <typename Doc> std::string printAny(Doc &doc) {
  switch (doc.kind) {
  case ConfigKind::QAT:
    return printQat(doc);
  case ConfigKind::KVCache:
    return printKv(doc);
  default:
    return printPtq(doc);
  }
}

} // namespace

std::string printAmctConfig(const AmctDocument &doc) { return printAny(doc); }

std::string printAmctConfig(AmctDocument &&doc) { return printAny(doc); }

} // namespace qspec::amct
