// The strict AMCT .cfg reader (AmctConfig.h): libprotobuf TextFormat::Parser into the project's
// messages, then a walk that copies what was written into qspec types, with line numbers from
// the parser's ParseInfoTree. documentFromPtq/Qat (AmctProto.h) are shared with the emitter.
#include "vendors/amct/AmctConfig.h"
#include "vendors/amct/AmctProto.h"
#include "vendors/Parsed.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <optional>

namespace qspec::amct {

namespace pb = google::protobuf;
namespace P = AMCTPytorchProto;
namespace K = AMCTPytorchQuantCaliProto;

namespace {

class Collector : public pb::io::ErrorCollector {
public:
  std::vector<ParseError> errors;
  void AddError(int line, pb::io::ColumnNumber column, const std::string &message) override {
    ParseError e;
    e.line = line >= 0 ? static_cast<uint32_t>(line) + 1 : 0;
    e.col = line >= 0 ? static_cast<uint32_t>(column) + 1 : 0;
    e.message = message;
    errors.push_back(std::move(e));
  }
  void AddWarning(int, pb::io::ColumnNumber, const std::string &) override {}
};

// Location helpers over an optional ParseInfoTree.
struct Loc {
  const pb::TextFormat::ParseInfoTree *tree = nullptr;
  uint32_t line(const pb::Message &m, const char *field, int index = -1) const {
    if (!tree)
      return 0;
    const pb::FieldDescriptor *f = m.GetDescriptor()->FindFieldByName(field);
    if (!f)
      return 0;
    auto l = tree->GetLocation(f, index);
    return l.line >= 0 ? static_cast<uint32_t>(l.line) + 1 : 0;
  }
  uint32_t col(const pb::Message &m, const char *field, int index = -1) const {
    if (!tree)
      return 0;
    const pb::FieldDescriptor *f = m.GetDescriptor()->FindFieldByName(field);
    auto l = f ? tree->GetLocation(f, index) : pb::TextFormat::ParseLocation();
    return l.column >= 0 ? static_cast<uint32_t>(l.column) + 1 : 0;
  }
  Loc nested(const pb::Message &m, const char *field, int index = -1) const {
    if (!tree)
      return {};
    const pb::FieldDescriptor *f = m.GetDescriptor()->FindFieldByName(field);
    return Loc{f ? tree->GetTreeForNested(f, index) : nullptr};
  }
};

// The entries of a repeated string field, moved out of the parsed message (which is dropped
// after), the field's descriptor found once.
std::vector<Entry> entries(pb::RepeatedPtrField<std::string> &list, const pb::Message &m,
                           const char *field, const Loc &loc) {
  std::vector<Entry> out;
  out.reserve(static_cast<size_t>(list.size()));
  const pb::FieldDescriptor *f = loc.tree ? m.GetDescriptor()->FindFieldByName(field) : nullptr;
  for (int i = 0; i < list.size(); ++i) {
    pb::TextFormat::ParseLocation l =
        f ? loc.tree->GetLocation(f, i) : pb::TextFormat::ParseLocation();
    out.push_back(Entry{std::move(*list.Mutable(i)),
                        l.line >= 0 ? static_cast<uint32_t>(l.line) + 1 : 0,
                        l.column >= 0 ? static_cast<uint32_t>(l.column) + 1 : 0});
  }
  return out;
}

DataType fromProto(P::DataType t) {
  return t == P::INT4 ? DataType::Int4 : t == P::INT16 ? DataType::Int16 : DataType::Int8;
}

// The IFMR search fields as written (PTQ and KV-cache share the field names).
template <typename Q> void readIfmr(const Q &q, Recipe &r) {
  if (q.has_search_range_start())
    r.searchStart = q.search_range_start();
  if (q.has_search_range_end())
    r.searchEnd = q.search_range_end();
  if (q.has_search_step())
    r.searchStep = q.search_step();
  if (q.has_max_percentile())
    r.maxPercentile = q.max_percentile();
}

void readPtqRecipe(const P::CalibrationConfig &c, Recipe &r) {
  r.present = true;
  if (c.has_arq_quantize()) {
    r.wtsAlgo = "arq";
    if (c.arq_quantize().has_channel_wise())
      r.channelWise = c.arq_quantize().channel_wise();
    if (c.arq_quantize().has_quant_bits())
      r.quantBits = c.arq_quantize().quant_bits();
  } else if (c.has_ada_quantize()) {
    const auto &q = c.ada_quantize();
    r.wtsAlgo = "ada";
    if (q.has_channel_wise())
      r.channelWise = q.channel_wise();
    if (q.has_beta_range_start())
      r.adaBetaStart = q.beta_range_start();
    if (q.has_beta_range_end())
      r.adaBetaEnd = q.beta_range_end();
    if (q.has_warm_start())
      r.adaWarmStart = q.warm_start();
    if (q.has_reg_param())
      r.adaRegParam = q.reg_param();
  }
  if (c.has_ifmr_quantize()) {
    const auto &q = c.ifmr_quantize();
    r.actAlgo = "ifmr";
    readIfmr(q, r);
    if (q.has_asymmetric())
      r.asymmetric = q.asymmetric();
    if (q.has_dst_type())
      r.actType = q.dst_type() == P::FMRQuantize::INT16 ? DataType::Int16 : DataType::Int8;
  } else if (c.has_hfmg_quantize()) {
    const auto &q = c.hfmg_quantize();
    r.actAlgo = "hfmg";
    if (q.has_asymmetric())
      r.asymmetric = q.asymmetric();
    if (q.has_num_of_bins())
      r.numOfBins = q.num_of_bins();
    if (q.has_dst_type())
      r.actType = q.dst_type() == P::HFMGQuantize::INT16 ? DataType::Int16 : DataType::Int8;
  }
  if (c.has_dmq_balancer()) {
    r.hasDmq = true;
    r.dmqStrength = c.dmq_balancer().migration_strength();
  }
}

void readPrune(const P::PruneConfig &p, Recipe &r) {
  r.hasPrune = true;
  if (p.has_filter_pruner()) {
    r.pruner = "filter";
    r.prunerAlgoPresent = p.filter_pruner().has_balanced_l2_norm_filter_prune();
    if (r.prunerAlgoPresent) {
      const auto &b = p.filter_pruner().balanced_l2_norm_filter_prune();
      r.pruneRatio = b.prune_ratio();
      if (b.has_ascend_optimized())
        r.ascendOptimized = b.ascend_optimized();
    }
  } else if (p.has_n_out_of_m_pruner()) {
    r.pruner = "n_out_of_m";
    r.prunerAlgoPresent = p.n_out_of_m_pruner().has_l1_selective_prune();
    if (r.prunerAlgoPresent && p.n_out_of_m_pruner().l1_selective_prune().has_update_freq())
      r.updateFreq = p.n_out_of_m_pruner().l1_selective_prune().update_freq();
  }
}

template <typename M> void readQatRecipe(const M &m, Recipe &r) {
  if (m.has_retrain_data_quant_config()) {
    r.present = true;
    const auto &d = m.retrain_data_quant_config();
    if (d.has_ulq_quantize()) {
      const auto &u = d.ulq_quantize();
      r.actAlgo = "ulq";
      if (u.has_dst_type())
        r.actType = fromProto(u.dst_type());
      if (u.has_fixed_min())
        r.fixedMin = u.fixed_min();
      if (u.has_clip_max_min()) {
        r.hasClip = true;
        if (u.clip_max_min().has_clip_max())
          r.clipMax = u.clip_max_min().clip_max();
        if (u.clip_max_min().has_clip_min())
          r.clipMin = u.clip_max_min().clip_min();
      }
    }
  }
  if (m.has_retrain_weight_quant_config()) {
    r.present = true;
    const auto &w = m.retrain_weight_quant_config();
    if (w.has_arq_retrain()) {
      r.wtsAlgo = "arq";
      if (w.arq_retrain().has_dst_type())
        r.weightType = fromProto(w.arq_retrain().dst_type());
      if (w.arq_retrain().has_channel_wise())
        r.channelWise = w.arq_retrain().channel_wise();
    } else if (w.has_ulq_retrain()) {
      r.wtsAlgo = "ulq";
      if (w.ulq_retrain().has_dst_type())
        r.weightType = fromProto(w.ulq_retrain().dst_type());
      if (w.ulq_retrain().has_channel_wise())
        r.channelWise = w.ulq_retrain().channel_wise();
    }
  }
  if (m.has_prune_config())
    readPrune(m.prune_config(), r);
}

// Where the first field of a libprotobuf "missing required fields: a.b[0].c, ..." list would go:
// the deepest part of the path that was written (the enclosing block), walked through a partial
// parse's location tree. Fills line/col (1-based); leaves them 0 when nothing of the path exists.
void locateMissing(const pb::Message &root, const pb::TextFormat::ParseInfoTree *tree,
                   const std::string &fields, ParseError &e) {
  std::string path = fields.substr(0, fields.find(','));
  const pb::Message *m = &root;
  size_t start = 0;
  while (m && tree && start < path.size()) {
    size_t dot = path.find('.', start);
    std::string part =
        path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    start = dot == std::string::npos ? path.size() : dot + 1;
    int index = -1;
    if (size_t br = part.find('['); br != std::string::npos) {
      index = std::atoi(part.c_str() + br + 1);
      part.resize(br);
    }
    const pb::FieldDescriptor *f = m->GetDescriptor()->FindFieldByName(part);
    if (!f)
      return;
    const pb::Reflection *r = m->GetReflection();
    bool present =
        f->is_repeated() ? index >= 0 && index < r->FieldSize(*m, f) : r->HasField(*m, f);
    if (!present)
      return;
    pb::TextFormat::ParseLocation l = tree->GetLocation(f, index);
    if (l.line >= 0) {
      e.line = static_cast<uint32_t>(l.line) + 1;
      e.col = static_cast<uint32_t>(l.column) + 1;
    }
    if (f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE)
      return;
    tree = tree->GetTreeForNested(f, index);
    m = f->is_repeated() ? &r->GetRepeatedMessage(*m, f, index) : &r->GetMessage(*m, f);
  }
}

// A strict parse that failed only on missing required fields has no position; a partial
// re-parse finds the block that lacks them.
void placeMissingRequired(const std::string &text, const pb::Message &prototype,
                          std::vector<ParseError> &errors) {
  static const std::string kMissing = "missing required fields: ";
  for (ParseError &e : errors) {
    size_t at = e.message.find(kMissing);
    if (e.line != 0 || at == std::string::npos)
      continue;
    std::unique_ptr<pb::Message> partial(prototype.New());
    pb::TextFormat::Parser parser;
    Collector quiet;
    parser.RecordErrorsTo(&quiet);
    parser.AllowPartialMessage(true);
    pb::TextFormat::ParseInfoTree tree;
    parser.WriteLocationsTo(&tree);
    if (parser.ParseFromString(text, partial.get()))
      locateMissing(*partial, &tree, e.message.substr(at + kMissing.size()), e);
  }
}

bool parseInto(const std::string &text, pb::Message &msg, pb::TextFormat::ParseInfoTree *tree,
               std::vector<ParseError> &errors) {
  pb::TextFormat::Parser parser;
  Collector collector;
  parser.RecordErrorsTo(&collector);
  parser.AllowPartialMessage(false);
  if (tree)
    parser.WriteLocationsTo(tree);
  bool ok = parser.ParseFromString(text, &msg);
  errors = std::move(collector.errors);
  if (!ok && errors.empty())
    errors.push_back(ParseError{0, 0, "the text does not parse as " + msg.GetTypeName()});
  if (!ok)
    placeMissingRequired(text, msg, errors);
  return ok;
}

} // namespace

void documentFromPtq(P::AMCTConfig &m, AmctDocument &doc, const void *treeP) {
  Loc loc{static_cast<const pb::TextFormat::ParseInfoTree *>(treeP)};
  doc = AmctDocument{};
  doc.kind = ConfigKind::PTQ;
  if (m.has_batch_num()) {
    doc.batchNum = m.batch_num();
    doc.batchNumLine = loc.line(m, "batch_num");
    doc.batchNumCol = loc.col(m, "batch_num");
  }
  if (m.has_activation_offset())
    doc.activationOffset = m.activation_offset();
  if (m.has_do_fusion())
    doc.doFusion = m.do_fusion();
  doc.forceFp16 = m.has_fakequant_precision_mode();
  doc.skipLayers = entries(*m.mutable_skip_layers(), m, "skip_layers", loc);
  doc.skipLayerTypes = entries(*m.mutable_skip_layer_types(), m, "skip_layer_types", loc);
  doc.skipFusionLayers = entries(*m.mutable_skip_fusion_layers(), m, "skip_fusion_layers", loc);
  if (m.has_common_config()) {
    readPtqRecipe(m.common_config(), doc.global);
    doc.global.line = loc.line(m, "common_config");
  }
  for (int i = 0; i < m.override_layer_types_size(); ++i) {
    const auto &o = m.override_layer_types(i);
    Override ov;
    ov.key = o.layer_type();
    ov.line = loc.line(m, "override_layer_types", i);
    ov.col = loc.col(m, "override_layer_types", i);
    readPtqRecipe(o.calibration_config(), ov.recipe);
    ov.recipe.line = ov.line;
    doc.typeOverrides.push_back(std::move(ov));
  }
  for (int i = 0; i < m.override_layer_configs_size(); ++i) {
    const auto &o = m.override_layer_configs(i);
    Override ov;
    ov.key = o.layer_name();
    Loc inner = loc.nested(m, "override_layer_configs", i);
    ov.line = inner.tree ? inner.line(o, "layer_name") : loc.line(m, "override_layer_configs", i);
    ov.col = inner.tree ? inner.col(o, "layer_name") : loc.col(m, "override_layer_configs", i);
    readPtqRecipe(o.calibration_config(), ov.recipe);
    ov.recipe.line = ov.line;
    doc.nameOverrides.push_back(std::move(ov));
  }
}

void documentFromQat(P::AMCTRetrainConfig &m, AmctDocument &doc, const void *treeP) {
  Loc loc{static_cast<const pb::TextFormat::ParseInfoTree *>(treeP)};
  doc = AmctDocument{};
  doc.kind = ConfigKind::QAT;
  if (m.has_batch_num()) {
    doc.batchNum = m.batch_num();
    doc.batchNumLine = loc.line(m, "batch_num");
    doc.batchNumCol = loc.col(m, "batch_num");
  }
  doc.forceFp16 = m.has_fakequant_precision_mode();
  doc.skipLayers = entries(*m.mutable_skip_layers(), m, "skip_layers", loc);
  doc.skipLayerTypes = entries(*m.mutable_skip_layer_types(), m, "skip_layer_types", loc);
  doc.quantSkipLayers = entries(*m.mutable_quant_skip_layers(), m, "quant_skip_layers", loc);
  doc.quantSkipTypes = entries(*m.mutable_quant_skip_types(), m, "quant_skip_types", loc);
  doc.pruneSkipLayers =
      entries(*m.mutable_regular_prune_skip_layers(), m, "regular_prune_skip_layers", loc);
  doc.pruneSkipTypes =
      entries(*m.mutable_regular_prune_skip_types(), m, "regular_prune_skip_types", loc);
  readQatRecipe(m, doc.global);
  // The global recipe is at its first block; prune findings at prune_config itself.
  doc.global.pruneLine = loc.line(m, "prune_config");
  for (const char *block :
       {"retrain_data_quant_config", "retrain_weight_quant_config", "prune_config"})
    if (!doc.global.line)
      doc.global.line = loc.line(m, block);
  for (int i = 0; i < m.override_layer_types_size(); ++i) {
    const auto &o = m.override_layer_types(i);
    Override ov;
    ov.key = o.layer_type();
    ov.line = loc.line(m, "override_layer_types", i);
    ov.col = loc.col(m, "override_layer_types", i);
    readQatRecipe(o, ov.recipe);
    ov.recipe.line = ov.line;
    doc.typeOverrides.push_back(std::move(ov));
  }
  for (int i = 0; i < m.override_layer_configs_size(); ++i) {
    const auto &o = m.override_layer_configs(i);
    Override ov;
    ov.key = o.layer_name();
    Loc inner = loc.nested(m, "override_layer_configs", i);
    ov.line = inner.tree ? inner.line(o, "layer_name") : loc.line(m, "override_layer_configs", i);
    ov.col = inner.tree ? inner.col(o, "layer_name") : loc.col(m, "override_layer_configs", i);
    readQatRecipe(o, ov.recipe);
    ov.recipe.line = ov.line;
    doc.nameOverrides.push_back(std::move(ov));
  }
}

// A KV-cache calibration_config: its algorithm (ifmr, hfmg; "" when neither is written), fields
// and quant_granularity. Returns whether an algorithm is written.
static bool readKvRecipe(const K::CalibrationConfig &c, Recipe &r) {
  auto common = [&r](const auto &q) {
    if (q.has_asymmetric())
      r.asymmetric = q.asymmetric();
    if (q.has_quant_granularity())
      r.perChannelAct = q.quant_granularity() == K::per_channel;
  };
  if (c.has_ifmr_quantize()) {
    r.actAlgo = "ifmr";
    readIfmr(c.ifmr_quantize(), r);
    common(c.ifmr_quantize());
  } else if (c.has_hfmg_quantize()) {
    r.actAlgo = "hfmg";
    if (c.hfmg_quantize().has_num_of_bins())
      r.numOfBins = c.hfmg_quantize().num_of_bins();
    common(c.hfmg_quantize());
  } else {
    return false;
  }
  r.present = true;
  return true;
}

static void documentFromKv(K::AMCTQuantCaliConfig &m, AmctDocument &doc, const Loc &loc) {
  doc = AmctDocument{};
  doc.kind = ConfigKind::KVCache;
  if (m.has_batch_num()) {
    doc.batchNum = m.batch_num();
    doc.batchNumLine = loc.line(m, "batch_num");
    doc.batchNumCol = loc.col(m, "batch_num");
  }
  if (m.has_activation_offset())
    doc.activationOffset = m.activation_offset();
  if (m.has_kv_cache_quant_config()) {
    doc.global.line = loc.line(m, "kv_cache_quant_config");
    Loc inner = loc.nested(m, "kv_cache_quant_config");
    doc.kvQuantLayers = entries(*m.mutable_kv_cache_quant_config()->mutable_quant_layers(),
                                m.kv_cache_quant_config(), "quant_layers", inner);
  }
  if (m.has_kv_cache_quant_config() &&
      readKvRecipe(m.kv_cache_quant_config().calibration_config(), doc.global))
    doc.global.line = loc.line(m, "kv_cache_quant_config");
  for (int i = 0; i < m.override_layers_configs_size(); ++i) {
    Override ov;
    ov.key = m.override_layers_configs(i).layer_name();
    const auto &o = m.override_layers_configs(i);
    ov.line = loc.line(m, "override_layers_configs", i);
    ov.col = loc.col(m, "override_layers_configs", i);
    readKvRecipe(o.kv_data_quant_config(), ov.recipe);
    ov.recipe.line = ov.line;
    doc.nameOverrides.push_back(std::move(ov));
  }
}

void rememberParsed(std::string_view text, ConfigKind kind, AmctDocument doc) {
  vendors::rememberParsed(text, static_cast<int>(kind), std::move(doc));
}

bool takeParsed(std::string_view text, ConfigKind kind, AmctDocument &doc) {
  return vendors::takeParsed(text, static_cast<int>(kind), doc);
}

bool parseAmctConfigAs(const std::string &text, ConfigKind kind, AmctDocument &doc,
                       std::vector<ParseError> &errors, bool locations) {
  pb::TextFormat::ParseInfoTree storage;
  pb::TextFormat::ParseInfoTree *tree = locations ? &storage : nullptr;
  switch (kind) {
  case ConfigKind::PTQ: {
    P::AMCTConfig m;
    if (!parseInto(text, m, tree, errors))
      return false;
    documentFromPtq(m, doc, tree);
    return true;
  }
  case ConfigKind::QAT: {
    P::AMCTRetrainConfig m;
    if (!parseInto(text, m, tree, errors))
      return false;
    documentFromQat(m, doc, tree);
    return true;
  }
  case ConfigKind::KVCache: {
    K::AMCTQuantCaliConfig m;
    if (!parseInto(text, m, tree, errors))
      return false;
    documentFromKv(m, doc, Loc{tree});
    return true;
  }
  }
  return false;
}

namespace {

struct TopField {
  std::string name;
  uint32_t line = 0, col = 0;
};

// The top-level field names of a text-format message, in file order: identifiers outside every
// `{}`/`<>` block, string and `#` comment that a `:`, `{` or `<` follows. A lexical scan (the
// text does not parse as any message): enough to see which message's fields a file uses.
std::vector<TopField> topLevelFields(const std::string &t) {
  std::vector<TopField> out;
  int depth = 0;
  uint32_t line = 1, col = 1;
  auto ident = [](char c) { return isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < t.size();) {
    char c = t[i];
    if (c == '\n') {
      ++line, col = 1, ++i;
    } else if (c == '#') {
      while (i < t.size() && t[i] != '\n')
        ++i;
    } else if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < t.size() && t[j] != c && t[j] != '\n')
        j += t[j] == '\\' ? 2 : 1;
      col += static_cast<uint32_t>(std::min(j + 1, t.size()) - i);
      i = std::min(j + 1, t.size());
    } else if (c == '{' || c == '<') {
      ++depth, ++col, ++i;
    } else if (c == '}' || c == '>') {
      depth = depth > 0 ? depth - 1 : 0;
      ++col, ++i;
    } else if (ident(c)) {
      size_t j = i;
      while (j < t.size() && ident(t[j]))
        ++j;
      size_t k = j;
      while (k < t.size() && (t[k] == ' ' || t[k] == '\t'))
        ++k;
      if (depth == 0 && !isdigit(static_cast<unsigned char>(c)) && k < t.size() &&
          (t[k] == ':' || t[k] == '{' || t[k] == '<'))
        out.push_back({t.substr(i, j - i), line, col});
      col += static_cast<uint32_t>(j - i);
      i = j;
    } else {
      ++col, ++i;
    }
  }
  return out;
}

