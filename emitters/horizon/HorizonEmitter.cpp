// The Horizon QconfigSetter emitter (docs/emitters/horizon.md has the full mapping).
//
// 1. Read the target: march (set_march; its §3.5 defaults), observer, fix_scale, sensitivity.
// 2. Global dtype: the spec's default tier, or the march default when the spec sets none
//    (nash-p/nash-h: torch.float16 with Conv/Matmul qint8; others qint8). Conv/Matmul templates
//    carry the GEMM dtype explicitly (the type override's, when it covers the whole family).
// 3. ModuleNameTemplate entries: every module whose tier was decided by a rule (name or type
//    override, group) and differs from what the templates give it; pinned modules (protected,
//    tuning state) always, in a separate template with freeze=True, placed last.
// 4. Every name goes through horizon::pythonStringLiteral; dtypes are identifiers.
#include "emitters/horizon/HorizonEmitter.h"
#include "vendors/horizon/HorizonRules.h"
#include "emitters/horizon/PyPrinter.h"

#include <map>
#include <set>

namespace qspec::emit {

namespace {

using horizon::PyPrinter;

struct EntryValue {
  std::string dtype;              // identifier, or a port map expression
  std::optional<double> threshold;
};

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

  void error(DiagID id, SourceRange at, std::vector<std::string> args) {
    diags_.report(id, at.valid() ? at : target_.range, std::move(args));
    ok_ = false;
  }
  bool word(const ir::Option &o, std::string &v) {
    if (o.values.size() == 1 && o.values[0].kind != ir::Value::Number) {
      v = o.values[0].text;
      return true;
    }
    error(DiagID::err_horizon_option_value, o.range, {o.values.empty() ? "" : o.values[0].text, o.key, "expected one word or string"});
    return false;
  }
  bool boolean(const ir::Option &o, bool &v) {
    if (o.values.size() == 1 && o.values[0].kind == ir::Value::Ident && (o.values[0].text == "true" || o.values[0].text == "false")) {
      v = o.values[0].text == "true";
      return true;
    }
    error(DiagID::err_horizon_option_value, o.range, {o.values.empty() ? "" : o.values[0].text, o.key, "expected true or false"});
    return false;
  }
  void readTarget();

