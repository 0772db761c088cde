// The llm-compressor-yaml emitter (a recipe with one QuantizationModifier) and its other file, the
// compressed-tensors-config (the quantization_config block of a checkpoint's config.json), from one
// plan; emitTargets then reads the bytes back through vendors/compressed_tensors as vLLM would.
//
// 1. Options: `ignore` entries are added to the file's ignore list as written (names, `re:`
//    patterns, class names), each checked against the inventory (ct::checkPattern: a pattern that
//    matches nothing, or more than its dots read literally would); `kv_cache int8 | fp8_e4m3`
//    writes a kv_cache_scheme.
// 2. Each linear module's scheme from its resolution (the target's expected reading): weight and
//    activation dtype, scope (per_group with the rule's group_size), symmetry, and the method as
//    an observer (minmax, mse, memoryless) or `dynamic`; what has no compressed-tensors word is
//    err_llmc_scheme_not_carried at the rule, a method without an observer a named warning.
// 3. Fused layers: the shards of a layer vLLM fuses (q/k/v_proj, gate/up_proj) must get one
//    scheme, else err_llmc_fused_split at the rule, with the declared group as a note.
// 4. One config group per scheme, in the order modules first use it; targets are exact names,
//    except that the largest group targets the class `Linear` when no module has an unknown type
//    and every fused shard is in that group or ignored. Unquantized linear modules are ignored by
//    exact name.
#include "emitters/llmcompressor/LlmCompressorEmitter.h"

#include "emitters/RecipeCarry.h"
#include "vendors/compressed_tensors/CompressedTensors.h"

#include <map>
#include <set>

namespace qspec::emit {

namespace {

using vendors::ct::Args;
using vendors::ct::quoted;

struct Scheme {
  Args weights;
  std::optional<Args> acts;
  std::string key() const {
    return weights.key() + " | " + (acts ? acts->key() : std::string("none"));
  }
};

// The key=value setting `key` of the rule behind decision `d` for one role, or null.
const ir::Value *extSetting(const ir::Spec &spec, const ir::Decision &d, bool weight,
                            const char *key) {
  const ir::Settings *s = decidingSettings(spec, d);
  if (!s)
    return nullptr;
  const auto &ext = (weight ? s->weight : s->act).ext;
  auto it = ext.find(key);
  return it == ext.end() ? nullptr : &it->second;
}

bool isFloatWord(const std::string &w) {
  return w.empty() || w == "float" || w == "fp16" || w == "bf16" || w == "float16" ||
         w == "bfloat16" || w == "fp32" || w == "float32";
}

class Plan {
public:
  Plan(const ir::Spec &spec, const ir::Target &target, DiagnosticEngine &diags)
      : spec_(spec), target_(target), diags_(diags) {}
  bool build();
  std::string yaml() const;
  std::string json() const;

private:
  bool roleArgs(const ir::ResolvedModule &m, size_t i, bool weight, Args &a);
  bool schemeOf(const ir::ResolvedModule &m, size_t i, std::optional<Scheme> &out);
  bool checkFused(const std::vector<std::string> &keys,
                  const std::vector<std::optional<Scheme>> &schemes,
                  const std::vector<ir::ResolvedModule> &res);
  void notCarried(const ir::Decision &d, const char *what, const std::string &word, size_t i,
                  const std::string &why);
  std::string argsYaml(const Args &a, const std::string &indent) const;
  std::string argsJson(const Args &a) const;
  std::string kvCacheWord() const;

