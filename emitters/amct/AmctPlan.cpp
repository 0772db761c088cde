// Step 2 of the AMCT emitter (AmctEmitter.cpp describes all four): the plan, from the resolution
// or, without an inventory, from the symbolic resolution (passes::SymbolicEntry).
#include "emitters/amct/AmctWriter.h"
#include "ir/GraphNames.h"
#include "ir/Suggest.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <cmath>
#include <unordered_map>

namespace qspec::emit::amctwriter {

namespace {

RoleView viewOf(const ir::ResolvedRecipe &r) {
  RoleView v;
  if (!r.dtype.value.empty()) {
    v.dtype = r.dtype.value;
    v.dtypeRank = decisionRank(r.dtype.from.source);
  }
  if (!r.scope.value.empty())
    v.scope = r.scope.value;
  if (!r.method.value.empty())
    v.method = r.method.value;
  if (r.symmetric.from.source != ir::Decision::BuiltIn)
    v.symmetric = r.symmetric.value;
  return v;
}

RoleView viewOf(const ir::Recipe &base, const ir::Recipe *top, int topRank = 3) {
  RoleView v;
  v.dtype = base.dtype;
  v.dtypeRank = 1;
  v.scope = base.scope;
  v.method = base.method;
  v.symmetric = base.symmetric;
  v.at = base.range;
  if (top) {
    if (top->dtype) {
      v.dtype = top->dtype;
      v.dtypeRank = topRank;
    }
    if (top->scope)
      v.scope = top->scope;
    if (top->method)
      v.method = top->method;
    if (top->symmetric)
      v.symmetric = top->symmetric;
    if (top->range.valid())
      v.at = top->range;
  }
  return v;
}

// Everything buildRecipe's result depends on for one inventory module, as views into the
// resolution. The layer name and the source ranges reach only diagnostics, so modules with equal
// keys get equal recipes; that is what lets run() build a recipe once per distinct key instead
// of once per module (a large MoE inventory has ~10^6 modules and a handful of keys).
struct RecipeKey {
  ir::Tier tier = ir::Tier::Int8;
  int tierRank = 0;
  std::string_view dtype[2], scope[2], method[2]; // weight, act; "" = unset (as in viewOf)
  int dtypeRank[2] = {0, 0};
  int symmetric[2] = {-1, -1};                             // -1 = unset
  const std::vector<const ir::Option *> *blocks = nullptr; // compared by content
  uint32_t type = 0;                                       // interned module type
  bool fromDefaults = false;
  bool noBias = false; // a Linear the inventory knows has no bias

