// The compressed-tensors document model: a recipe's QuantizationModifier or a checkpoint's
// quantization_config, parsed with yaml-cpp (a config.json is JSON, which YAML reads) so every
// entry keeps its line and column. Keys left out take QuantizationArgs' defaults: 8 bits, int,
// symmetric, strategy "group" when a group_size is given else "tensor", static, observer minmax
// (none when dynamic).
#include "vendors/compressed_tensors/CompressedTensors.h"

#include "ir/BoundedInput.h"

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace qspec::vendors::ct {

namespace {

Loc locOf(const YAML::Node &n) {
  YAML::Mark m = n.Mark();
  if (m.line < 0)
    return {};
  return {static_cast<uint32_t>(m.line + 1), static_cast<uint32_t>(m.column + 1)};
}

struct Fail {
  std::string what;
  Loc at;
};

bool scalarBool(const YAML::Node &n, const char *key, bool &out, Fail &fail) {
  std::string s = n.Scalar();
  if (s == "true" || s == "True" || s == "TRUE") {
    out = true;
    return true;
  }
  if (s == "false" || s == "False" || s == "FALSE") {
    out = false;
    return true;
  }
  fail = {std::string("'") + key + "' must be true or false, not '" + s + "'", locOf(n)};
  return false;
}

bool scalarInt(const YAML::Node &n, const char *key, int64_t &out, Fail &fail) {
  std::string s = n.Scalar();
  char *end = nullptr;
  long long v = s.empty() ? 0 : std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || v <= 0 || v > (1 << 20)) {
    fail = {std::string("'") + key + "' must be a positive integer, not '" + s + "'", locOf(n)};
    return false;
  }
  out = v;
  return true;
}

bool parseArgs(const YAML::Node &n, Args &a, Fail &fail) {
  a.at = locOf(n);
  if (!n.IsMap()) {
    fail = {"quantization arguments must be a mapping", a.at};
    return false;
  }
  bool strategySet = false, observerSet = false;
  for (const auto &kv : n) {
    std::string key = kv.first.Scalar();
    const YAML::Node &v = kv.second;
    if (v.IsNull() || (v.IsScalar() && (v.Scalar() == "null" || v.Scalar() == "~"))) {
      if (key == "observer")
        observerSet = true, a.observer.clear();
      continue;
    }
    int64_t i = 0;
    if (key == "num_bits") {
      if (!scalarInt(v, "num_bits", i, fail))
        return false;
      a.numBits = static_cast<int>(i);
    } else if (key == "type") {
      a.type = v.Scalar();
      if (a.type != "int" && a.type != "float") {
        fail = {"'type' must be int or float, not '" + a.type + "'", locOf(v)};
        return false;
      }
    } else if (key == "symmetric") {
      if (!scalarBool(v, "symmetric", a.symmetric, fail))
        return false;
    } else if (key == "strategy") {
      a.strategy = v.Scalar();
      strategySet = true;
    } else if (key == "group_size") {
      if (!scalarInt(v, "group_size", i, fail))
        return false;
      a.groupSize = i;
    } else if (key == "dynamic") {
      if (v.Scalar() == "local")
        a.dynamic = true;
      else if (!scalarBool(v, "dynamic", a.dynamic, fail))
        return false;
    } else if (key == "observer") {
      a.observer = v.Scalar();
      observerSet = true;
    }
    // Other keys (actorder, block_structure, observer_kwargs, ...) do not change the reading.
  }
  if (!strategySet)
    a.strategy = a.groupSize ? "group" : "tensor";
  if (a.dynamic && !observerSet)
    a.observer.clear();
  return true;
}

bool parseEntries(const YAML::Node &n, std::vector<Entry> &out, const char *what, Fail &fail) {
  if (n.IsScalar()) {
    out.push_back({n.Scalar(), locOf(n)});
    return true;
  }
  if (!n.IsSequence()) {
    fail = {std::string("'") + what + "' must be a list of names", locOf(n)};
    return false;
  }
  for (const auto &e : n) {
    if (!e.IsScalar()) {
      fail = {std::string("an entry of '") + what + "' must be a string", locOf(e)};
      return false;
    }
    out.push_back({e.Scalar(), locOf(e)});
  }
  return true;
}

bool parseGroups(const YAML::Node &n, Doc &doc, Fail &fail) {
  if (!n.IsMap()) {
    fail = {"'config_groups' must be a mapping of group names", locOf(n)};
    return false;
  }
  for (const auto &kv : n) {
    ConfigGroup g;
    g.name = kv.first.Scalar();
    g.at = locOf(kv.first);
    const YAML::Node &body = kv.second;
    if (!body.IsMap()) {
      fail = {"config group '" + g.name + "' must be a mapping", g.at};
      return false;
    }
    if (!body["targets"]) {
      fail = {"config group '" + g.name + "' has no 'targets'", g.at};
      return false;
    }
    if (!parseEntries(body["targets"], g.targets, "targets", fail))
      return false;
    for (const char *role : {"weights", "input_activations"}) {
      const YAML::Node r = body[role];
      if (!r || r.IsNull())
        continue;
      Args a;
      if (!parseArgs(r, a, fail))
        return false;
      (role[0] == 'w' ? g.weights : g.acts) = a;
    }
    doc.groups.push_back(std::move(g));
  }
  return true;
}

// The modifier of a recipe that carries a quantization scheme, searched depth first.
bool findModifier(const YAML::Node &n, int depth, YAML::Node &out) {
  if (!n.IsMap() || depth > 8)
    return false;
  for (const char *key : {"QuantizationModifier", "GPTQModifier"})
    if (const YAML::Node m = n[key]; m && m.IsMap()) {
      out = m;
      return true;
    }
  for (const auto &kv : n)
    if (findModifier(kv.second, depth + 1, out))
      return true;
  return false;
}

bool parseBlock(const YAML::Node &block, Doc &doc, Fail &fail) {
  if (block["format"] && block["format"].IsScalar())
    doc.format = block["format"].Scalar();
  if (const YAML::Node g = block["config_groups"]; g && !g.IsNull()) {
    if (!parseGroups(g, doc, fail))
      return false;
  } else if (doc.recipe && block["targets"] && block["scheme"]) {
    fail = {"preset schemes ('scheme') are not read; write the scheme as 'config_groups'",
            locOf(block["scheme"])};
    return false;
  }
  if (const YAML::Node i = block["ignore"]; i && !i.IsNull())
    if (!parseEntries(i, doc.ignore, "ignore", fail))
      return false;
  if (const YAML::Node kv = block["kv_cache_scheme"]; kv && !kv.IsNull()) {
    Args a;
    if (!parseArgs(kv, a, fail))
      return false;
    doc.kvCache = a;
  }
  return true;
}

} // namespace