  const ir::Spec &spec_;
  const ir::Target &target_;
  DiagnosticEngine &diags_;
  std::vector<Scheme> groups_;
  std::vector<std::vector<std::string>> targets_; // per group
  std::vector<std::string> ignore_;
  std::optional<Args> kvCache_;
  std::set<const void *> warned_;
  bool ok_ = true;
};

void Plan::notCarried(const ir::Decision &d, const char *what, const std::string &word, size_t i,
                      const std::string &why) {
  if (!warned_.insert(d.at ? static_cast<const void *>(d.at) : &target_).second)
    return;
  diags_.report(DiagID::err_llmc_scheme_not_carried, d.range().valid() ? d.range() : target_.range,
                {what, word, spec_.inventory.modules[i].name, why});
  ok_ = false;
}

bool Plan::roleArgs(const ir::ResolvedModule &m, size_t i, bool weight, Args &a) {
  const ir::ResolvedRecipe &r = weight ? m.weight : m.act;
  std::string dtype = weight ? std::string(vendors::effectiveWeightDtype(m)) : r.dtype.value.str();
  const char *role = weight ? "weight dtype" : "act dtype";
  if (dtype == "int4" || dtype == "int8")
    a.type = "int", a.numBits = dtype == "int4" ? 4 : 8;
  else if (dtype == "fp8_e4m3")
    a.type = "float", a.numBits = 8;
  else {
    notCarried(weight ? m.tier.from : r.dtype.from, role, dtype, i,
               "its schemes are int4, int8 and fp8_e4m3");
    return false;
  }
  std::string scope = r.scope.value.str();
  static const std::map<std::string, std::string> kStrategy = {{"per_tensor", "tensor"},
                                                               {"per_channel", "channel"},
                                                               {"per_group", "group"},
                                                               {"per_token", "token"}};
  auto s = kStrategy.find(scope.empty() ? (weight ? "per_channel" : "per_tensor") : scope);
  if (s == kStrategy.end()) {
    notCarried(r.scope.from, weight ? "weight scope" : "act scope", scope, i,
               "its strategies are per_tensor, per_channel, per_group and per_token");
    return false;
  }
  a.strategy = s->second;
  if (a.strategy == "group") {
    const ir::Value *g = extSetting(spec_, r.scope.from, weight, "group_size");
    if (!g || !g->isInteger || g->number < 1) {
      notCarried(r.scope.from, weight ? "weight scope" : "act scope", scope, i,
                 "per_group needs an integer group_size=N on the rule");
      return false;
    }
    a.groupSize = static_cast<int64_t>(g->number);
  }
  a.symmetric = r.symmetric.value;
  std::string method = r.method.value.str();
  a.dynamic = method == "dynamic";
  if (a.dynamic)
    a.observer.clear();
  else if (method == "mse" || method == "memoryless" || method == "minmax")
    a.observer = method;
  else {
    a.observer = "minmax";
    const ir::Decision &d = r.method.from;
    if (d.source != ir::Decision::BuiltIn &&
        !silenced(target_, DiagID::warn_llmc_method_not_carried) &&
        warned_.insert(&r.method).second && warned_.insert(d.at).second)
      diags_.report(DiagID::warn_llmc_method_not_carried,
                    d.range().valid() ? d.range() : target_.range,
                    {weight ? "weight" : "act", method, "observer: minmax"});
  }
  return true;
}

bool Plan::schemeOf(const ir::ResolvedModule &m, size_t i, std::optional<Scheme> &out) {
  if (m.tier.value == ir::Tier::Float)
    return true;
  Scheme s;
  if (!roleArgs(m, i, true, s.weights))
    return false;
  if (!isFloatWord(m.act.dtype.value.str())) {
    s.acts.emplace();
    if (!roleArgs(m, i, false, *s.acts))
      return false;
  }
  out = s;
  return true;
}

// One role of a scheme in the IR's words: "int4 per_group(64) symmetric minmax".
std::string roleWords(const Args &a) {
  static const std::map<std::string, std::string> kScope = {{"tensor", "per_tensor"},
                                                            {"channel", "per_channel"},
                                                            {"group", "per_group"},
                                                            {"token", "per_token"}};
  auto scope = kScope.find(a.strategy);
  std::string s = (a.type == "float" ? "fp8_e4m3" : "int" + std::to_string(a.numBits)) + " " +
                  (scope == kScope.end() ? a.strategy : scope->second);
  if (a.groupSize)
    s += "(" + std::to_string(*a.groupSize) + ")";
  s += a.symmetric ? " symmetric " : " asymmetric ";
  return s + (a.dynamic ? "dynamic" : a.observer);
}

// A module's scheme for a message; "unquantized" for none.
std::string schemeWords(const std::optional<Scheme> &s) {
  if (!s)
    return "unquantized";
  return "weight " + roleWords(s->weights) + ", act " + (s->acts ? roleWords(*s->acts) : "float");
}

// The rule behind the first field in which `m` differs from `other` (tier, then the weight's
// dtype, scope and symmetry, then the activation's).
const ir::Decision &differingRule(const ir::ResolvedModule &m, const ir::ResolvedModule &other) {
  if (m.tier.value != other.tier.value)
    return m.tier.from;
  for (const auto *r : {&m.weight, &m.act}) {
    const ir::ResolvedRecipe &o = r == &m.weight ? other.weight : other.act;
    if (r->dtype.value.str() != o.dtype.value.str())
      return r->dtype.from;
    if (r->scope.value.str() != o.scope.value.str())
      return r->scope.from;
    if (r->symmetric.value != o.symmetric.value)
      return r->symmetric.from;
    if (r->method.value.str() != o.method.value.str())
      return r->method.from;
  }
  return m.weight.dtype.from;
}

bool Plan::checkFused(const std::vector<std::string> &keys,
                      const std::vector<std::optional<Scheme>> &schemes,
                      const std::vector<ir::ResolvedModule> &res) {
  const auto &mods = spec_.inventory.modules;
  std::set<std::string> done;
  bool ok = true;
  for (size_t i = 0; i < mods.size(); ++i) {
    std::optional<vendors::ct::Fused> f = vendors::ct::fusedLayerOf(mods[i].name);
    if (!f || !done.insert(f->name).second)
      continue;
    std::vector<size_t> shards;
    for (const std::string &s : f->shards)
      if (auto hit = spec_.inventory.index.find(s); hit.found)
        shards.push_back(hit.second);
    if (shards.size() != f->shards.size())
      continue;
    for (size_t k = 1; k < shards.size(); ++k) {
      size_t a = shards[0], b = shards[k];
      if (keys[a] == keys[b])
        continue;
      const ir::ResolvedModule &mb = res[b], &ma = res[a];
      const ir::Decision &why = differingRule(mb, ma), &other = differingRule(ma, mb);
      SourceRange at = why.range().valid() ? why.range() : target_.range;
      Diagnostic &d = diags_.report(
          DiagID::err_llmc_fused_split, at,
          {f->name, mods[a].name, schemeWords(schemes[a]), mods[b].name, schemeWords(schemes[b])});
      if (other.range().valid())
        diags_.note(d, DiagID::note_llmc_fused_rule, other.range(),
                    {mods[a].name, schemeWords(schemes[a])});
      if (ma.group >= 0 && ma.group == mb.group) {
        const ir::Group &g = spec_.resolution.groups[ma.group];
        diags_.note(d, DiagID::note_llmc_fused_group, g.range,
                    {mods[a].name, mods[b].name, g.name});
      }
      ok = false;
      break;
    }
  }
  return ok;
}

std::string Plan::kvCacheWord() const {
  const ir::Option *o = target_.option("kv_cache");
  return o && o->values.size() == 1 ? o->values[0].text : "";
}

bool Plan::build() {
  const auto &mods = spec_.inventory.modules;
  if (mods.empty()) {
    diags_.report(DiagID::err_emit_needs_inventory, target_.range,
                  {"llm-compressor", "every rule"});
    return false;
  }
  if (const ir::Option *kv = target_.option("kv_cache")) {
    std::string w = kvCacheWord();
    if (w != "int8" && w != "fp8_e4m3") {
      diags_.report(DiagID::err_llmc_bad_option, kv->range,
                    {"kv_cache", "must be one of int8, fp8_e4m3"});
      return false;
    }
    kvCache_.emplace();
    kvCache_->type = w == "int8" ? "int" : "float";
  }
  if (const ir::Option *ig = target_.option("ignore"))
    for (const ir::Value &v : ig->values)
      ok_ = vendors::ct::checkPattern(v.text, mods, v.range, diags_) && ok_;
  const ir::TargetReading *reading = spec_.readingOf(target_);
  std::vector<ir::ResolvedModule> res = spec_.resolution.modules;
  if (reading)
    for (size_t i = 0; i < res.size(); ++i)
      if (reading->changeOf(i))
        res[i] = reading->expected(spec_.resolution.modules[i], i);
  std::vector<std::string> keys(mods.size());
  std::vector<std::optional<Scheme>> schemes(mods.size());
  for (size_t i = 0; i < mods.size(); ++i) {
    if (!mods[i].type.empty() && mods[i].type != "Linear")
      continue;
    if (schemeOf(res[i], i, schemes[i]) && schemes[i])
      keys[i] = schemes[i]->key();
  }
  if (!ok_ || !checkFused(keys, schemes, res))
    return false;
  std::map<std::string, size_t> groupOf;
  std::vector<std::vector<size_t>> members;
  bool unknownType = false;
  for (size_t i = 0; i < mods.size(); ++i) {
    unknownType = unknownType || mods[i].type.empty();
    if (!mods[i].type.empty() && mods[i].type != "Linear")
      continue;
    if (!schemes[i]) {
      ignore_.push_back(mods[i].name);
      continue;
    }
    auto [it, added] = groupOf.emplace(keys[i], groups_.size());
    if (added) {
      groups_.push_back(*schemes[i]);
      members.emplace_back();
    }
    members[it->second].push_back(i);
  }
  size_t largest = 0;
  for (size_t g = 1; g < members.size(); ++g)
    if (members[g].size() > members[largest].size())
      largest = g;
  bool byClass = !unknownType && !members.empty();
  for (size_t g = 0; g < members.size() && byClass; ++g)
    for (size_t i : members[g])
      if (g != largest && vendors::ct::fusedLayerOf(mods[i].name))
        byClass = false;
  targets_.resize(members.size());
  for (size_t g = 0; g < members.size(); ++g) {
    if (byClass && g == largest) {
      targets_[g].push_back("Linear");
      continue;
    }
    for (size_t i : members[g])
      targets_[g].push_back(mods[i].name);
  }
  if (const ir::Option *ig = target_.option("ignore"))
    for (const ir::Value &v : ig->values)
      ignore_.push_back(v.text);
  return true;
}

std::string Plan::argsYaml(const Args &a, const std::string &in) const {
  std::string s = in + "num_bits: " + std::to_string(a.numBits) + "\n" + in + "type: " + a.type +
                  "\n" + in + "symmetric: " + (a.symmetric ? "true" : "false") + "\n" + in +
                  "strategy: " + a.strategy + "\n";
  if (a.groupSize)
    s += in + "group_size: " + std::to_string(*a.groupSize) + "\n";
  s += in + "dynamic: " + (a.dynamic ? "true" : "false") + "\n";
  s += in + "observer: " + (a.observer.empty() ? "null" : a.observer) + "\n";
  return s;
}

std::string Plan::yaml() const {
  std::string s = "# llm-compressor recipe (QuantizationModifier), generated by qcc; do not edit.\n"
                  "default_stage:\n  default_modifiers:\n    QuantizationModifier:\n"
                  "      config_groups:\n";
  for (size_t g = 0; g < groups_.size(); ++g) {
    s += "        group_" + std::to_string(g) + ":\n          targets:\n";
    for (const std::string &t : targets_[g])
      s += "          - " + quoted(t) + "\n";
    s += "          weights:\n" + argsYaml(groups_[g].weights, "            ");
    if (groups_[g].acts)
      s += "          input_activations:\n" + argsYaml(*groups_[g].acts, "            ");
  }
  if (groups_.empty())
    s += "        {}\n";
  s += "      ignore:";
  s += ignore_.empty() ? " []\n" : "\n";
  for (const std::string &i : ignore_)
    s += "      - " + quoted(i) + "\n";
  if (kvCache_)
    s += "      kv_cache_scheme:\n" + argsYaml(*kvCache_, "        ");
  return s;
}

std::string Plan::argsJson(const Args &a) const {
  std::string s = "{\"dynamic\": " + std::string(a.dynamic ? "true" : "false");
  if (a.groupSize)
    s += ", \"group_size\": " + std::to_string(*a.groupSize);
  s += ", \"num_bits\": " + std::to_string(a.numBits) +
       ", \"observer\": " + (a.observer.empty() ? "null" : quoted(a.observer)) +
       ", \"strategy\": " + quoted(a.strategy) +
       ", \"symmetric\": " + (a.symmetric ? "true" : "false") + ", \"type\": " + quoted(a.type) +
       "}";
  return s;
}

std::string Plan::json() const {
  bool acts = false, allFloat = true;
  for (const Scheme &g : groups_) {
    acts = acts || g.acts.has_value();
    allFloat = allFloat && g.weights.type == "float";
  }
  std::string format = acts ? (allFloat ? "float-quantized" : "int-quantized")
                            : (allFloat && !groups_.empty() ? "naive-quantized" : "pack-quantized");
  std::string s = "{\n  \"quantization_config\": {\n    \"config_groups\": {";
  for (size_t g = 0; g < groups_.size(); ++g) {
    s += std::string(g ? "," : "") + "\n      \"group_" + std::to_string(g) + "\": {\n";
    s += "        \"input_activations\": " +
         (groups_[g].acts ? argsJson(*groups_[g].acts) : std::string("null")) + ",\n";
    s += "        \"targets\": [";
    for (size_t t = 0; t < targets_[g].size(); ++t)
      s += std::string(t ? "," : "") + "\n          " + quoted(targets_[g][t]);
    s += "\n        ],\n        \"weights\": " + argsJson(groups_[g].weights) + "\n      }";
  }
  s += groups_.empty() ? "},\n" : "\n    },\n";
  s += "    \"format\": " + quoted(format) + ",\n    \"ignore\": [";
  for (size_t i = 0; i < ignore_.size(); ++i)
    s += std::string(i ? "," : "") + "\n      " + quoted(ignore_[i]);
  s += ignore_.empty() ? "],\n" : "\n    ],\n";
  s += "    \"kv_cache_scheme\": " + (kvCache_ ? argsJson(*kvCache_) : std::string("null")) +
       ",\n    \"quant_method\": \"compressed-tensors\",\n"
       "    \"quantization_status\": \"compressed\"\n  }\n}\n";
  return s;
}

} // namespace

bool LlmCompressorEmitter::emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
                                DiagnosticEngine &diags) {
  Plan plan(spec, target, diags);
  if (!plan.build() || diags.hasErrors())
    return false;
  bool config = out.indexes && out.indexes->emitKind == "compressed-tensors-config";
  out.buffer() = config ? plan.json() : plan.yaml();
  if (config)
    out.fileName.clear();
  return true;
}

} // namespace qspec::emit