  bool operator==(const RecipeKey &o) const {
    for (int i = 0; i < 2; ++i)
      if (dtype[i] != o.dtype[i] || scope[i] != o.scope[i] || method[i] != o.method[i] ||
          dtypeRank[i] != o.dtypeRank[i] || symmetric[i] != o.symmetric[i])
        return false;
    return tier == o.tier && tierRank == o.tierRank && type == o.type &&
           fromDefaults == o.fromDefaults && noBias == o.noBias && *blocks == *o.blocks;
  }
};

struct RecipeKeyHash {
  size_t operator()(const RecipeKey &k) const {
    uint64_t h = 14695981039346656037ull; // FNV-1a: the fields are a few short words
    auto mix = [&h](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
    auto text = [&](std::string_view s) {
      for (char c : s)
        mix(static_cast<unsigned char>(c));
      mix(0x100 + s.size());
    };
    for (int i = 0; i < 2; ++i) {
      text(k.dtype[i]);
      text(k.scope[i]);
      text(k.method[i]);
      mix(static_cast<uint64_t>(k.dtypeRank[i] * 4 + k.symmetric[i] + 1));
    }
    mix(static_cast<uint64_t>(k.tier));
    mix(static_cast<uint64_t>(k.tierRank));
    mix(k.type);
    mix(k.fromDefaults);
    mix(k.noBias);
    for (const ir::Option *o : *k.blocks)
      mix(reinterpret_cast<uintptr_t>(o));
    return static_cast<size_t>(h ^ (h >> 32));
  }
};

RecipeKey keyOf(const ir::ResolvedModule &rm, uint32_t type, bool fromDefaults, bool noBias) {
  RecipeKey k;
  k.tier = rm.tier.value;
  k.tierRank = decisionRank(rm.tier.from.source);
  const ir::ResolvedRecipe *roles[2] = {&rm.weight, &rm.act};
  for (int i = 0; i < 2; ++i) {
    const ir::ResolvedRecipe &r = *roles[i];
    k.dtype[i] = r.dtype.value.str();
    k.dtypeRank[i] = r.dtype.value.empty() ? 0 : decisionRank(r.dtype.from.source);
    k.scope[i] = r.scope.value.str();
    k.method[i] = r.method.value.str();
    k.symmetric[i] = r.symmetric.from.source != ir::Decision::BuiltIn ? r.symmetric.value : -1;
  }
  k.blocks = &rm.targetOptions;
  k.type = type;
  k.fromDefaults = fromDefaults;
  k.noBias = noBias;
  return k;
}

} // namespace

// ---- Step 2: plan ----------------------------------------------------------------------------

void AmctWriter::chooseAlgorithms(const RoleView &w, const RoleView &a,
                                  const std::optional<std::string> &ruleAct,
                                  const std::optional<std::string> &ruleWts,
                                  const std::string &shown, SourceRange at, LayerRecipe &r) {
  // The rule's own `amct { act_algo }` wins, then the method's AMCT word; the target's act_algo /
  // weight_algo only stands in for methods AMCT has no word for (amct::chooseAlgorithm).
  // A rule's choice was checked when its block was read (applyRecipeOptions).
  auto one = [&](const RoleView &v, const std::optional<std::string> &rule, bool weight,
                 std::string &out) {
    std::string chosen =
        chooseAlgorithm(v.method.value_or(""), rule.value_or(""),
                        weight ? opts_.wtsAlgo : opts_.actAlgo, weight, opts_.kind);
    if (chosen.empty()) {
      error(DiagID::err_amct_method, v.at.valid() ? v.at : at,
            {modeName(), weight ? "weight" : "activation", *v.method, shown,
             algorithmList(weight, opts_.kind) + (weight ? " (or set weight_algo in the target)"
                                                         : " (or set act_algo in the target)")});
      return;
    }
    out = chosen;
  };
  one(w, ruleWts, true, r.wtsAlgo);
  one(a, ruleAct, false, r.actAlgo);
}

bool AmctWriter::buildRecipe(ir::Tier tier, int tierRank, const RoleView &w, const RoleView &a,
                             const std::vector<const ir::Option *> &blocks, const LayerFacts &facts,
                             SourceRange at, LayerRecipe &r) {
  bool before = ok_;
  ok_ = true;
  const std::string &layer = facts.layer, &type = facts.type;
  std::string shown = layer.empty() ? "(global)" : layer;
  r = opts_.base;
  std::optional<std::string> ruleAct, ruleWts;
  for (const ir::Option *b : blocks)
    if (b->key == "amct")
      applyRecipeOptions(b->children, r, ruleAct, ruleWts, shown);
  r.prune = rulePrune(blocks, shown);
  if (r.prune && layer.empty() && type.empty())
    error(DiagID::err_amct_option_value, r.prune->at,
          {"prune", "amct", "the global prune is the target's `prune` setting, not the defaults'"});

  // Data types: an explicit dtype of the role wins over the tier if written as specifically.
  auto dtypeOf = [&](const RoleView &v, bool weight, DataType &out) {
    std::optional<DataType> t =
        intendedType(tier, tierRank, v.dtype.value_or(""), v.dtypeRank, weight);
    if (t)
      out = *t;
    else
      error(DiagID::err_amct_option_value, v.at.valid() ? v.at : at,
            {*v.dtype, weight ? "weight dtype" : "act dtype",
             weight ? "AMCT weights are int8 or int4" : "AMCT activations are int8 or int16"});
  };
  dtypeOf(w, true, r.weight);
  dtypeOf(a, false, r.act);
  chooseAlgorithms(w, a, ruleAct, ruleWts, shown, at, r);

  // Granularity: per_channel / per_tensor; unset = AMCT's per-type default.
  if (w.scope && !r.channelWise) {
    if (*w.scope == "per_channel")
      r.channelWise = true;
    else if (*w.scope == "per_tensor")
      r.channelWise = false;
    else
      error(DiagID::err_amct_option_value, w.at.valid() ? w.at : at,
            {*w.scope, "weight scope", "AMCT weights are per_channel or per_tensor"});
  }
  if (!qat() && a.symmetric)
    r.asymmetric = !*a.symmetric;
  if (!qat() && a.scope && *a.scope != "per_tensor")
    error(DiagID::err_amct_option_value, a.at.valid() ? a.at : at,
          {*a.scope, "act scope", "AMCT activations are per_tensor"});

  std::string msg;
  if (!type.empty()) {
    if (r.channelWise == true && !checkChannelWise(opts_.kind, type, layer, msg)) {
      if (facts.fromDefaults)
        r.channelWise = std::nullopt; // reported once per type by the caller
      else
        error(DiagID::err_amct_channel_wise, w.at.valid() ? w.at : at, {shown, type, msg});
    }
    r.channelWise = effectiveChannelWise(r.channelWise, type);
    if (isSymmetricOnlyType(type) && r.asymmetric == true)
      error(DiagID::err_amct_value, at,
            {"asymmetric activations", shown,
             "Layer " + layer + " can only set asymmetric be False "});
  }
  // The target's num_of_bins is the bin count of its HFMG recipes, its IFMR settings those of its
  // IFMR recipes: a recipe of another algorithm inherits none (only a rule's own block setting
  // one there is an error, in checkRecipe).
  std::set<std::string_view> ruleKeys;
  for (const ir::Option *b : blocks)
    if (b->key == "amct")
      for (const ir::Option &c : b->children)
        ruleKeys.insert(c.key);
  if (r.actAlgo != "hfmg" && !ruleKeys.count("num_of_bins"))
    r.numOfBins.reset();
  if (r.actAlgo != "ifmr") {
    if (!ruleKeys.count("search_range_start"))
      r.searchStart.reset();
    if (!ruleKeys.count("search_range_end"))
      r.searchEnd.reset();
    if (!ruleKeys.count("search_step"))
      r.searchStep.reset();
    if (!ruleKeys.count("max_percentile"))
      r.maxPercentile.reset();
  }
  checkRecipe(r, facts, a, at);
  bool good = ok_;
  ok_ = before && good;
  return good;
}

// IFMR's search range, step and percentile (AMCT's defaults for the ones not set), on IFMR
// recipes only.
void AmctWriter::checkIfmr(const LayerRecipe &r, const std::string &shown, SourceRange at) {
  bool any = r.searchStart || r.searchEnd || r.searchStep || r.maxPercentile;
  if (!any)
    return;
  if (r.actAlgo != "ifmr") {
    error(DiagID::err_amct_option_variant, at,
          {"search_range_start, search_range_end, search_step "
           "and max_percentile",
           "act_algo ifmr"});
    return;
  }
  std::string msg;
  if (!checkIfmrSearch(opts_.kind, r.searchStart.value_or(0.7), r.searchEnd.value_or(1.3),
                       r.searchStep.value_or(0.01), shown, msg) ||
      !checkMaxPercentile(r.maxPercentile.value_or(0.999999), shown, msg))
    error(DiagID::err_amct_value, at, {"IFMR search", shown, msg});
}

void AmctWriter::checkRecipe(const LayerRecipe &r, const LayerFacts &facts, const RoleView &a,
                             SourceRange at) {
  const std::string &layer = facts.layer, &type = facts.type;
  std::string shown = layer.empty() ? "(global)" : layer;
  std::string msg;
  if (qat()) {
    if (!checkQatPair(r.act, r.weight, opts_.version, msg))
      error(DiagID::err_amct_qat_pair, at,
            {shown, dataTypeName(r.act), dataTypeName(r.weight), opts_.versionText, msg});
    if (!checkClip(r.clipMax, r.clipMin, shown, msg))
      error(DiagID::err_amct_clip,
            layer.empty() ? optionAt(r.clipMin ? "clip_min" : "clip_max", at) : at, {shown, msg});
    return;
  }
  if (r.act == DataType::Int4)
    error(DiagID::err_amct_option_value, a.at.valid() ? a.at : at,
          {"int4", "act dtype", "AMCT PTQ activations are int8 or int16"});
  if (r.act == DataType::Int16 && !checkPtqInt16(opts_.version, msg))
    error(DiagID::err_amct_ptq_int16_version, at, {shown, opts_.versionText, msg});
  if (r.act == DataType::Int16 && !type.empty() && !checkInt16Type(type, layer, opts_.version, msg))
    error(DiagID::err_amct_value, at, {"INT16 activations", shown, msg});
  if (r.act == DataType::Int16 && facts.noBias && !checkInt16Bias(type, false, layer, msg))
    error(DiagID::err_amct_int16_bias, at, {shown, msg});
  uint32_t bits = r.quantBits.value_or(r.weight == DataType::Int4 ? 4 : 8);
  if (r.quantBits && r.weight == DataType::Int4 && *r.quantBits != 4)
    error(DiagID::err_amct_option_value, at,
          {std::to_string(*r.quantBits), "quant_bits", "the weight dtype is int4"});
  if (!checkQuantBits(bits, type, layer, msg))
    error(DiagID::err_amct_value, at, {"quant_bits", shown, msg});
  if (r.wtsAlgo == "ada" && !type.empty() && !isAdaType(type))
    error(DiagID::err_amct_value, at,
          {"weight algorithm", shown, "ada_quantizable not support for " + type + " layer"});
  if (r.dmq && !type.empty() && !isDmqType(type))
    error(DiagID::err_amct_value, at,
          {"dmq_balancer", shown, "dmq_balancer not support for " + layer + " layer"});
  if (r.actAlgo != "hfmg" && r.numOfBins)
    error(DiagID::err_amct_option_variant, at, {"num_of_bins", "act_algo hfmg"});
  checkIfmr(r, shown, at);
}

bool AmctWriter::planGlobal(Plan &plan) {
  RoleView gw = viewOf(spec_.defaults.weight, nullptr), ga = viewOf(spec_.defaults.act, nullptr);
  ir::Tier defaultTier = spec_.defaultTier();
  SourceRange defaultsAt = spec_.defaultsRange.valid() ? spec_.defaultsRange : target_.range;
  if (defaultTier == ir::Tier::Float)
    defaultTier = ir::Tier::Int8; // every layer is skipped; the recipe is never used
  LayerFacts facts;
  facts.fromDefaults = true;
  std::vector<const ir::Option *> blocks; // the defaults' `amct { ... }`, as for a module
  for (const ir::Option &o : spec_.defaults.targetOptions)
    blocks.push_back(&o);
  return buildRecipe(defaultTier, 1, gw, ga, blocks, facts, defaultsAt, plan.global);
}

void AmctWriter::planFromResolution(Plan &plan) {
  const auto &mods = spec_.inventory.modules;
  Collected c;
  c.recipeOf.assign(mods.size(), 0);
  // Module types, interned: what AMCT does with a type is looked up once per type.
  std::unordered_map<std::string_view, uint32_t> typeIds;
  uint32_t lastType =
      UINT32_MAX; // inventories list a block's modules together: most lookups repeat
  auto typeIdOf = [&](std::string_view t) {
    if (lastType != UINT32_MAX && c.types[lastType].name == t)
      return lastType;
    auto [it, fresh] = typeIds.try_emplace(t, static_cast<uint32_t>(c.types.size()));
    if (fresh) {
      TypeInfo ti;
      ti.name = t;
      ti.quantizable = isQuantizableType(t, opts_.kind, opts_.version);
      ti.channelWise = isChannelWiseType(t);
      c.types.push_back(std::move(ti));
    }
    return lastType = it->second;
  };
  // Distinct recipes, interned into plan.recipes.
  std::map<LayerRecipe, uint32_t> recipeIds;
  auto intern = [&](const LayerRecipe &r) {
    auto [it, fresh] = recipeIds.try_emplace(r, static_cast<uint32_t>(plan.recipes.size()));
    if (fresh)
      plan.recipes.push_back(r);
    return it->second;
  };
  // buildRecipe once per key that built without error (-1: it reported one, so every module
  // with that key is built again and gets its own diagnostic, exactly as without the memo).
  std::unordered_map<RecipeKey, int64_t, RecipeKeyHash> memo;
  SourceRange defaultsAt = spec_.defaultsRange.valid() ? spec_.defaultsRange : target_.range;
  for (size_t i = 0; i < mods.size(); ++i) {
    const ir::Module &m = mods[i];
    const ir::ResolvedModule &rm = spec_.resolution.modules[i];
    SourceRange at = rm.tier.from.range().valid() ? rm.tier.from.range() : target_.range;
    uint32_t typeId = typeIdOf(m.type);
    TypeInfo &ti = c.types[typeId];
    if (!m.type.empty() && !ti.quantizable) {
      // A skip: the target-readings pass reports warn_amct_not_quantizable. Its rule's own prune
      // is an entry in a prune-only file (AMCT's prune-type check judges the type there).
      if (qat())
        if (std::optional<PruneSetting> p = rulePrune(rm.targetOptions, m.name))
          plan.pruneOnlyNames.emplace_back(m.name, *p);
      continue;
    }
    if (rm.tier.value == ir::Tier::Float) {
      if (checkName(m.name, at))
        plan.skips.emplace_back(m.name, at);
      ti.hasSkips = true;
      if (std::optional<PruneSetting> p = rulePrune(rm.targetOptions, m.name))
        plan.pruneOnlyNames.emplace_back(m.name, *p);
      continue;
    }
    LayerFacts facts;
    facts.fromDefaults = rm.weight.scope.from.source == ir::Decision::Default ||
                         rm.weight.scope.from.source == ir::Decision::BuiltIn;
    facts.noBias = m.biasKnown && !m.hasBias && pytorchEquivalent(m.type) == "Linear";
    auto [slot, fresh] = memo.try_emplace(keyOf(rm, typeId, facts.fromDefaults, facts.noBias), -1);
    int64_t id = slot->second;
    if (id < 0) {
      RoleView w = viewOf(rm.weight), a = viewOf(rm.act);
      if (rm.weight.scope.from.range().valid())
        w.at = rm.weight.scope.from.range();
      facts.layer = m.name;
      facts.type = m.type;
      LayerRecipe r;
      if (!buildRecipe(rm.tier.value, decisionRank(rm.tier.from.source), w, a, rm.targetOptions,
                       facts, at, r))
        continue;
      id = intern(r);
      if (fresh)
        slot->second = id;
    }
    if (facts.fromDefaults && rm.weight.scope.value == "per_channel" && !m.type.empty() &&
        !ti.channelWise && !ti.cwWarned) {
      ti.cwWarned = true;
      diags_.report(DiagID::warn_amct_channel_wise_default,
                    rm.weight.scope.from.range().valid() ? rm.weight.scope.from.range()
                                                         : defaultsAt,
                    {m.type, m.name});
    }
    c.recipeOf[i] = static_cast<uint32_t>(id);
    ti.members.push_back(static_cast<uint32_t>(i));
  }
  // A tied output head is a Linear at run time that the index does not list and that reuses the
  // embedding's weight: AMCT for PyTorch would quantize it, so it is skipped as msModelSlim
  // excludes it (AMCT for ONNX names graph nodes, where the head is a node of the inventory).
  if (opts_.framework != "onnx")
    if (std::optional<std::string> head = ir::tiedHeadName(spec_.inventory, spec_.modelConfig);
        head && checkName(*head, target_.range))
      plan.skips.emplace_back(plan.keep(*head), target_.range);
  chooseEntries(plan, c);
}

void AmctWriter::chooseEntries(Plan &plan, const Collected &c) {
  // Per type, in byte order of type names: the most common recipe (ties: the smallest) may
  // become the type's override; every member whose recipe still differs gets a name entry.
  const auto &mods = spec_.inventory.modules;
  std::vector<uint32_t> order;
  for (uint32_t t = 0; t < c.types.size(); ++t)
    if (!c.types[t].members.empty())
      order.push_back(t);
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return c.types[a].name < c.types[b].name; });
  std::vector<size_t> count(plan.recipes.size(), 0);
  std::vector<char> differs(plan.recipes.size(), 0);
  std::vector<uint32_t> used;
  for (uint32_t t : order) {
    const TypeInfo &ti = c.types[t];
    LayerRecipe g = globalFor(plan.global, ti.name);
    used.clear();
    for (uint32_t i : ti.members)
      if (count[c.recipeOf[i]]++ == 0)
        used.push_back(c.recipeOf[i]);
    const LayerRecipe *best = nullptr;
    size_t bestCount = 0;
    for (uint32_t id : used)
      if (count[id] > bestCount || (count[id] == bestCount && plan.recipes[id] < *best)) {
        best = &plan.recipes[id];
        bestCount = count[id];
      }
    LayerRecipe base = g;
    // A type override needs a known type; in QAT it would re-enable the type's skipped layers.
    if (best && !(*best == g) && !ti.name.empty() && !(qat() && ti.hasSkips)) {
      plan.typeEntries[std::string(ti.name)] = *best;
      base = *best;
    }
    for (uint32_t id : used) {
      differs[id] = !(plan.recipes[id] == base);
      count[id] = 0;
    }
    for (uint32_t i : ti.members)
      if (differs[c.recipeOf[i]]) {
        const ir::ResolvedModule &rm = spec_.resolution.modules[i];
        SourceRange at = rm.tier.from.range().valid() ? rm.tier.from.range() : target_.range;
        if (checkName(mods[i].name, at))
          plan.nameEntries.push_back({mods[i].name, ti.name, &plan.recipes[c.recipeOf[i]], at});
      }
  }
}