const pb::Descriptor *rootDescriptor(ConfigKind k) {
  switch (k) {
  case ConfigKind::PTQ:
    return P::AMCTConfig::descriptor();
  case ConfigKind::QAT:
    return P::AMCTRetrainConfig::descriptor();
  case ConfigKind::KVCache:
    return K::AMCTQuantCaliConfig::descriptor();
  }
  return nullptr;
}

} // namespace

std::optional<OtherConfig> otherAmctConfig(const std::string &text) {
  // The top-level fields of AMCT's distillation config (AMCTDistillConfig) and of its auto-search
  // configs (channel-prune search, quant-bit search), as the vendor's documented samples write
  // them.
  static const char *const kDistill[] = {"group_size",
                                         "data_dump",
                                         "distill_group",
                                         "distill_data_quant_config",
                                         "distill_weight_quant_config",
                                         "distill_override_layers",
                                         "distill_override_layer_types"};
  static const char *const kSearch[] = {"compress_ratio", "max_prune_ratio", "test_iteration",
                                        "override_prune_cfg"};
  for (const TopField &f : topLevelFields(text)) {
    bool known = false;
    for (ConfigKind k : {ConfigKind::PTQ, ConfigKind::QAT, ConfigKind::KVCache})
      known = known || rootDescriptor(k)->FindFieldByName(f.name) != nullptr;
    if (known)
      continue;
    for (const char *d : kDistill)
      if (f.name == d)
        return OtherConfig{"distillation", f.name, f.line, f.col};
    for (const char *d : kSearch)
      if (f.name == d)
        return OtherConfig{"auto-search", f.name, f.line, f.col};
  }
  return std::nullopt;
}

