// The Horizon QconfigSetter emitter (docs/emitters/horizon.md has the full mapping), in steps:
//
// 1. Options: march (set_march), observer (else the default act method), fix_scale,
//    sensitivity..., read once into the writer's fields (readTarget).
// 2. Plan from the resolution: the global template states the spec's default tier (the plugin's
//    nash-p / nash-h fp16 default is never relied on); Conv/Matmul templates carry the GEMM pair
//    explicitly (a type override's, when it covers the whole family); ModuleNameTemplate entries
//    for every module the templates would give another tier, pinned modules (protected, tuning
//    state) in a last template with freeze=True. Keys are prefixes for the plugin: every module a
//    key of another module would reach gets its own entry (restorePrefixed).
// 3. Lower: print the Python; every name goes through horizon::pythonStringLiteral; dtypes are
//    identifiers.
// 4. Verify: recipe fields the setter cannot carry are reported (warn_horizon_recipe_not_carried);
//    emitTargets then reads the bytes back through vendors/horizon and compares each module.
#include "emitters/horizon/HorizonEmitter.h"
#include "emitters/RecipeCarry.h"
#include "ir/Suggest.h"
#include "passes/SymbolicResolution.h"
#include "vendors/Parsed.h"
#include "vendors/horizon/HorizonReader.h"
#include "vendors/horizon/HorizonRules.h"
#include "emitters/horizon/PyPrinter.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string_view>

namespace qspec::emit {

namespace {

using horizon::PyPrinter;

struct EntryValue {
  std::string dtype; // identifier, or a port map expression
  std::optional<double> threshold;
};

// A ModuleNameTemplate entry: the module name (a view of the inventory's name, or of a name the
// writer keeps), its Python literal (checked once, when added) and its value.
struct HorizonEntry {
  std::string_view name;
  std::string literal;
  EntryValue value;
};

// A template's entries in the order added until sortEntries(): a vector instead of a std::map of
// tens of thousands of names (one node and one name copy each, and an ordered insert).
using Entries = std::vector<HorizonEntry>;

// By name (byte order), each name once with the value added last (what map[name] = v kept).
void sortEntries(Entries &e) {
  std::stable_sort(e.begin(), e.end(),
                   [](const HorizonEntry &a, const HorizonEntry &b) { return a.name < b.name; });
  size_t out = 0;
  for (size_t i = 0; i < e.size(); ++i) {
    if (i + 1 < e.size() && e[i + 1].name == e[i].name)
      continue; // a later entry for the same name replaces it
    if (out != i)
      e[out] = std::move(e[i]);
    ++out;
  }
  e.resize(out);
}

// A Conv or Matmul template: the first operand's and the second operand's (weight's) dtype, and
// the tier that pair means (vendors/horizon/HorizonReader.h: qint8/qint8 int8, qint16/qint8
// int16, qint16/qint16 dual-int16). Empty: no template.
struct Gemm {
  std::string in, second;
  std::optional<ir::Tier> tier;
  bool set() const { return !in.empty(); }
};

// A template's keys for restorePrefixed (values unused).
horizon::PrefixKeys prefixKeys(const Entries &entries) {
  horizon::PrefixKeys keys(entries.size());
  for (const HorizonEntry &e : entries)
    keys.add(e.name, 0);
  return keys;
}

class HorizonWriter {
public:
  HorizonWriter(const ir::Spec &spec, const ir::Target &target, DiagnosticEngine &diags)
      : spec_(spec), target_(target), diags_(diags) {}
  bool run(std::string &out);

private:
  const ir::Spec &spec_;
  const ir::Target &target_;
  DiagnosticEngine &diags_;
  bool ok_ = true;
  std::string march_ = horizon::kDefaultMarch;
  std::string observer_ = "HistogramObserver";
  std::optional<bool> fixScale_, enableOptimize_;
  std::optional<std::string> saveDir_, sensitivity_, sensitiveType_;
  std::optional<double> topk_;
  bool topkIsInt_ = false;
  std::set<std::string> dtypesUsed_;
  bool torchUsed_ = false;