bool AmctWriter::typeEntryAllowed(const ir::Selector &s, ir::Tier tier) {
  if (isQuantizableType(s.text, opts_.kind, opts_.version))
    return true;
  // AMCT never quantizes the type, so a float rule (`protect type Embedding`) already holds;
  // any other tier cannot reach it.
  if (tier != ir::Tier::Float)
    diags_.report(DiagID::warn_amct_type_not_quantizable, s.range,
                  {s.text, modeName() + " " + opts_.versionText, ir::tierName(tier)});
  return false;
}

// Where a symbolic entry's recipe is reported: the override that set any of its fields (the last
// one written), else the first selector written so.
SourceRange AmctWriter::entryAt(const passes::SymbolicEntry &e) const {
  const ir::ResolvedModule &rm = e.module;
  if (rm.tier.from.source == ir::Decision::TuningRaise)
    return rm.tier.from.range();
  for (const ir::Decision *d :
       {&rm.tier.from, &rm.weight.dtype.from, &rm.weight.scope.from, &rm.weight.method.from,
        &rm.weight.symmetric.from, &rm.act.dtype.from, &rm.act.scope.from, &rm.act.method.from,
        &rm.act.symmetric.from})
    if (d->source == ir::Decision::TypeOverride || d->source == ir::Decision::NameOverride)
      return spec_.overrides[static_cast<size_t>(d->index)].subjectRange;
  return e.selectors.front()->range;
}