namespace {

// The message the top-level fields point to: the one that lacks the fewest of them, if exactly
// one does; its decisive field is the first that no other message defines.
std::optional<KindEvidence> kindFromFields(const std::string &text) {
  std::vector<TopField> fields = topLevelFields(text);
  const ConfigKind kinds[] = {ConfigKind::PTQ, ConfigKind::QAT, ConfigKind::KVCache};
  size_t missing[3] = {0, 0, 0};
  for (const TopField &f : fields)
    for (int i = 0; i < 3; ++i)
      missing[i] += rootDescriptor(kinds[i])->FindFieldByName(f.name) ? 0 : 1;
  int best = 0;
  for (int i = 1; i < 3; ++i)
    if (missing[i] < missing[best])
      best = i;
  for (int i = 0; i < 3; ++i)
    if (i != best && missing[i] == missing[best])
      return std::nullopt;
  for (const TopField &f : fields) {
    bool own = rootDescriptor(kinds[best])->FindFieldByName(f.name) != nullptr;
    for (int i = 0; i < 3 && own; ++i)
      own = i == best || !rootDescriptor(kinds[i])->FindFieldByName(f.name);
    if (own)
      return KindEvidence{kinds[best], f.name, f.line, f.col};
  }
  return std::nullopt;
}

} // namespace