std::string Args::key() const {
  return type + std::to_string(numBits) + (symmetric ? "/sym/" : "/asym/") + strategy + "/" +
         (groupSize ? std::to_string(*groupSize) : "-") + (dynamic ? "/dyn/" : "/static/") +
         observer;
}

std::string ConfigGroup::key() const {
  return "w:" + (weights ? weights->key() : "none") + " a:" + (acts ? acts->key() : "none");
}

std::string quoted(std::string_view text) {
  return nlohmann::json(std::string(text))
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool parseDoc(std::string_view text, Doc &doc, std::string &error, Loc &at) {
  // A user's recipe or config.json: UTF-8 and bounded nesting before yaml-cpp, whose parser
  // recurses once per level (ir/BoundedInput.h).
  if (bounded::Problem p = bounded::checkText(text, bounded::Syntax::Yaml)) {
    error = p.message;
    bounded::lineColumn(text, p.offset, at.line, at.column);
    return false;
  }
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::ParserException &e) {
    error = e.msg;
    at = {static_cast<uint32_t>(e.mark.line + 1), static_cast<uint32_t>(e.mark.column + 1)};
    return false;
  } catch (const YAML::Exception &e) {
    error = e.msg;
    return false;
  }
  Fail fail;
  try {
    if (!root.IsMap()) {
      error = "the file is not a mapping";
      return false;
    }
    const YAML::Node &top = root;
    YAML::Node block;
    if (top["quantization_config"] && top["quantization_config"].IsMap())
      block = top["quantization_config"];
    else if (top["config_groups"] || top["quant_method"])
      block = root;
    else {
      doc.recipe = true;
      if (!findModifier(top, 0, block)) {
        error = "no QuantizationModifier and no quantization_config";
        return false;
      }
    }
    if (parseBlock(block, doc, fail))
      return true;
  } catch (const YAML::Exception &e) {
    fail = {e.msg,
            {static_cast<uint32_t>(e.mark.line + 1), static_cast<uint32_t>(e.mark.column + 1)}};
  }
  error = fail.what;
  at = fail.at;
  return false;
}

} // namespace qspec::vendors::ct