// A role of a symbolic entry as buildRecipe reads it, located at the recipe line that set it.
RoleView AmctWriter::roleOf(const ir::ResolvedRecipe &r, bool weight) const {
  RoleView v = viewOf(r);
  v.at = (weight ? spec_.defaults.weight : spec_.defaults.act).range;
  for (const ir::Decision *d : {&r.dtype.from, &r.scope.from, &r.method.from, &r.symmetric.from})
    if (d->source == ir::Decision::TypeOverride || d->source == ir::Decision::NameOverride) {
      const ir::Settings &s = spec_.overrides[static_cast<size_t>(d->index)].settings;
      const ir::Recipe &written = weight ? s.weight : s.act;
      if (written.range.valid())
        v.at = written.range;
      break;
    }
  return v;
}

void AmctWriter::planFromSymbolic(Plan &plan) {
  // No inventory: the lowering of the symbolic resolution the precedence pass stored (the Spec
  // owns it, so the plan's views of its names live as long as the Spec); exact names only.
  const std::vector<ir::SymbolicEntry> &entries = spec_.resolution.symbolic;
  bool nameSkips = std::any_of(entries.begin(), entries.end(), [](const passes::SymbolicEntry &e) {
    return !e.isType && e.module.tier.value == ir::Tier::Float;
  });
  for (const passes::SymbolicEntry &e : entries)
    if (e.isType)
      planTypeEntry(plan, e, nameSkips);
    else
      planNameEntry(plan, e);
}