bool parseAmctConfig(const std::string &text, AmctDocument &doc, std::vector<ParseError> &errors,
                     std::vector<std::string> *tried, KindEvidence *evidence) {
  std::vector<ParseError> best;
  uint64_t bestPos = 0;
  bool first = true;
  std::vector<ParseError> byKind[3];
  for (ConfigKind k : {ConfigKind::PTQ, ConfigKind::QAT, ConfigKind::KVCache}) {
    std::vector<ParseError> errs;
    if (parseAmctConfigAs(text, k, doc, errs)) {
      errors.clear();
      for (ConfigKind other : {ConfigKind::QAT, ConfigKind::KVCache}) {
        AmctDocument probe;
        std::vector<ParseError> ignored;
        if (other != k && static_cast<int>(other) > static_cast<int>(k) &&
            parseAmctConfigAs(text, other, probe, ignored))
          doc.ambiguous = true;
      }
      return true;
    }
    byKind[static_cast<int>(k)] = errs;
    const ParseError &e = errs.front();
    if (tried)
      tried->push_back(std::string(rootMessageName(k)) + ": " +
                       (e.line ? std::to_string(e.line) + ":" + std::to_string(e.col) + ": " : "") +
                       e.message);
    // A missing-required error means the whole text parsed: the furthest.
    bool missing = e.message.find("missing required fields") != std::string::npos;
    uint64_t pos =
        e.line == 0 || missing ? UINT64_MAX : (static_cast<uint64_t>(e.line) << 32) | e.col;
    if (first || pos > bestPos) {
      best = std::move(errs);
      bestPos = pos;
      first = false;
    }
  }
  errors = std::move(best);
  if (std::optional<KindEvidence> ev = kindFromFields(text)) {
    errors = std::move(byKind[static_cast<int>(ev->kind)]);
    if (evidence)
      *evidence = *ev;
  }
  return false;
}

bool parseAmctConfig(FileID file, AmctDocument &doc, DiagnosticEngine &diags) {
  SourceManager &sm = diags.sourceManager();
  std::vector<ParseError> errors;
  if (parseAmctConfig(sm.text(file), doc, errors))
    return true;
  for (const ParseError &e : errors) {
    SourceRange at = e.line ? sm.lineRange(file, e.line, e.col) : sm.lineRange(file, 1);
    diags.report(DiagID::err_amct_parse, at, {e.message});
  }
  return false;
}

bool isPruneOnly(const AmctDocument &doc) {
  if (doc.kind != ConfigKind::QAT || doc.global.present)
    return false;
  bool prunes = doc.global.hasPrune;
  for (const auto *list : {&doc.nameOverrides, &doc.typeOverrides})
    for (const Override &o : *list) {
      if (o.recipe.present)
        return false;
      prunes = prunes || o.recipe.hasPrune;
    }
  return prunes;
}

} // namespace qspec::amct
