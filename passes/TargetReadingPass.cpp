// TargetReadingPass: each target's expected reading, what its vendor applies to every module, in
// the IR's words (ir::TargetReading). Translation validation compares each written file's
// reading with it, `--emit=ir` and `--explain` show it, and the emitters lower it.
//
// 1. Start from the general resolution (precedence, protect, tuning, groups).
// 2. The target's own scope (TargetInfo::scopeOption, msModelSlim's `include`): a quantized
//    module it does not select (msModelSlim's test: the exact name, then the glob) stays float,
//    decided by that option.
// 3. The deciding rule's vendor block (`amct { channel_wise false; quant_bits 7 }`): each setting
//    the backend maps to an IR field (TargetInfo::ruleOption) decides that field, at the setting.
// 4. A quantized module of a type the vendor never quantizes (TargetInfo::quantizesType) is a
//    skip (float), decided by the target; the emitter reports its named warning, never an error.
//    A rule (not the defaults) that gives such a module a tier gets the target's skip warning
//    (TargetInfo::skipWarning), once per type: qcc and qlint report it from here.
// 5. The vendor's method for each role (TargetInfo::methodOf: the QAT/PTQ mapping, AMCT's
//    algorithm), where its word differs from the spec's, decided by the setting that chose it.
// 6. Only modules that differ are stored, as indexes into a table of distinct changes.
// Without an inventory there are no modules to read: a target whose vendor quantizes one type
// only (TargetInfo::onlyType, msModelSlim's nn.Linear) reads every written name as a module of
// that type, so its reading is the symbolic resolution with the type's overrides under each name
// (TargetReading::symbolic); every other reading is empty.
#include "passes/Pass.h"
#include "passes/SymbolicResolution.h"

#include "ir/TargetInfo.h"

#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace qspec::passes {
namespace {

using ir::Decision;

// The modules the target's scope option selects, or an empty vector when it has none.
std::vector<char> scopeOf(PassContext &ctx, const ir::Target &t, const ir::TargetInfo &info,
                          const ir::Option *&opt) {
  opt = info.scopeOption.empty() ? nullptr : t.option(info.scopeOption);
  if (!opt)
    return {};
  const ir::ModuleSelector &sel = ctx.modules();
  std::vector<char> in(ctx.spec.inventory.modules.size(), 0);
  for (const ir::Value &v : opt->values) {
    std::string err;
    auto p = Pattern::compile(v.text, err);
    if (!p)
      continue; // the emitter reports the option's bad pattern
    for (uint32_t m : sel.selectWritten(v.text, *p))
      in[m] = 1;
  }
  return in;
}

class TargetReadingPass : public Pass {
public:
  const char *name() const override { return "target-readings"; }

  bool run(PassContext &ctx) override {
    ir::Spec &spec = ctx.spec;
    ir::Resolution &res = spec.resolution;
    res.targets.assign(spec.targets.size(), {});
    if (!spec.inventory.present())
      return readSymbolic(ctx);
    if (!res.done || res.modules.size() != spec.inventory.modules.size())
      return true;
    for (size_t ti = 0; ti < spec.targets.size(); ++ti)
      if (const ir::TargetInfo *info = ir::findTarget(spec.targets[ti].kind))
        readTarget(ctx, static_cast<int32_t>(ti), *info, res.targets[ti]);
    return true;
  }

private:
  // Without an inventory: each one-type target's symbolic reading, computed once per type. When
  // the general resolution passed, a failure here is new (a raise below what the type override
  // gives): reported by resolving again with the diagnostics.
  static bool readSymbolic(PassContext &ctx) {
    ir::Spec &spec = ctx.spec;
    std::map<std::string, std::vector<ir::SymbolicEntry>> byType;
    for (size_t ti = 0; ti < spec.targets.size(); ++ti) {
      const ir::TargetInfo *info = ir::findTarget(spec.targets[ti].kind);
      if (!info || info->onlyType.empty())
        continue;
      auto [it, fresh] = byType.try_emplace(info->onlyType);
      if (fresh && !resolveSymbolic(spec, nullptr, it->second, info->onlyType)) {
        if (!ctx.diags.hasErrors()) // qlint runs every pass even after errors: report new ones
          resolveSymbolic(spec, &ctx.diags, it->second, info->onlyType);
        return false;
      }
      spec.resolution.targets[ti].symbolic = it->second;
    }
    return true;
  }