void AmctWriter::planTypeEntry(Plan &plan, const passes::SymbolicEntry &e, bool nameSkips) {
  const ir::ResolvedModule &rm = e.module;
  const ir::Selector &s = *e.selectors.front();
  ir::Decision::Source src = rm.tier.from.source;
  if (src == ir::Decision::TuningRaise) {
    for (const ir::Selector *sel : e.selectors)
      error(DiagID::err_emit_needs_inventory, sel->range, {"AMCT", sel->text});
    return;
  }
  bool overridden = src != ir::Decision::Protect && src != ir::Decision::TuningExclude;
  if (overridden && qat() && nameSkips && rm.tier.value != ir::Tier::Float) {
    // It would re-enable skipped layers of this type; only an inventory can tell which.
    error(DiagID::err_amct_qat_type_reenables, s.range, {s.text});
    return;
  }
  if (!typeEntryAllowed(s, rm.tier.value))
    return;
  if (rm.tier.value == ir::Tier::Float) {
    plan.skipTypes.emplace_back(e.text, s.range);
    if (std::optional<PruneSetting> p = rulePrune(rm.targetOptions, e.text))
      plan.pruneOnlyTypes.emplace_back(e.text, *p);
    return;
  }
  LayerFacts facts;
  facts.type = e.text;
  LayerRecipe r;
  if (buildRecipe(rm.tier.value, decisionRank(src), roleOf(rm.weight, true), roleOf(rm.act, false),
                  rm.targetOptions, facts, entryAt(e), r))
    plan.typeEntries[e.text] = r;
}

