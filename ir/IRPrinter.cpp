#include "ir/IRPrinter.h"
#include "ir/GraphNames.h"
#include "ir/Suggest.h"
#include "support/Json.h"

#include <nlohmann/json.hpp>

#include <array>
#include <functional>
#include <ostream>
#include <type_traits>
#include <unordered_map>

namespace qspec::ir {

using json = nlohmann::ordered_json;

std::string locationString(const SourceRange &r, const SourceManager &sm) {
  if (!r.valid())
    return "<built-in>";
  return sm.path(r.file) + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.col);
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

namespace {
using support::JsonWriter;

// Writes the "modules" array as nlohmann's dump(2) would print it, without building a tree for
// it: at tens of thousands of modules the tree was most of the time and memory of --emit=ir (and
// of every qtune round that writes ir.json). Modules share a few decisions, recipes and tails, so
// each is written once and spliced in again (JsonWriter::raw, rawMembers).
class ModuleArrayWriter {
public:
  explicit ModuleArrayWriter(const SourceManager &sm) : sm_(sm) {}

  // One module's object, in the "modules" array `w` writes.
  void module(JsonWriter &w, const Spec &spec, size_t i) {
    const Module &m = spec.inventory.modules[i];
    w.beginObject();
    w.key("name");
    w.string(m.name);
    w.key("type");
    w.string(m.type);
    if (m.block >= 0) {
      w.key("block");
      w.number(m.block);
    }
    w.rawMembers(tail(spec, spec.resolution.modules[i]));
    w.endObject();
  }

  // One entry of a symbolic resolution (no inventory): the selector as written, whether it names
  // a type or a name, then the members a module has after its type.
  void symbolic(JsonWriter &w, const Spec &spec, const SymbolicEntry &e) {
    w.beginObject();
    w.key("selector");
    w.string(e.text);
    w.key("kind");
    w.string(e.isType ? "type" : "name");
    w.rawMembers(tail(spec, e.module));
    w.endObject();
  }

private:
  // A module object's nesting in the document (root, "modules", the module), and its members'.
  static constexpr int kModule = 2, kMember = kModule + 1;

  // The members of a module after its name, type and block, written once per distinct tier,
  // decision, flags, group and recipes.
  const std::string &tail(const Spec &spec, const ResolvedModule &r) {
    TailKey k{
        &recipe(kMember, r.weight), &recipe(kMember, r.act), r.tier.from.at, r.group, r.tier.value,
        r.tier.from.source,         r.isProtected,           r.tuned};
    auto it = tails_.find(k);
    if (it == tails_.end()) {
      std::string t;
      JsonWriter w(t, 2, kModule, JsonWriter::Start::ObjectMembers);
      w.key("tier");
      w.string(tierName(r.tier.value));
      w.key("tier_from");
      w.raw(decision(kMember, r.tier.from));
      if (r.isProtected) {
        w.key("protected");
        w.boolean(true);
      }
      if (r.tuned) {
        w.key("tuned");
        w.boolean(true);
      }
      if (r.group >= 0) {
        w.key("group");
        w.string(spec.resolution.groups[static_cast<size_t>(r.group)].name);
      }
      w.key("weight");
      w.raw(*k.weight);
      w.key("act");
      w.raw(*k.act);
      it = tails_.emplace(k, std::move(t)).first;
    }
    return it->second;
  }