  void readTarget(PassContext &ctx, int32_t ti, const ir::TargetInfo &info,
                  ir::TargetReading &out) {
    const ir::Spec &spec = ctx.spec;
    const ir::Target &t = spec.targets[static_cast<size_t>(ti)];
    const auto &mods = spec.inventory.modules;
    const ir::Option *scopeOpt = nullptr;
    std::vector<char> inScope = scopeOf(ctx, t, info, scopeOpt);
    // Changes by what they are made of (the deciding ranges and words are the Spec's, so their
    // addresses say which): a spec has a handful.
    using Word = std::pair<const std::string *, const SourceRange *>;
    using Key = std::tuple<int, const SourceRange *, Word, Word, Word, Word>;
    std::map<Key, uint32_t> ids;
    Methods methods{info, t, ti, std::nullopt};
    std::set<std::string_view> warned; // types whose skip was reported
    // Per type: whether the vendor quantizes it; inventories list a block's modules together, so
    // most modules repeat the last type looked up.
    std::map<std::string_view, bool> quantizes;
    std::optional<std::pair<std::string_view, bool>> lastType;
    auto vendorQuantizes = [&](const std::string &type) {
      if (!lastType || lastType->first != type)
        lastType.emplace(type, quantizesType(info, t, type, quantizes));
      return lastType->second;
    };
    for (size_t m = 0; m < mods.size(); ++m) {
      const ir::ResolvedModule &rm = spec.resolution.modules[m];
      if (rm.tier.value == ir::Tier::Float)
        continue; // float everywhere: nothing a target adds changes it
      ir::TargetChange c;
      if (scopeOpt && !inScope[m]) {
        c.tier = ir::Decided<ir::Tier>{ir::Tier::Float,
                                       Decision{Decision::TargetScope, ti, &scopeOpt->range}};
      } else if (info.quantizesType && !vendorQuantizes(mods[m].type)) {
        c.tier =
            ir::Decided<ir::Tier>{ir::Tier::Float, Decision{Decision::VendorSkip, ti, &t.range}};
        reportSkip(ctx, info, t, mods[m], rm, warned);
      } else {
        if (info.ruleOption)
          ruleBlock(info, t, ti, rm, c);
        if (info.methodOf)
          methods.apply(rm, c);
      }
      if (c.empty())
        continue;
      auto word = [](const std::optional<ir::Decided<ir::Word>> &w) -> Word {
        if (!w)
          return {nullptr, nullptr};
        return {&w->value.str(), w->from.at};
      };
      Key k{c.tier ? static_cast<int>(c.tier->from.source) : -1,
            c.tier ? c.tier->from.at : nullptr,
            word(c.weightDtype),
            word(c.weightScope),
            word(c.weightMethod),
            word(c.actMethod)};
      auto [it, fresh] = ids.try_emplace(k, static_cast<uint32_t>(out.changes.size() + 1));
      if (fresh)
        out.changes.push_back(c);
      if (out.change.empty())
        out.change.assign(mods.size(), 0);
      out.change[m] = it->second;
    }
  }

  // A module a rule gives a quantized tier, of a type the vendor never quantizes: the target's
  // skip warning, once per type (the defaults alone are no rule naming the module).
  static void reportSkip(PassContext &ctx, const ir::TargetInfo &info, const ir::Target &t,
                         const ir::Module &mod, const ir::ResolvedModule &rm,
                         std::set<std::string_view> &warned) {
    ir::Decision::Source src = rm.tier.from.source;
    if (!info.skipWarning || src == Decision::BuiltIn || src == Decision::Default ||
        !warned.insert(mod.type).second)
      return;
    SourceRange at = rm.tier.from.range().valid() ? rm.tier.from.range() : t.range;
    ctx.diags.report(*info.skipWarning, at,
                     {mod.name, mod.type, info.skipWhat ? info.skipWhat(t) : t.kind,
                      ir::tierName(rm.tier.value)});
  }

  // The vendor's method for each role (TargetInfo::methodOf), where its word differs from the
  // spec's. Neighbouring modules mostly share their methods and rule blocks: the last answer is
  // kept.
  struct Methods {
    const ir::TargetInfo &info;
    const ir::Target &t;
    int32_t ti;
    struct Last {
      const std::string *own[2];
      std::vector<const ir::Option *> blocks;
      ir::TargetInfo::MethodMapping mapped[2];
    };
    std::optional<Last> last;

    void apply(const ir::ResolvedModule &rm, ir::TargetChange &c) {
      const std::string *own[2] = {&rm.weight.method.value.str(), &rm.act.method.value.str()};
      if (!last || last->own[0] != own[0] || last->own[1] != own[1] ||
          last->blocks != rm.targetOptions)
        last = Last{{own[0], own[1]},
                    rm.targetOptions,
                    {info.methodOf(t, rm, true), info.methodOf(t, rm, false)}};
      for (int weight = 1; weight >= 0; --weight) {
        const ir::TargetInfo::MethodMapping &mm = last->mapped[weight == 1 ? 0 : 1];
        const std::string &spec = *own[weight == 1 ? 0 : 1];
        if (!mm.word || *mm.word == spec)
          continue;
        ir::Decided<ir::Word> d{ir::Word(*mm.word),
                                Decision{Decision::VendorMethod, ti, mm.at ? mm.at : &t.range}};
        (weight ? c.weightMethod : c.actMethod) = d;
      }
    }
  };

  static bool quantizesType(const ir::TargetInfo &info, const ir::Target &t,
                            const std::string &type, std::map<std::string_view, bool> &known) {
    auto [it, fresh] = known.try_emplace(type, false);
    if (fresh)
      it->second = info.quantizesType(t, type);
    return it->second;
  }

  // The settings of the deciding rule's block for this target, in order (a later one wins).
  static void ruleBlock(const ir::TargetInfo &info, const ir::Target &t, int32_t ti,
                        const ir::ResolvedModule &rm, ir::TargetChange &c) {
    for (const ir::Option *block : rm.targetOptions) {
      if (block->key != t.kind)
        continue;
      for (const ir::Option &setting : block->children) {
        ir::TargetInfo::RuleOptionEffect e = info.ruleOption(t, setting);
        Decision d{Decision::TargetOption, ti, &setting.range};
        if (e.weightDtype)
          c.weightDtype = ir::Decided<ir::Word>{ir::Word(*e.weightDtype), d};
        if (e.weightScope)
          c.weightScope = ir::Decided<ir::Word>{ir::Word(*e.weightScope), d};
      }
    }
  }
};

} // namespace

std::unique_ptr<Pass> createTargetReadingPass() { return std::make_unique<TargetReadingPass>(); }

} // namespace qspec::passes