void AmctWriter::planNameEntry(Plan &plan, const passes::SymbolicEntry &e) {
  const ir::ResolvedModule &rm = e.module;
  auto name = literalName(*e.selectors.front());
  if (!name) {
    for (const ir::Selector *sel : e.selectors)
      error(DiagID::err_emit_needs_inventory, sel->range, {"AMCT", sel->text});
    return;
  }
  ir::Decision::Source src = rm.tier.from.source;
  bool bySelector = src == ir::Decision::Protect || src == ir::Decision::TuningExclude ||
                    src == ir::Decision::TuningRaise;
  SourceRange nameAt = bySelector ? rm.tier.from.range() : e.selectors.front()->range;
  if (rm.tier.value == ir::Tier::Float) {
    if (checkName(*name, nameAt)) {
      std::string_view kept = plan.keep(*name);
      plan.skips.emplace_back(kept, nameAt);
      if (std::optional<PruneSetting> p = rulePrune(rm.targetOptions, *name))
        plan.pruneOnlyNames.emplace_back(kept, *p);
    }
    return;
  }
  LayerFacts facts;
  facts.layer = *name;
  LayerRecipe r;
  SourceRange at = entryAt(e);
  if (buildRecipe(rm.tier.value, decisionRank(src), roleOf(rm.weight, true), roleOf(rm.act, false),
                  rm.targetOptions, facts, at, r) &&
      checkName(*name, nameAt))
    plan.nameEntries.push_back({plan.keep(*name), "", &plan.recipes.emplace_back(r), at});
}