  // A decision's object at nesting `depth`, written once per (rule, source, depth): a module has
  // nine, from a handful of rules.
  const std::string &decision(int depth, const Decision &d) {
    DecisionKey k{d.at, d.source, depth};
    auto it = decisions_.find(k);
    if (it == decisions_.end()) {
      std::string t;
      JsonWriter w(t, 2, depth);
      w.beginObject();
      w.key("rule");
      w.string(decisionSourceName(d.source));
      w.key("at");
      w.string(locationString(d.range(), sm_));
      w.endObject();
      it = decisions_.emplace(k, std::move(t)).first;
    }
    return it->second;
  }
  template <typename T> void decided(JsonWriter &w, int depth, const Decided<T> &d, bool set) {
    if (!set) {
      w.null();
      return;
    }
    w.beginObject();
    w.key("value");
    if constexpr (std::is_same_v<T, bool>)
      w.boolean(d.value);
    else
      w.string(d.value.str());
    w.key("from");
    w.raw(decision(depth + 1, d.from));
    w.endObject();
  }
  // A recipe's object at nesting `depth`, written once per distinct (values, rules, depth):
  // modules share a few recipes.
  const std::string &recipe(int depth, const ResolvedRecipe &r) {
    auto field = [](const Decided<Word> &d) {
      return RecipeField{&d.value.str(), d.from.at, d.from.source};
    };
    static const bool kTrue = true;
    RecipeKey k{{field(r.dtype), field(r.scope), field(r.method),
                 RecipeField{r.symmetric.value ? &kTrue : nullptr, r.symmetric.from.at,
                             r.symmetric.from.source}},
                depth};
    auto it = recipes_.find(k);
    if (it == recipes_.end()) {
      std::string t;
      JsonWriter w(t, 2, depth);
      w.beginObject();
      w.key("dtype");
      decided(w, depth + 1, r.dtype, !r.dtype.value.empty());
      w.key("scope");
      decided(w, depth + 1, r.scope, !r.scope.value.empty());
      w.key("symmetric");
      decided(w, depth + 1, r.symmetric, r.symmetric.from.source != Decision::BuiltIn);
      w.key("method");
      decided(w, depth + 1, r.method, !r.method.value.empty());
      w.endObject();
      it = recipes_.emplace(k, std::move(t)).first;
    }
    return it->second;
  }

  struct DecisionKey {
    const SourceRange *at;
    Decision::Source source;
    int depth;
    bool operator==(const DecisionKey &o) const {
      return at == o.at && source == o.source && depth == o.depth;
    }
  };
  struct DecisionKeyHash {
    size_t operator()(const DecisionKey &k) const {
      return std::hash<const void *>()(k.at) ^
             (static_cast<size_t>(k.source) << 8 | static_cast<size_t>(k.depth)) *
                 0x9e3779b97f4a7c15ULL;
    }
  };

  // What a recipe's text depends on, per field: the value (a word's text, or for the symmetry
  // any non-null pointer for true) and the rule behind it.
  struct RecipeField {
    const void *value;
    const SourceRange *at;
    Decision::Source source;
    bool operator==(const RecipeField &o) const {
      return value == o.value && at == o.at && source == o.source;
    }
  };
  struct RecipeKey {
    std::array<RecipeField, 4> fields;
    int depth;
    bool operator==(const RecipeKey &o) const { return fields == o.fields && depth == o.depth; }
  };
  struct RecipeKeyHash {
    size_t operator()(const RecipeKey &k) const {
      size_t h = static_cast<size_t>(k.depth);
      for (const RecipeField &f : k.fields)
        h = (h ^ std::hash<const void *>()(f.value) ^ std::hash<const void *>()(f.at) * 31 ^
             f.source) *
            0x9e3779b97f4a7c15ULL;
      return h;
    }
  };

  // What a module's tail depends on: its recipes' texts (cached, so their addresses say which)
  // and the rest of its resolution but the targets' option blocks, which --emit=ir does not print.
  struct TailKey {
    const std::string *weight, *act;
    const SourceRange *tierAt;
    int32_t group;
    Tier tier;
    Decision::Source tierSource;
    bool isProtected, tuned;
    bool operator==(const TailKey &o) const {
      return weight == o.weight && act == o.act && tierAt == o.tierAt && group == o.group &&
             tier == o.tier && tierSource == o.tierSource && isProtected == o.isProtected &&
             tuned == o.tuned;
    }
  };
  struct TailKeyHash {
    size_t operator()(const TailKey &k) const {
      size_t h = std::hash<const void *>()(k.weight);
      for (size_t v : {std::hash<const void *>()(k.act), std::hash<const void *>()(k.tierAt),
                       static_cast<size_t>(k.group),
                       static_cast<size_t>(k.tier) << 16 | static_cast<size_t>(k.tierSource) << 8 |
                           static_cast<size_t>(k.isProtected) << 1 | static_cast<size_t>(k.tuned)})
        h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
      return h;
    }
  };

