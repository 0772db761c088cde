// Recipe fields a backend's file cannot carry; see RecipeCarry.h.
#include "emitters/RecipeCarry.h"

namespace qspec::emit {

namespace {

// One role of one rule: the fields the file does not apply as written, reported together.
struct Reporter {
  const ir::Target &target;
  DiagID id;
  DiagnosticEngine &diags;
  std::string values, gives; // "per_channel histogram", "scope 'per_tensor' to every module, ..."

  void add(const std::string &field, const std::string &value,
           const std::optional<std::string> &file) {
    values += (values.empty() ? "" : " ") + value;
    gives += (gives.empty() ? "" : ", ") +
             (file ? field + " '" + *file + "' to every module" : "no " + field + " key");
  }
  void word(const char *field, const std::optional<std::string> &spec,
            const std::optional<std::string> &file) {
    if (spec && (!file || *spec != *file))
      add(field, *spec, file);
  }
  // `tier` is the tier the rule's modules get (its own or the default), which the file carries.
  void role(const ir::Recipe &r, const vendors::RoleReading &file, const char *name,
            ir::Tier tier) {
    values.clear();
    gives.clear();
    if (r.dtype && *r.dtype != ir::tierName(tier))
      add("dtype", *r.dtype, std::string(ir::tierName(tier)));
    word("scope", r.scope, file.scope);
    if (r.symmetric && (!file.symmetric || *r.symmetric != *file.symmetric))
      add("symmetry", *r.symmetric ? "symmetric" : "asymmetric",
          file.symmetric ? std::optional<std::string>(*file.symmetric ? "symmetric" : "asymmetric")
                         : std::nullopt);
    word("method", r.method, file.method);
    for (const auto &[k, v] : r.ext)
      add(k, k + "=" + v.text, std::nullopt);
    if (!values.empty())
      diags.report(id, r.range.valid() ? r.range : target.range,
                   {std::string(name) + " recipe", values, gives});
  }
  void settings(const ir::Settings &s, const CarriedRecipes &c, ir::Tier tier) {
    role(s.weight, c.weight, "weight", tier);
    role(s.act, c.act, "act", tier);
  }
};

} // namespace

const ir::Settings *decidingSettings(const ir::Spec &spec, const ir::Decision &d) {
  return spec.decidingSettings(d);
}

bool silenced(const ir::Target &target, DiagID id) {
  if (const ir::Option *o = target.option("silence"))
    for (const ir::Value &v : o->values)
      if (v.text == diagInfo(id).id)
        return true;
  return false;
}

void reportUncarriedRecipes(const ir::Spec &spec, const ir::Target &target,
                            const CarriedRecipes &carried, DiagID id, DiagnosticEngine &diags) {
  if (silenced(target, id))
    return;
  Reporter r{target, id, diags, {}, {}};
  ir::Tier d = spec.defaultTier();
  r.settings(spec.defaults, carried, d);
  for (const ir::Override &o : spec.overrides)
    r.settings(o.settings, carried, o.settings.tier.value_or(d));
}

} // namespace qspec::emit