bool AmctWriter::normalize(Plan &plan) {
  // Deterministic order: byte order of names and types; duplicates (one name from two rules)
  // collapse to one entry.
  auto byName = [](const auto &a, const auto &b) { return a.first < b.first; };
  auto sameName = [](const auto &a, const auto &b) { return a.first == b.first; };
  for (auto *list : {&plan.skips, &plan.skipTypes}) {
    std::stable_sort(list->begin(), list->end(), byName);
    list->erase(std::unique(list->begin(), list->end(), sameName), list->end());
  }
  for (auto *list : {&plan.pruneOnlyNames, &plan.pruneOnlyTypes}) {
    std::stable_sort(list->begin(), list->end(), byName);
    list->erase(std::unique(list->begin(), list->end(), sameName), list->end());
  }
  auto &names = plan.nameEntries;
  std::stable_sort(names.begin(), names.end(),
                   [](const NameEntry &a, const NameEntry &b) { return a.name < b.name; });
  for (size_t i = 1; i < names.size(); ++i)
    if (names[i].name == names[i - 1].name && !(*names[i].recipe == *names[i - 1].recipe)) {
      error(DiagID::err_amct_check, names[i].at,
            {amct::checkName(amct::Check::Duplicate),
             repeatedItemsMessage(opts_.kind,
                                  qat() ? "retrain_override_layers" : "override_layer_configs",
                                  {std::string(names[i].name)})});
      return false;
    }
  names.erase(std::unique(names.begin(), names.end(),
                          [](const NameEntry &a, const NameEntry &b) { return a.name == b.name; }),
              names.end());
  return true;
}

} // namespace qspec::emit::amctwriter