  const SourceManager &sm_;
  std::unordered_map<DecisionKey, std::string, DecisionKeyHash> decisions_;
  std::unordered_map<RecipeKey, std::string, RecipeKeyHash> recipes_;
  std::unordered_map<TailKey, std::string, TailKeyHash> tails_;
};
} // namespace

// The version of the --emit=ir document (docs/ir.md, docs/ir.schema.json): raised when a
// member is removed or changes meaning; new members do not raise it.
constexpr int kIRFormatVersion = 1;

namespace {
// The IR document into `out`; when `flush` is given, it is called with `out` whenever `out` has
// grown past kChunk bytes (and may empty it), so a stream never holds more than one chunk.
constexpr size_t kChunk = 1 << 20;
using Flush = std::function<void(std::string &)>;

void maybeFlush(std::string &out, const Flush &flush) {
  if (flush && out.size() > kChunk)
    flush(out);
}

// A JSON array of module names (the modules `index(k)` for k < n that `keep` keeps).
template <typename Keep, typename Index>
void writeNames(JsonWriter &w, const Spec &spec, size_t n, const Keep &keep, const Index &index,
                std::string &out, const Flush &flush) {
  w.beginArray();
  for (size_t k = 0; k < n; ++k) {
    size_t i = index(k);
    if (!keep(i))
      continue;
    w.string(spec.inventory.modules[i].name);
    maybeFlush(out, flush);
  }
  w.endArray();
}

// "groups": each group's name, kind, score (printed as nlohmann prints a number) and members.
void writeGroups(JsonWriter &w, const Spec &spec, std::string &out, const Flush &flush) {
  w.beginArray();
  for (const Group &g : spec.resolution.groups) {
    w.beginObject();
    w.key("name");
    w.string(g.name);
    w.key("kind");
    w.string(g.kind == GroupDecl::SameScore ? "same-score" : "declared");
    if (g.kind == GroupDecl::SameScore) {
      w.key("score");
      w.raw(json(g.score).dump());
    }
    w.key("members");
    writeNames(
        w, spec, g.members.size(), [](size_t) { return true; },
        [&](size_t m) { return static_cast<size_t>(g.members[m]); }, out, flush);
    w.endObject();
  }
  w.endArray();
}

// "modules": one object per module (ModuleArrayWriter); `headSize` (the size of the rest of the
// document) is part of the single-string reserve.
void writeModules(JsonWriter &w, const Spec &spec, const SourceManager &sm, size_t headSize,
                  std::string &out, const Flush &flush) {
  const Resolution &res = spec.resolution;
  w.beginArray();
  if (res.done) {
    ModuleArrayWriter modules(sm);
    const size_t n = spec.inventory.modules.size(), sample = 256, start = out.size();
    for (size_t i = 0; i < n; ++i) {
      modules.module(w, spec, i);
      maybeFlush(out, flush);
      // In one string: room for the rest from the first modules' size, with a margin (pages
      // never written cost no memory), so the string is not copied as it grows.
      if (!flush && i + 1 == sample && n > sample)
        out.reserve(out.size() + (out.size() - start) / sample * (n - sample) * 5 / 4 + headSize);
    }
  }
  w.endArray();
}

// "symbolic": without an inventory, what the precedence pass decided for each written selector
// (Resolution::symbolic), in first-written order, each entry shaped like a module.
void writeSymbolic(JsonWriter &w, const Spec &spec, const std::vector<SymbolicEntry> &entries,
                   const SourceManager &sm) {
  ModuleArrayWriter writer(sm);
  w.beginArray();
  for (const SymbolicEntry &e : entries)
    writer.symbolic(w, spec, e);
  w.endArray();
}

// Two graphs: the exported ONNX and, per module with a node or candidates, its nodes there and
// how they were found (docs/ir.md, `onnx`).
json onnxJSON(const Spec &spec) {
  const OnnxGraph &g = spec.onnx;
  auto names = [&](const std::vector<uint32_t> &ids) {
    json a = json::array();
    for (uint32_t id : ids)
      a.push_back(g.nodes[id].name);
    return a;
  };
  json mods = json::object();
  for (size_t m = 0; m < g.modules.size() && m < spec.inventory.modules.size(); ++m) {
    const NodeMapping &nm = g.modules[m];
    if (nm.nodes.empty() && nm.candidates.empty())
      continue;
    json e = {{"nodes", names(nm.nodes)}, {"by", mappingHowName(nm.how)}};
    if (!nm.candidates.empty())
      e["candidates"] = names(nm.candidates);
    mods[spec.inventory.modules[m].name] = e;
  }
  return json{{"path", g.path},
              {"map", g.mapPath.empty() ? json(nullptr) : json(g.mapPath)},
              {"nodes", g.nodes.size()},
              {"modules", mods}};
}

// One decided value as {"value", "from": {"rule", "at"}}.
json decidedJSON(const std::string &value, const Decision &d, const SourceManager &sm) {
  return json{
      {"value", value},
      {"from", {{"rule", decisionSourceName(d.source)}, {"at", locationString(d.range(), sm)}}}};
}

// A target's expected reading where it differs from the general resolution: each distinct change
// (the fields it sets, each with the setting that decided it) and the modules it applies to, in
// inventory order.
json expectedJSON(const Spec &spec, const Target &t, const SourceManager &sm) {
  json out = json::array();
  const TargetReading *r = spec.readingOf(t);
  if (!r)
    return out;
  std::vector<json> names(r->changes.size(), json::array());
  for (size_t m = 0; m < r->change.size(); ++m)
    if (r->change[m] != 0)
      names[r->change[m] - 1].push_back(spec.inventory.modules[m].name);
  for (size_t i = 0; i < r->changes.size(); ++i) {
    const TargetChange &c = r->changes[i];
    json e;
    if (c.tier)
      e["tier"] = decidedJSON(tierName(c.tier->value), c.tier->from, sm);
    if (c.weightDtype)
      e["weight_dtype"] = decidedJSON(c.weightDtype->value.str(), c.weightDtype->from, sm);
    if (c.weightScope)
      e["weight_scope"] = decidedJSON(c.weightScope->value.str(), c.weightScope->from, sm);
    if (c.weightMethod)
      e["weight_method"] = decidedJSON(c.weightMethod->value.str(), c.weightMethod->from, sm);
    if (c.actMethod)
      e["act_method"] = decidedJSON(c.actMethod->value.str(), c.actMethod->from, sm);
    e["modules"] = std::move(names[i]);
    out.push_back(std::move(e));
  }
  return out;
}

void appendIR(const Spec &spec, const SourceManager &sm, std::string &out,
              const std::function<void(std::string &)> &flush) {
  json root;
  root["version"] = kIRFormatVersion;
  root["spec"] = spec.path;
  root["model"] = spec.modelName;
  json ladder = json::array();
  for (Tier t : spec.ladder)
    ladder.push_back(tierName(t));
  root["tiers"] = ladder;
  root["default_tier"] = tierName(spec.defaultTier());
  root["inventory"] = spec.inventory.present() ? json{{"path", spec.inventory.path},
                                                      {"format", spec.inventory.format},
                                                      {"modules", spec.inventory.modules.size()}}
                                               : json(nullptr);
  root["scores"] = spec.scores.present() ? json{{"path", spec.scores.path},
                                                {"format", spec.scores.format},
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
    tj["expected"] = expectedJSON(spec, t, sm);
    targets.push_back(tj);
  }
  root["targets"] = targets;
  json allows = json::array();
  for (const Allow &a : spec.allows)
    allows.push_back({{"name", a.name}, {"reason", a.reason}});
  root["allows"] = allows;
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

  if (spec.onnx.present())
    root["onnx"] = onnxJSON(spec);

  // The root without its closing "\n}"; the three large members follow it, written directly.
  std::string text = root.dump(2, ' ', false, json::error_handler_t::replace);
  text.resize(text.size() - 2);
  out += text;
  JsonWriter w(out, 2, 0, JsonWriter::Start::ObjectMembers);
  w.key("modules");
  writeModules(w, spec, sm, text.size(), out, flush);
  w.key("groups");
  writeGroups(w, spec, out, flush);
  w.key("excluded");
  const Resolution &res = spec.resolution;
  auto floatModule = [&](size_t i) { return res.done && res.modules[i].tier.value == Tier::Float; };
  writeNames(
      w, spec, spec.inventory.modules.size(), floatModule, [](size_t i) { return i; }, out, flush);
  if (!spec.inventory.present()) {
    w.key("symbolic");
    writeSymbolic(w, spec, res.symbolic, sm);
  }
  w.endObject();
  out += '\n';
}
} // namespace

bool printIRJSON(const Spec &spec, const SourceManager &sm,
                 const std::function<bool(std::string_view)> &sink) {
  std::string chunk;
  bool ok = true;
  auto flush = [&](std::string &buf) {
    ok = ok && sink(buf);
    buf.clear();
  };
  appendIR(spec, sm, chunk, flush);
  flush(chunk);
  return ok;
}

void printIRJSON(const Spec &spec, const SourceManager &sm, std::ostream &os) {
  printIRJSON(spec, sm, [&](std::string_view chunk) {
    os.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    return true;
  });
}

void printIRJSON(const Spec &spec, const SourceManager &sm, std::string &out) {
  appendIR(spec, sm, out, nullptr);
}

static void explainLine(std::ostream &os, const char *what, const std::string &value,
                        const Decision &d, const SourceManager &sm) {
  os << "  " << what << ": " << value << "\n      from " << decisionSourceName(d.source) << " at "
     << locationString(d.range(), sm) << '\n';
}

// The module's name in one target's name space: the module name, or with two graphs the ONNX
// node names for HMCT and AMCT's framework onnx (docs/inputs.md, "Two graphs").
static std::string targetName(const Spec &spec, const Target &t, const std::string &module,
                              const NodeMapping &nm) {
  if (!namesOnnxNodes(spec, t))
    return module + " (module name)";
  std::string out;
  for (uint32_t id : nm.nodes)
    out += (out.empty() ? "" : ", ") + spec.onnx.nodes[id].name +
           (spec.onnx.nodes[id].unnamed ? " (unnamed)" : "");
  if (!out.empty())
    return out + " (ONNX node, by " + mappingHowName(nm.how) + ")";
  for (uint32_t id : nm.candidates)
    out += (out.empty() ? "" : ", ") + spec.onnx.nodes[id].name;
  return out.empty() ? "<no node in the ONNX graph>" : "<ambiguous in the ONNX graph: " + out + ">";
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
      explainLine(os, (p + ".symmetric").c_str(), rr.symmetric.value ? "true" : "false",
                  rr.symmetric.from, sm);
    if (!rr.method.value.empty())
      explainLine(os, (p + ".method").c_str(), rr.method.value, rr.method.from, sm);
  };
  recipe("weight", r.weight);
  recipe("act", r.act);
  for (const Target &t : spec.targets) {
    std::string label = t.kind + (t.variant.empty() ? "" : " " + t.variant);
    os << "  name in " << label << ": "
       << targetName(spec, t, m.name,
                     spec.onnx.present() ? spec.onnx.modules[index] : NodeMapping{})
       << '\n';
    // What this target applies where it differs from the above (its expected reading).
    const TargetReading *tr = spec.readingOf(t);
    const TargetChange *c = tr ? tr->changeOf(index) : nullptr;
    if (!c)
      continue;
    if (c->tier)
      explainLine(os, (label + ": tier").c_str(), tierName(c->tier->value), c->tier->from, sm);
    if (c->weightDtype)
      explainLine(os, (label + ": weight.dtype").c_str(), c->weightDtype->value,
                  c->weightDtype->from, sm);
    if (c->weightScope)
      explainLine(os, (label + ": weight.scope").c_str(), c->weightScope->value,
                  c->weightScope->from, sm);
    if (c->weightMethod)
      explainLine(os, (label + ": weight.method").c_str(), c->weightMethod->value,
                  c->weightMethod->from, sm);
    if (c->actMethod)
      explainLine(os, (label + ": act.method").c_str(), c->actMethod->value, c->actMethod->from,
                  sm);
  }
}

bool printExplainTiedHead(const Spec &spec, std::string_view name, std::ostream &os) {
  std::optional<OutputHead> h =
      spec.inventory.present() ? outputHead(spec.inventory, spec.modelConfig) : std::nullopt;
  if (!h || !h->tied() || h->name != name)
    return false;
  std::optional<GraphHead> g = graphHead(spec);
  os << "module " << h->name << " (tied output head, not in the inventory)\n";
  os << "  reuses the weight of: " << (h->embedding ? h->embedding->name : "<none>") << '\n';
  os << "  tier: float\n      kept float by the targets below (docs/inputs.md, \"Output head\")\n";
  // The backends that keep a tied head float: msModelSlim's exclude, AMCT's skip_layers, HMCT's
  // float32 node entries, Horizon's frozen float32.
  for (const Target &t : spec.targets)
    if (t.kind == "msmodelslim" || t.kind == "amct" || t.kind == "hmct" || t.kind == "horizon")
      os << "  name in " << t.kind << (t.variant.empty() ? "" : " " + t.variant) << ": "
         << targetName(spec, t, h->name, g ? g->mapping : NodeMapping{}) << '\n';
  return true;
}

} // namespace qspec::ir
