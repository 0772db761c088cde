#include "ir/IRPrinter.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace qspec::ir {

using json = nlohmann::ordered_json;

std::string locationString(const SourceRange &r, const SourceManager &sm) {
  if (!r.valid())
    return "<built-in>";
  return sm.path(r.file) + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.col);
}

static json decisionJSON(const Decision &d, const SourceManager &sm) {
  json j;
  j["rule"] = decisionSourceName(d.source);
  j["at"] = locationString(d.range(), sm);
  return j;
}

static const std::string &jsonValue(const Word &w) { return w.str(); }
static bool jsonValue(bool b) { return b; }

template <typename T> static json decidedJSON(const Decided<T> &d, const SourceManager &sm, bool set) {
  if (!set)
    return nullptr;
  json j;
  j["value"] = jsonValue(d.value);
  j["from"] = decisionJSON(d.from, sm);
  return j;
}

static json recipeJSON(const ResolvedRecipe &r, const SourceManager &sm) {
  json j;
  j["dtype"] = decidedJSON(r.dtype, sm, !r.dtype.value.empty());
  j["scope"] = decidedJSON(r.scope, sm, !r.scope.value.empty());
  j["symmetric"] = decidedJSON(r.symmetric, sm, r.symmetric.from.source != Decision::BuiltIn);
  j["method"] = decidedJSON(r.method, sm, !r.method.value.empty());
  return j;
}

static json optionJSON(const Option &o) {
  json j;
  j["key"] = o.key;
  if (!o.values.empty()) {
    json vs = json::array();
    for (const Value &v : o.values)
      vs.push_back(v.text);
    j["values"] = vs;
  }
  if (!o.children.empty()) {
    json cs = json::array();
    for (const Option &c : o.children)
      cs.push_back(optionJSON(c));
    j["children"] = cs;
  }
  return j;
}

void printIRJSON(const Spec &spec, const SourceManager &sm, std::ostream &os) {
  json root;
  root["spec"] = spec.path;
  root["model"] = spec.modelName;
  json ladder = json::array();
  for (Tier t : spec.ladder)
    ladder.push_back(tierName(t));
  root["tiers"] = ladder;
  root["default_tier"] = tierName(spec.defaultTier());
  root["inventory"] = spec.inventory.present()
                          ? json{{"path", spec.inventory.path}, {"format", spec.inventory.format},
                                 {"modules", spec.inventory.modules.size()}}
                          : json(nullptr);
  root["scores"] = spec.scores.present()
                       ? json{{"path", spec.scores.path}, {"format", spec.scores.format},
                              {"entries", spec.scores.entries.size()}}
                       : json(nullptr);
  json targets = json::array();
  for (const Target &t : spec.targets) {
    json tj;
    tj["kind"] = t.kind;
    tj["variant"] = t.variant;
    json opts = json::array();
    for (const Option &o : t.options)
      opts.push_back(optionJSON(o));
    tj["options"] = opts;
    targets.push_back(tj);
  }
  root["targets"] = targets;
  if (spec.tune.present) {
    json tj;
    tj["strategy"] = spec.tune.strategy;
    tj["metric"] = spec.tune.metric;
    tj["op"] = spec.tune.metricOp;
    tj["threshold"] = spec.tune.threshold;
    json levels = json::array();
    for (const Level &l : spec.tune.levels)
      levels.push_back(l.text);
    tj["levels"] = levels;
    json ex = json::array();
    for (const Selector &s : spec.tune.excludes)
      ex.push_back(s.text);
    tj["excludes"] = ex;
    json raises = json::array();
    for (const TuningRaise &r : spec.tune.raises) {
      json names = json::array();
      for (const Selector &s : r.selectors)
        names.push_back(s.text);
      raises.push_back({{"names", names}, {"tier", tierName(r.tier)}});
    }
    tj["raises"] = raises;
    root["tune"] = tj;
  }

  const Resolution &res = spec.resolution;
  json modules = json::array();
  if (res.done) {
    for (size_t i = 0; i < spec.inventory.modules.size(); ++i) {
      const Module &m = spec.inventory.modules[i];
      const ResolvedModule &r = res.modules[i];
      json mj;
      mj["name"] = m.name;
      mj["type"] = m.type;
      if (m.block >= 0)
        mj["block"] = m.block;
      mj["tier"] = tierName(r.tier.value);
      mj["tier_from"] = decisionJSON(r.tier.from, sm);
      if (r.isProtected)
        mj["protected"] = true;
      if (r.tuned)
        mj["tuned"] = true;
      if (r.group >= 0)
        mj["group"] = res.groups[static_cast<size_t>(r.group)].name;
      mj["weight"] = recipeJSON(r.weight, sm);
      mj["act"] = recipeJSON(r.act, sm);
      modules.push_back(mj);
    }
  }
  root["modules"] = modules;
  json groups = json::array();
  for (const Group &g : res.groups) {
    json members = json::array();
    for (uint32_t m : g.members)
      members.push_back(spec.inventory.modules[m].name);
    json gj;
    gj["name"] = g.name;
    gj["kind"] = g.kind == GroupDecl::SameScore ? "same-score" : "declared";
    if (g.kind == GroupDecl::SameScore)
      gj["score"] = g.score;
    gj["members"] = members;
    groups.push_back(gj);
  }
  root["groups"] = groups;
  json excluded = json::array();
  if (res.done)
    for (size_t i = 0; i < spec.inventory.modules.size(); ++i)
      if (res.modules[i].tier.value == Tier::Float)
        excluded.push_back(spec.inventory.modules[i].name);
  root["excluded"] = excluded;
  os << root.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

static void explainLine(std::ostream &os, const char *what, const std::string &value, const Decision &d,
                        const SourceManager &sm) {
  os << "  " << what << ": " << value << "\n      from " << decisionSourceName(d.source) << " at "
     << locationString(d.range(), sm) << '\n';
}

void printExplain(const Spec &spec, uint32_t index, const SourceManager &sm, std::ostream &os) {
  const Module &m = spec.inventory.modules[index];
  const ResolvedModule &r = spec.resolution.modules[index];
  os << "module " << m.name << '\n';
  os << "  type: " << (m.type.empty() ? "<unknown>" : m.type) << '\n';
  if (m.block >= 0)
    os << "  block: " << m.block << '\n';
  explainLine(os, "tier", tierName(r.tier.value), r.tier.from, sm);
  if (r.isProtected)
    os << "  protected: yes\n";
  if (r.tuned)
    os << "  tuned: yes\n";
  if (r.group >= 0) {
    const Group &g = spec.resolution.groups[static_cast<size_t>(r.group)];
    os << "  group: " << g.name << " (" << g.members.size() << " modules) declared at "
       << locationString(g.range, sm) << '\n';
  }
  auto recipe = [&](const char *role, const ResolvedRecipe &rr) {
    std::string p(role);
    if (!rr.dtype.value.empty())
      explainLine(os, (p + ".dtype").c_str(), rr.dtype.value, rr.dtype.from, sm);
    if (!rr.scope.value.empty())
      explainLine(os, (p + ".scope").c_str(), rr.scope.value, rr.scope.from, sm);
    if (rr.symmetric.from.source != Decision::BuiltIn)
      explainLine(os, (p + ".symmetric").c_str(), rr.symmetric.value ? "true" : "false", rr.symmetric.from, sm);
    if (!rr.method.value.empty())
      explainLine(os, (p + ".method").c_str(), rr.method.value, rr.method.from, sm);
  };
  recipe("weight", r.weight);
  recipe("act", r.act);
}

} // namespace qspec::ir