  // The plan: what the templates give, in list order.
  std::string globalDtype_; // ModuleNameTemplate({"": D})
  std::optional<ir::Tier> globalTier_;
  std::string gemmDtype_;              // SensitivityTemplate's low precision
  Gemm conv_, matmul_;                 // ConvDtypeTemplate / MatmulDtypeTemplate
  Entries entries_;                    // by name (byte order) once sorted
  Entries frozen_;                     // pinned, freeze=True, last
  std::deque<std::string> ownedNames_; // planAsWritten's names, which the entries view
  // Names that are not dotted Python names, each with where its entry was decided: reported
  // together once (warn_horizon_name_not_dotted), never one line per name.
  std::map<std::string_view, SourceRange> notDotted_;

  bool planGlobal();
  void planFromInventory();
  void planAsWritten();
  void planTypeEntry(const passes::SymbolicEntry &e, bool &convSet, bool &matmulSet);
  void planNameEntry(const passes::SymbolicEntry &e);
  void planEntry(size_t module);
  void restorePrefixed();
  std::optional<ir::Tier> templateTier(const ir::Module &m) const;
  void addEntry(Entries &into, std::string_view name, EntryValue v, SourceRange at);
  std::optional<std::pair<std::string, std::string>> gemmDtypes(ir::Tier t);
  void reportNotDotted();
  void print(std::string &out);
  void printImports(PyPrinter &p);
  void printEntries(PyPrinter &p, const Entries &m, bool freeze);
  bool printSensitivity(PyPrinter &p);
  bool printTail(PyPrinter &p);

  void error(DiagID id, SourceRange at, std::vector<std::string> args) {
    diags_.report(id, at.valid() ? at : target_.range, std::move(args));
    ok_ = false;
  }
  bool word(const ir::Option &o, std::string &v) {
    if (o.values.size() == 1 && o.values[0].kind != ir::Value::Number) {
      v = o.values[0].text;
      return true;
    }
    error(DiagID::err_horizon_option_value, o.range,
          {o.values.empty() ? "" : o.values[0].text, o.key, "expected one word or string"});
    return false;
  }
  bool boolean(const ir::Option &o, bool &v) {
    if (o.values.size() == 1 && o.values[0].kind == ir::Value::Ident &&
        (o.values[0].text == "true" || o.values[0].text == "false")) {
      v = o.values[0].text == "true";
      return true;
    }
    error(DiagID::err_horizon_option_value, o.range,
          {o.values.empty() ? "" : o.values[0].text, o.key, "expected true or false"});
    return false;
  }
  void readTarget();