  // The Python expression for `tier` on a module of `type`; nullopt after an error.
  std::optional<std::string> dtypeExpr(ir::Tier tier, const std::string &type, const std::string &name, SourceRange at) {
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
      error(DiagID::err_horizon_option_value, at, {ir::tierName(tier), "tier", "not expressible in horizon_plugin_pytorch"});
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
  std::optional<std::string> literal(const std::string &name, SourceRange at) {
    std::string lit, why;
    if (!horizon::pythonStringLiteral(name, lit, why)) {
      error(DiagID::err_horizon_name, at, {name, why});
      return std::nullopt;
    }
    if (!horizon::isDottedModuleName(name))
      diags_.report(DiagID::warn_horizon_name_not_dotted, at.valid() ? at : target_.range, {name});
    return lit;
  }
  // A rule's `horizon { fixed_scale S }` block -> threshold for `dtype`.
  std::optional<double> fixedThreshold(const std::vector<const ir::Option *> &blocks, const std::string &dtype,
                                       const std::string &name) {
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
  for (const ir::Option &o : target_.options) {
    std::string v;
    bool b;
    if (o.key == "march") {
      if (word(o, v)) {
        if (!horizon::isKnownMarch(v))
          error(DiagID::err_horizon_unknown_march, o.values[0].range, {v, horizon::knownMarchList()});
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
          error(DiagID::err_horizon_option_value, o.values[0].range, {v, o.key, "use activation, weight or both"});
        else
          sensitiveType_ = v;
      }
    } else if (o.key == "topk_or_ratio") {
      if (o.values.size() != 1 || o.values[0].kind != ir::Value::Number || !(o.values[0].number > 0) ||
          (!o.values[0].isInteger && o.values[0].number > 1)) {
        error(DiagID::err_horizon_option_value, o.range,
              {o.values.empty() ? "" : o.values[0].text, o.key, "an integer top-k >= 1 or a ratio in (0, 1]"});
      } else {
        topk_ = o.values[0].number;
        topkIsInt_ = o.values[0].isInteger;
      }
    }
  }
  if ((topk_ || sensitiveType_) && !sensitivity_)
    error(DiagID::err_horizon_option_value, target_.range, {"", "sensitivity", "topk_or_ratio and sensitive_type need 'sensitivity \"TABLE.pt\"'"});
}

std::optional<std::string> literalName(const ir::Selector &s) {
  if (s.kind != ir::Selector::Name)
    return std::nullopt;
  if (s.pattern && s.pattern->isLiteral())
    return s.pattern->literal();
  if (!s.pattern && !hasGlobSyntax(s.text))
    return s.text;
  return std::nullopt;
}

bool HorizonWriter::run(std::string &out) {
  readTarget();
  if (!ok_)
    return false;

  // Global and GEMM dtypes.
  bool explicitDefault = spec_.defaults.tier.has_value();
  SourceRange defaultsAt = spec_.defaults.tierRange.valid() ? spec_.defaults.tierRange : target_.range;
  std::string globalDtype, gemmDtype;
  if (explicitDefault) {
    auto d = dtypeExpr(*spec_.defaults.tier, "", "the default tier", defaultsAt);
    if (!d)
      return false;
    globalDtype = *d;
    gemmDtype = horizon::negQuantMin(globalDtype) > 0 ? globalDtype : "";
  } else {
    globalDtype = horizon::marchDefaultsToFloat16(march_) ? "torch.float16" : "qint8";
    gemmDtype = "qint8";
    use(globalDtype);
    use(gemmDtype);
  }
  std::string convIn = gemmDtype, convW = gemmDtype, matmulIn = gemmDtype;

  std::map<std::string, EntryValue> entries, frozen; // by name (byte order)
  auto add = [&](std::map<std::string, EntryValue> &into, const std::string &name, EntryValue v, SourceRange at) {
    if (!literal(name, at))
      return;
    into[name] = std::move(v);
  };

  if (spec_.resolution.done) {
    const auto &mods = spec_.inventory.modules;
    // Does one type-override tier cover a whole template family?
    auto familyTier = [&](bool conv) -> std::optional<ir::Tier> {
      std::optional<ir::Tier> tier;
      bool any = false;
      for (size_t i = 0; i < mods.size(); ++i) {
        if (!(conv ? horizon::isConvLikeType(mods[i].type) : horizon::isMatmulLikeType(mods[i].type)))
          continue;
        const ir::ResolvedModule &rm = spec_.resolution.modules[i];
        if (rm.isProtected || rm.tuned || rm.tier.from.source == ir::Decision::NameOverride ||
            rm.tier.from.source == ir::Decision::Group)
          continue;
        if (rm.tier.from.source != ir::Decision::TypeOverride)
          return std::nullopt;
        if (any && tier != rm.tier.value)
          return std::nullopt;
        tier = rm.tier.value;
        any = true;
      }
      return tier;
    };
    auto gemmExpr = [&](ir::Tier t, bool conv) -> std::optional<std::pair<std::string, std::string>> {
      switch (t) {
      case ir::Tier::Int8: use("qint8"); return std::make_pair(std::string("qint8"), std::string("qint8"));
      case ir::Tier::Int16: use("qint16"); use("qint8"); return std::make_pair(std::string("qint16"), std::string(conv ? "qint8" : "qint16"));
      case ir::Tier::DualInt16: use("qint16"); return std::make_pair(std::string("qint16"), std::string("qint16"));
      default: return std::nullopt;
      }
    };
    std::optional<ir::Tier> convTier = familyTier(true), matmulTier = familyTier(false);
    if (convTier) {
      if (auto e = gemmExpr(*convTier, true)) {
        convIn = e->first;
        convW = e->second;
      } else {
        convTier.reset();
      }
    }
    if (matmulTier) {
      if (auto e = gemmExpr(*matmulTier, false))
        matmulIn = e->first;
      else
        matmulTier.reset();
    }
    for (size_t i = 0; i < mods.size(); ++i) {
      const ir::Module &m = mods[i];
      const ir::ResolvedModule &rm = spec_.resolution.modules[i];
      SourceRange at = rm.tier.from.range().valid() ? rm.tier.from.range() : target_.range;
      bool pinned = rm.isProtected || rm.tuned;
      auto src = rm.tier.from.source;
      bool coveredByTemplate = (src == ir::Decision::TypeOverride) &&
                               ((convTier && horizon::isConvLikeType(m.type)) ||
                                (matmulTier && horizon::isMatmulLikeType(m.type)));
      bool hasRuleBlock = false;
      for (const ir::Option *b : rm.targetOptions)
        hasRuleBlock = hasRuleBlock || b->key == "horizon";
      if (!pinned && !hasRuleBlock &&
          (src == ir::Decision::BuiltIn || src == ir::Decision::Default || coveredByTemplate))
        continue; // the global / Conv / Matmul templates give it its tier
      auto d = dtypeExpr(rm.tier.value, m.type, m.name, at);
      if (!d)
        continue;
      EntryValue v{*d, fixedThreshold(rm.targetOptions, *d, m.name)};
      if (!pinned && !v.threshold) {
        // Skip entries that restate what the templates already give.
        std::string expected = horizon::isConvLikeType(m.type) && !convIn.empty() ? convIn
                               : horizon::isMatmulLikeType(m.type) && !matmulIn.empty() ? matmulIn
                                                                                        : globalDtype;
        if (*d == expected)
          continue;
      }
      add(pinned ? frozen : entries, m.name, std::move(v), at);
    }
  } else {
    // No inventory: the rules as written.
    auto needNames = [&](const ir::Selector &s) { error(DiagID::err_emit_needs_inventory, s.range, {"the Horizon QconfigSetter", s.text}); };
    auto pin = [&](const ir::Selector &s, ir::Tier tier) {
      auto name = literalName(s);
      if (!name)
        return needNames(s);
      if (auto d = dtypeExpr(tier, "", *name, s.range))
        add(frozen, *name, EntryValue{*d, std::nullopt}, s.range);
    };
    for (const ir::Protect &p : spec_.protects)
      pin(p.selector, ir::Tier::Float);
    for (const ir::Selector &s : spec_.tune.excludes)
      pin(s, ir::Tier::Float);
    for (const ir::TuningRaise &r : spec_.tune.raises)
      for (const ir::Selector &s : r.selectors)
        pin(s, r.tier);
    bool convSet = false, matmulSet = false;
    for (const ir::Override &o : spec_.overrides) {
      if (!o.settings.tier)
        continue;
      std::vector<const ir::Option *> blocks;
      for (const ir::Option &b : o.settings.targetOptions)
        blocks.push_back(&b);
      for (const ir::Selector &s : o.selectors) {
        if (o.level == ir::Override::Type) {
          bool conv = horizon::isConvLikeType(s.text), mm = horizon::isMatmulLikeType(s.text);
          ir::Tier t = *o.settings.tier;
          if ((conv || mm) && (t == ir::Tier::Int8 || t == ir::Tier::Int16 || t == ir::Tier::DualInt16)) {
            std::string in = t == ir::Tier::Int8 ? "qint8" : "qint16";
            std::string w = t == ir::Tier::Int16 && conv ? "qint8" : in;
            use(in);
            use(w);
            if ((conv && convSet && convIn != in) || (mm && matmulSet && matmulIn != in)) {
              error(DiagID::err_horizon_type_needs_inventory, s.range, {s.text});
              continue;
            }
            if (conv) {
              convIn = in;
              convW = w;
              convSet = true;
            } else {
              matmulIn = in;
              matmulSet = true;
            }
            continue;
          }
          error(DiagID::err_horizon_type_needs_inventory, s.range, {s.text});
          continue;
        }
        auto name = literalName(s);
        if (!name) {
          needNames(s);
          continue;
        }
        if (frozen.count(*name))
          continue; // protected or tuned: the pin wins
        if (auto d = dtypeExpr(*o.settings.tier, "", *name, s.range))
          add(entries, *name, EntryValue{*d, fixedThreshold(blocks, *d, *name)}, s.range);
      }
    }
  }
  if (!ok_)
    return false;

  if (sensitivity_) {
    use(gemmDtype.empty() ? "qint8" : gemmDtype);
    use("qint16");
  }

  // Print.
  PyPrinter p;
  std::string marchLit, why;
  horizon::pythonStringLiteral(march_, marchLit, why);
  p.print("# QconfigSetter for horizon_plugin_pytorch, generated by qcc; do not edit.\n"
          "# Use: set_march is called by build_qconfig_setter(); then\n"
          "#   prepare(model, example_inputs, qconfig_setter=build_qconfig_setter(), method=PrepareMethod.JIT_STRIP)\n");
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
  if (!convIn.empty())
    p.print("ConvDtypeTemplate,\n");
  if (!matmulIn.empty())
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
  p.print("reference_qconfig=get_qconfig(observer=$observer$$fix$),\n",
          {{"observer", observer_}, {"fix", fixScale_ ? std::string(", fix_scale=") + (*fixScale_ ? "True" : "False") : ""}});
  p.print("templates=[\n");
  p.indent();
  p.print("ModuleNameTemplate({\"\": $d$}),\n", {{"d", globalDtype}});
  if (!convIn.empty())
    p.print("ConvDtypeTemplate(input_dtype=$in$, weight_dtype=$w$),\n", {{"in", convIn}, {"w", convW}});
  if (!matmulIn.empty())
    p.print("MatmulDtypeTemplate(input_dtypes=[$in$, $in$]),\n", {{"in", matmulIn}});
  auto printEntries = [&](const std::map<std::string, EntryValue> &m, bool freeze) {
    if (m.empty())
      return;
    p.print("ModuleNameTemplate(\n");
    p.indent();
    p.print("{\n");
    p.indent();
    for (auto &[name, v] : m) {
      std::string lit, why2;
      horizon::pythonStringLiteral(name, lit, why2); // checked when added
      if (v.threshold)
        p.print("$name$: {\"dtype\": $d$, \"threshold\": $t$},\n",
                {{"name", lit}, {"d", v.dtype}, {"t", horizon::pythonFloat(*v.threshold)}});
      else
        p.print("$name$: $d$,\n", {{"name", lit}, {"d", v.dtype}});
    }
    p.outdent();
    p.print(freeze ? "},\nfreeze=True,\n" : "},\n");
    p.outdent();
    p.print("),\n");
  };
  printEntries(entries, false);
  if (sensitivity_) {
    std::string tableLit;
    if (!horizon::pythonStringLiteral(*sensitivity_, tableLit, why)) {
      error(DiagID::err_horizon_option_value, target_.option("sensitivity")->range, {*sensitivity_, "sensitivity", why});
      return false;
    }
    std::string typeLit;
    horizon::pythonStringLiteral(sensitiveType_.value_or("activation"), typeLit, why);
    std::string low = gemmDtype.empty() ? "qint8" : gemmDtype;
    std::string topk = !topk_ ? "0.1" : topkIsInt_ ? std::to_string(static_cast<long long>(*topk_)) : horizon::pythonFloat(*topk_);
    p.print("SensitivityTemplate(\n");
    p.indent();
    p.print("sensitive_table=torch.load($table$),\ntopk_or_ratio=$k$,\nsensitive_type=$type$,\n"
            "low_precision_dtype=$low$,\nhigh_precision_dtype=qint16,\n",
            {{"table", tableLit}, {"k", topk}, {"type", typeLit}, {"low", low}});
    p.outdent();
    p.print("),\n");
  }
  printEntries(frozen, true);
  p.outdent();
  p.print("],\n");
  if (enableOptimize_)
    p.print("enable_optimize=$b$,\n", {{"b", *enableOptimize_ ? "True" : "False"}});
  if (saveDir_) {
    std::string lit;
    if (!horizon::pythonStringLiteral(*saveDir_, lit, why)) {
      error(DiagID::err_horizon_option_value, target_.option("save_dir")->range, {*saveDir_, "save_dir", why});
      return false;
    }
    p.print("save_dir=$d$,\n", {{"d", lit}});
  }
  p.outdent();
  p.print(")\n");
  p.outdent();
  std::string text = p.str();
  out = std::move(text);
  return true;
}

} // namespace

bool HorizonEmitter::emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
                          DiagnosticEngine &diags) {
  HorizonWriter w(spec, target, diags);
  return w.run(out.buffer());
}

} // namespace qspec::emit