  // The Python expression for `tier` on a module of `type`; nullopt after an error.
  std::optional<std::string> dtypeExpr(ir::Tier tier, const std::string &type,
                                       const std::string &name, SourceRange at) {
    if (tier == ir::Tier::DualInt16) {
      dtypesUsed_.insert("qint16");
      if (horizon::isMatmulLikeType(type))
        return std::string("{\"input\": [qint16, qint16]}");
      if (horizon::isConvLikeType(type))
        return std::string("{\"input\": qint16, \"weight\": qint16}");
      error(DiagID::err_horizon_dual_int16_type, at, {name});
      return std::nullopt;
    }
    auto d = horizon::dtypeForTier(ir::tierName(tier));
    if (!d) {
      error(DiagID::err_horizon_option_value, at,
            {ir::tierName(tier), "tier", "not expressible in horizon_plugin_pytorch"});
      return std::nullopt;
    }
    use(*d);
    return d;
  }
  void use(const std::string &dtype) {
    if (dtype.rfind("torch.", 0) == 0)
      torchUsed_ = true;
    else
      dtypesUsed_.insert(dtype);
  }
  std::optional<std::string> literal(std::string_view name, SourceRange at) {
    std::string lit, why;
    if (!horizon::pythonStringLiteral(name, lit, why)) {
      error(DiagID::err_horizon_name, at, {std::string(name), why});
      return std::nullopt;
    }
    if (!horizon::isDottedModuleName(name))
      notDotted_.emplace(name, at.valid() ? at : target_.range);
    return lit;
  }
  // A rule's `horizon { fixed_scale S }` block -> threshold for `dtype`.
  std::optional<double> fixedThreshold(const std::vector<const ir::Option *> &blocks,
                                       const std::string &dtype, const std::string &name) {
    for (const ir::Option *b : blocks) {
      if (b->key != "horizon")
        continue;
      for (const ir::Option &o : b->children) {
        if (o.key != "fixed_scale") {
          error(DiagID::err_horizon_option_value, o.keyRange.valid() ? o.keyRange : o.range,
                {o.key, "horizon rule block", "the only rule-level setting is fixed_scale"});
          continue;
        }
        if (o.values.size() != 1 || o.values[0].kind != ir::Value::Number) {
          error(DiagID::err_horizon_fixed_scale, o.range, {name, "expected one number"});
          continue;
        }
        double t;
        std::string why;
        if (!horizon::thresholdForScale(o.values[0].number, dtype, t, why)) {
          error(DiagID::err_horizon_fixed_scale, o.values[0].range, {name, why});
          continue;
        }
        return t;
      }
    }
    return std::nullopt;
  }
};

void HorizonWriter::readTarget() {
  // The observer: the `observer` setting, else the default act method when it names one.
  if (const auto &m = spec_.defaults.act.method; m && !horizon::observerClass(*m).empty())
    observer_ = horizon::observerClass(*m);
  for (const ir::Option &o : target_.options) {
    std::string v;
    bool b;
    if (o.key == "march") {
      if (word(o, v)) {
        if (!horizon::isKnownMarch(v))
          error(DiagID::err_horizon_unknown_march, o.values[0].range,
                {v, horizon::knownMarchList()});
        else
          march_ = v;
      }
    } else if (o.key == "observer") {
      if (word(o, v)) {
        std::string cls = horizon::observerClass(v);
        if (cls.empty())
          error(DiagID::err_horizon_observer, o.values[0].range, {v, horizon::knownObserverList()});
        else
          observer_ = cls;
      }
    } else if (o.key == "fix_scale") {
      if (boolean(o, b))
        fixScale_ = b;
    } else if (o.key == "enable_optimize") {
      if (boolean(o, b))
        enableOptimize_ = b;
    } else if (o.key == "save_dir") {
      if (word(o, v))
        saveDir_ = v;
    } else if (o.key == "sensitivity") {
      if (word(o, v))
        sensitivity_ = v;
    } else if (o.key == "sensitive_type") {
      if (word(o, v)) {
        if (v != "activation" && v != "weight" && v != "both")
          error(DiagID::err_horizon_option_value, o.values[0].range,
                {v, o.key, "use activation, weight or both"});
        else
          sensitiveType_ = v;
      }
    } else if (o.key == "topk_or_ratio") {
      if (o.values.size() != 1 || o.values[0].kind != ir::Value::Number ||
          !(o.values[0].number > 0) || (!o.values[0].isInteger && o.values[0].number > 1)) {
        error(DiagID::err_horizon_option_value, o.range,
              {o.values.empty() ? "" : o.values[0].text, o.key,
               "an integer top-k >= 1 or a ratio in (0, 1]"});
      } else {
        topk_ = o.values[0].number;
        topkIsInt_ = o.values[0].isInteger;
      }
    }
  }
  if ((topk_ || sensitiveType_) && !sensitivity_)
    error(DiagID::err_horizon_option_value, target_.range,
          {"", "sensitivity", "topk_or_ratio and sensitive_type need 'sensitivity \"TABLE.pt\"'"});
}

using ir::literalName;

std::optional<std::pair<std::string, std::string>> HorizonWriter::gemmDtypes(ir::Tier t) {
  switch (t) {
  case ir::Tier::Int8:
    use("qint8");
    return std::make_pair(std::string("qint8"), std::string("qint8"));
  case ir::Tier::Int16:
    use("qint16");
    use("qint8");
    return std::make_pair(std::string("qint16"), std::string("qint8"));
  case ir::Tier::DualInt16:
    use("qint16");
    return std::make_pair(std::string("qint16"), std::string("qint16"));
  default:
    return std::nullopt;
  }
}

// The global template and the GEMM templates from the IR's default tier. The plugin's march
// default (nash-p / nash-h: non-GEMM modules in torch.float16) is never relied on: the file
// states the tier the spec resolves.
bool HorizonWriter::planGlobal() {
  SourceRange defaultsAt =
      spec_.defaults.tierRange.valid() ? spec_.defaults.tierRange : target_.range;
  ir::Tier t = spec_.defaultTier();
  auto d = dtypeExpr(t, "", "the default tier", defaultsAt);
  if (!d)
    return false;
  globalDtype_ = *d;
  globalTier_ = t;
  gemmDtype_ = horizon::negQuantMin(globalDtype_) > 0 ? globalDtype_ : "";
  if (auto g = gemmDtypes(t)) {
    conv_ = Gemm{g->first, g->second, t};
    matmul_ = conv_;
  }
  return true;
}

// The tier the global / Conv / Matmul templates give a module.
std::optional<ir::Tier> HorizonWriter::templateTier(const ir::Module &m) const {
  if (conv_.set() && horizon::isConvLikeType(m.type))
    return conv_.tier;
  if (matmul_.set() && horizon::isMatmulLikeType(m.type))
    return matmul_.tier;
  return globalTier_;
}

// `name` must outlive the writer (an inventory name, or one of ownedNames_).
void HorizonWriter::addEntry(Entries &into, std::string_view name, EntryValue v, SourceRange at) {
  auto lit = literal(name, at);
  if (!lit)
    return;
  into.push_back(HorizonEntry{name, std::move(*lit), std::move(v)});
}

void HorizonWriter::planEntry(size_t i) {
  const ir::Module &m = spec_.inventory.modules[i];
  const ir::ResolvedModule &rm = spec_.resolution.modules[i];
  SourceRange at = rm.tier.from.range().valid() ? rm.tier.from.range() : target_.range;
  bool pinned = rm.isProtected || rm.tuned;
  bool hasRuleBlock = false;
  for (const ir::Option *b : rm.targetOptions)
    hasRuleBlock = hasRuleBlock || b->key == "horizon";
  if (!pinned && !hasRuleBlock && templateTier(m) == rm.tier.value)
    return; // the global / Conv / Matmul templates give it its tier
  auto d = dtypeExpr(rm.tier.value, m.type, m.name, at);
  if (!d)
    return;
  EntryValue v{*d, fixedThreshold(rm.targetOptions, *d, m.name)};
  addEntry(pinned ? frozen_ : entries_, m.name, std::move(v), at);
}

void HorizonWriter::planFromInventory() {
  const auto &mods = spec_.inventory.modules;
  // Does one type-override tier cover a whole template family?
  auto familyTier = [&](bool conv) -> std::optional<ir::Tier> {
    std::optional<ir::Tier> tier;
    for (size_t i = 0; i < mods.size(); ++i) {
      if (!(conv ? horizon::isConvLikeType(mods[i].type) : horizon::isMatmulLikeType(mods[i].type)))
        continue;
      const ir::ResolvedModule &rm = spec_.resolution.modules[i];
      if (rm.isProtected || rm.tuned || rm.tier.from.source == ir::Decision::NameOverride ||
          rm.tier.from.source == ir::Decision::Group)
        continue;
      if (rm.tier.from.source != ir::Decision::TypeOverride || (tier && tier != rm.tier.value))
        return std::nullopt;
      tier = rm.tier.value;
    }
    return tier;
  };
  for (bool conv : {true, false})
    if (auto t = familyTier(conv))
      if (auto g = gemmDtypes(*t))
        (conv ? conv_ : matmul_) = Gemm{g->first, g->second, *t};
  for (size_t i = 0; i < mods.size(); ++i)
    planEntry(i);
  // A tied output head (ir::tiedHeadName) is a Linear at run time that the index does not list
  // and that reuses the embedding's weight: frozen at float, as msModelSlim excludes it.
  if (std::optional<std::string> head = ir::tiedHeadName(spec_.inventory, spec_.modelConfig))
    if (auto d = dtypeExpr(ir::Tier::Float, "Linear", *head, target_.range))
      addEntry(frozen_, ownedNames_.emplace_back(std::move(*head)), EntryValue{*d, std::nullopt},
               target_.range);
  restorePrefixed();
}

// ModuleNameTemplate keys are prefixes: an entry `blk` also applies to `blk.sub`. Every module
// that a key of another module would cover (in the last template whose keys reach it) gets its
// own entry there, at the tier the spec resolves for it.
void HorizonWriter::restorePrefixed() {
  const auto &mods = spec_.inventory.modules;
  // Every dotted prefix of a name in one pass (vendors/horizon PrefixKeys): at a million modules
  // the maps' ordered lookups, and then std::hash of every prefix, were most of this emitter's
  // time.
  const horizon::PrefixKeys frozenKeys = prefixKeys(frozen_), entryKeys = prefixKeys(entries_);
  horizon::PrefixKeys::Cursor frozenAt, entryAt; // consecutive names share their parents
  std::vector<std::pair<bool, size_t>> restore;  // (frozen template, module)
  for (size_t i = 0; i < mods.size(); ++i) {
    const std::string_view name = mods[i].name;
    for (bool frozen : {true, false}) {
      const horizon::PrefixKeys &into = frozen ? frozenKeys : entryKeys;
      if (into.empty())
        continue;
      auto hit = into.longest(name, false, frozen ? frozenAt : entryAt);
      if (hit && hit->length == name.size())
        break; // its own key decides in the last template that reaches it
      if (hit) {
        restore.emplace_back(frozen, i);
        break;
      }
    }
  }
  for (auto [frozen, i] : restore) {
    const ir::ResolvedModule &rm = spec_.resolution.modules[i];
    SourceRange at = rm.tier.from.range().valid() ? rm.tier.from.range() : target_.range;
    if (auto d = dtypeExpr(rm.tier.value, mods[i].type, mods[i].name, at))
      addEntry(frozen ? frozen_ : entries_, mods[i].name, EntryValue{*d, std::nullopt}, at);
  }
}

// Without an inventory: the lowering of the symbolic resolution the precedence pass stored
// (ir::Resolution::symbolic, passes/SymbolicResolution.h).
// A name protect or tuning decides is frozen at its tier; one a name override decides is an
// entry; a type override sets the Conv / Matmul template of its family.
void HorizonWriter::planAsWritten() {
  const std::vector<ir::SymbolicEntry> &entries = spec_.resolution.symbolic;
  bool convSet = false, matmulSet = false;
  for (const passes::SymbolicEntry &e : entries) {
    ir::Decision::Source src = e.module.tier.from.source;
    if (src == ir::Decision::BuiltIn || src == ir::Decision::Default)
      continue; // no rule gives it a tier: the templates hold
    if (e.isType && src == ir::Decision::TypeOverride)
      planTypeEntry(e, convSet, matmulSet);
    else
      planNameEntry(e);
  }
}

void HorizonWriter::planTypeEntry(const passes::SymbolicEntry &e, bool &convSet, bool &matmulSet) {
  ir::Tier tier = e.module.tier.value;
  SourceRange at = e.selectors.front()->range;
  bool conv = horizon::isConvLikeType(e.text), mm = horizon::isMatmulLikeType(e.text);
  auto g = conv || mm ? gemmDtypes(tier) : std::nullopt;
  Gemm &family = conv ? conv_ : matmul_;
  bool &familySet = conv ? convSet : matmulSet;
  if (!g || (familySet && family.tier != tier)) {
    error(DiagID::err_horizon_type_needs_inventory, at, {e.text});
    return;
  }
  family = Gemm{g->first, g->second, tier};
  familySet = true;
}

void HorizonWriter::planNameEntry(const passes::SymbolicEntry &e) {
  const ir::ResolvedModule &rm = e.module;
  auto name = e.isType ? std::nullopt : literalName(*e.selectors.front());
  if (!name) {
    for (const ir::Selector *s : e.selectors)
      error(DiagID::err_emit_needs_inventory, s->range, {"the Horizon QconfigSetter", s->text});
    return;
  }
  bool pinned = rm.isProtected || rm.tuned;
  SourceRange at = pinned ? rm.tier.from.range() : e.selectors.front()->range;
  auto d = dtypeExpr(rm.tier.value, "", *name, at);
  if (!d)
    return;
  EntryValue v{*d, pinned ? std::nullopt : fixedThreshold(rm.targetOptions, *d, *name)};
  addEntry(pinned ? frozen_ : entries_, ownedNames_.emplace_back(std::move(*name)), std::move(v),
           at);
}

// One warning for every name that is not a dotted Python name: the count and the first few by
// byte order, at the first one's rule; `silence warn_horizon_name_not_dotted` accepts them.
void HorizonWriter::reportNotDotted() {
  if (notDotted_.empty() || silenced(target_, DiagID::warn_horizon_name_not_dotted))
    return;
  constexpr size_t kShown = 5;
  std::string names;
  size_t shown = 0;
  for (const auto &[name, at] : notDotted_) {
    if (shown++ == kShown)
      break;
    names += (names.empty() ? "'" : ", '") + std::string(name) + "'";
  }
  if (notDotted_.size() > kShown)
    names += ", and " + std::to_string(notDotted_.size() - kShown) + " more";
  diags_.report(DiagID::warn_horizon_name_not_dotted, notDotted_.begin()->second,
                {std::to_string(notDotted_.size()), names});
}

bool HorizonWriter::run(std::string &out) {
  readTarget();
  if (!ok_ || !planGlobal())
    return false;
  if (spec_.resolution.done)
    planFromInventory();
  else
    planAsWritten();
  if (!ok_)
    return false;
  sortEntries(entries_);
  sortEntries(frozen_);
  reportNotDotted();
  if (sensitivity_) {
    use(gemmDtype_.empty() ? "qint8" : gemmDtype_);
    use("qint16");
  }
  PyPrinter p;
  printImports(p);
  p.print("templates=[\n");
  p.indent();
  p.print("ModuleNameTemplate({\"\": $d$}),\n", {{"d", globalDtype_}});
  if (conv_.set())
    p.print("ConvDtypeTemplate(input_dtype=$in$, weight_dtype=$w$),\n",
            {{"in", conv_.in}, {"w", conv_.second}});
  if (matmul_.set())
    p.print("MatmulDtypeTemplate(input_dtypes=[$in$, $w$]),\n",
            {{"in", matmul_.in}, {"w", matmul_.second}});
  printEntries(p, entries_, false);
  if (!printSensitivity(p))
    return false;
  printEntries(p, frozen_, true);
  p.outdent();
  p.print("],\n");
  if (!printTail(p))
    return false;
  out = p.str();
  return true;
}

void HorizonWriter::printImports(PyPrinter &p) {
  std::string marchLit, why;
  horizon::pythonStringLiteral(march_, marchLit, why);
  p.print("# QconfigSetter for horizon_plugin_pytorch, generated by qcc; do not edit.\n"
          "# Use: set_march is called by build_qconfig_setter(); then\n"
          "#   prepare(model, example_inputs, qconfig_setter=build_qconfig_setter(), "
          "method=PrepareMethod.JIT_STRIP)\n");
  if (torchUsed_ || sensitivity_)
    p.print("import torch\n");
  std::string dtypes;
  for (const std::string &d : dtypesUsed_)
    dtypes += (dtypes.empty() ? "" : ", ") + d;
  if (!dtypes.empty())
    p.print("from horizon_plugin_pytorch.dtype import $dtypes$\n", {{"dtypes", dtypes}});
  p.print("from horizon_plugin_pytorch.march import set_march\n"
          "from horizon_plugin_pytorch.quantization import get_qconfig\n"
          "from horizon_plugin_pytorch.quantization.observer_v2 import $observer$\n"
          "from horizon_plugin_pytorch.quantization.qconfig_setter import (\n",
          {{"observer", observer_}});
  p.indent();
  if (conv_.set())
    p.print("ConvDtypeTemplate,\n");
  if (matmul_.set())
    p.print("MatmulDtypeTemplate,\n");
  p.print("ModuleNameTemplate,\nQconfigSetter,\n");
  if (sensitivity_)
    p.print("SensitivityTemplate,\n");
  p.outdent();
  p.print(")\n\nMARCH = $march$\n\n\ndef build_qconfig_setter():\n", {{"march", marchLit}});
  p.indent();
  p.print("\"\"\"Sets the march and returns the QconfigSetter to pass to prepare().\"\"\"\n"
          "set_march(MARCH)\n"
          "return QconfigSetter(\n");
  p.indent();
  p.print(
      "reference_qconfig=get_qconfig(observer=$observer$$fix$),\n",
      {{"observer", observer_},
       {"fix", fixScale_ ? std::string(", fix_scale=") + (*fixScale_ ? "True" : "False") : ""}});
}

void HorizonWriter::printEntries(PyPrinter &p, const Entries &m, bool freeze) {
  if (m.empty())
    return;
  p.print("ModuleNameTemplate(\n");
  p.indent();
  p.print("{\n");
  p.indent();
  for (const HorizonEntry &e : m) {
    const EntryValue &v = e.value;
    // Written piecewise (no Vars map per entry): "name": D, or "name": {"dtype": D, "threshold":
    // T},
    p.write(e.literal);
    p.write(v.threshold ? ": {\"dtype\": " : ": ");
    p.write(v.dtype);
    if (v.threshold) {
      p.write(", \"threshold\": ");
      p.write(horizon::pythonFloat(*v.threshold));
      p.write("}");
    }
    p.write(",\n");
  }
  p.outdent();
  p.print(freeze ? "},\nfreeze=True,\n" : "},\n");
  p.outdent();
  p.print("),\n");
}

bool HorizonWriter::printSensitivity(PyPrinter &p) {
  if (!sensitivity_)
    return true;
  std::string tableLit, why;
  if (!horizon::pythonStringLiteral(*sensitivity_, tableLit, why)) {
    error(DiagID::err_horizon_option_value, target_.option("sensitivity")->range,
          {*sensitivity_, "sensitivity", why});
    return false;
  }
  std::string typeLit;
  horizon::pythonStringLiteral(sensitiveType_.value_or("activation"), typeLit, why);
  std::string low = gemmDtype_.empty() ? "qint8" : gemmDtype_;
  std::string topk = !topk_       ? "0.1"
                     : topkIsInt_ ? std::to_string(static_cast<long long>(*topk_))
                                  : horizon::pythonFloat(*topk_);
  p.print("SensitivityTemplate(\n");
  p.indent();
  p.print("sensitive_table=torch.load($table$),\ntopk_or_ratio=$k$,\nsensitive_type=$type$,\n"
          "low_precision_dtype=$low$,\nhigh_precision_dtype=qint16,\n",
          {{"table", tableLit}, {"k", topk}, {"type", typeLit}, {"low", low}});
  p.outdent();
  p.print("),\n");
  return true;
}

bool HorizonWriter::printTail(PyPrinter &p) {
  if (enableOptimize_)
    p.print("enable_optimize=$b$,\n", {{"b", *enableOptimize_ ? "True" : "False"}});
  if (saveDir_) {
    std::string lit, why;
    if (!horizon::pythonStringLiteral(*saveDir_, lit, why)) {
      error(DiagID::err_horizon_option_value, target_.option("save_dir")->range,
            {*saveDir_, "save_dir", why});
      return false;
    }
    p.print("save_dir=$d$,\n", {{"d", lit}});
  }
  p.outdent();
  p.print(")\n");
  p.outdent();
  return true;
}

} // namespace

bool HorizonEmitter::emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
                          DiagnosticEngine &diags) {
  if (!HorizonWriter(spec, target, diags).run(out.buffer())) // freed before the document below
    return false;
  // Verify: the observer is the one recipe setting the setter carries, model-wide.
  horizon::QconfigSetterDoc doc;
  std::string error;
  uint32_t line = 0, column = 0;
  if (!horizon::parseQconfigSetter(out.buffer(), doc, error, line, column))
    return true; // the reader reports it (err_horizon_refused)
  vendors::RoleReading act;
  if (std::string m = horizon::setterActMethod(doc); !m.empty())
    act.method = m;
  reportUncarriedRecipes(spec, target, {vendors::RoleReading{}, act},
                         DiagID::warn_horizon_recipe_not_carried, diags);
  vendors::rememberParsed(out.buffer(), 0, std::move(doc)); // for the read-back (vendors/Parsed.h)
  return true;
}

} // namespace qspec::emit
