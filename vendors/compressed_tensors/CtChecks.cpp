// The checks qlint runs on a recipe or a quantization_config (CompressedTensors.h, checkDocument):
//
// 1. The file parses as the document model (else one `parse` issue and nothing more).
// 2. Each target and ignore entry: a `re:` entry qspec cannot read as Python does (pattern-syntax);
//    with an inventory, an entry that matches no module (pattern-no-match, a warning: recipes are
//    shared between models) and a `re:` entry that matches modules only through re.match's prefix
//    match and unescaped dots (pattern-over-match); without one, a `re:` entry whose number is
//    left open ('layers.1.*' also takes layers 10-19; a warning, as no model says it bites).
// 3. The fused-layer rule (rule 4) on every fused layer of the inventory, or without one on the
//    usual shard names (model.layers.0.self_attn.q/k/v_proj, model.layers.0.mlp.gate/up_proj) and
//    on the shards the file names: shards that compressed-tensors quantizes with different schemes,
//    or an ignore that takes some shards and not the others. One issue per entry, counting layers.
// 4. The schemes vLLM does not read (schemeIssues).
#include "vendors/compressed_tensors/CompressedTensors.h"

#include <map>
#include <set>

namespace qspec::vendors::ct {

namespace {

const char *scopeOk(const std::string &strategy) {
  for (const char *s : {"tensor", "channel", "group", "tensor_group", "token"})
    if (strategy == s)
      return s;
  return nullptr;
}

bool activationFormat(const std::string &format) {
  return format == "int-quantized" || format == "float-quantized" || format == "naive-quantized" ||
         format == "nvfp4-pack-quantized";
}

std::string schemeText(const Doc &doc, int g) {
  if (g < 0)
    return "unquantized";
  const ConfigGroup &c = doc.groups[g];
  std::string w =
      c.weights ? c.weights->type + std::to_string(c.weights->numBits) + " " + c.weights->strategy
                : std::string("no weights");
  return "'" + c.name + "' (" + w + ")";
}

// The entry of group `g` that gives it `name` (by name, else by class), or null.
const Entry *entryFor(const ConfigGroup &g, const std::string &name, const std::string &cls) {
  for (int byClass = 0; byClass < 2; ++byClass)
    for (const Entry &e : g.targets) {
      std::unique_ptr<Matcher> m;
      std::string error;
      if (!Matcher::compile(e.text, m, error))
        continue;
      if (byClass ? m->namesClass(cls) : m->matchesName(name))
        return &e;
    }
  return nullptr;
}

struct Layers {
  std::vector<Fused> fused;
  std::set<std::string> seen;
  void add(const std::string &shard) {
    if (std::optional<Fused> f = fusedLayerOf(shard); f && seen.insert(f->name).second)
      fused.push_back(*f);
  }
};

// The fused layers the check looks at (step 3).
Layers fusedLayers(const Doc &doc, const std::vector<ir::Module> *modules) {
  Layers out;
  if (modules) {
    std::set<std::string> names;
    for (const ir::Module &m : *modules)
      if (m.type.empty() || m.type == "Linear")
        names.insert(m.name);
    for (const std::string &n : names)
      if (std::optional<Fused> f = fusedLayerOf(n)) {
        bool all = true;
        for (const std::string &s : f->shards)
          all = all && names.count(s);
        if (all)
          out.add(n);
      }
    return out;
  }
  out.add("model.layers.0.self_attn.q_proj");
  out.add("model.layers.0.mlp.gate_proj");
  for (const ConfigGroup &g : doc.groups)
    for (const Entry &e : g.targets)
      if (e.text.rfind("re:", 0) != 0)
        out.add(e.text);
  for (const Entry &e : doc.ignore)
    if (e.text.rfind("re:", 0) != 0)
      out.add(e.text);
  return out;
}

// Step 3: one issue per offending entry, with the number of fused layers it splits.
void fusedIssues(const Doc &doc, const Rules &rules, const std::vector<ir::Module> *modules,
                 std::vector<Issue> &out) {
  std::map<std::pair<uint32_t, uint32_t>, std::pair<size_t, size_t>> byPlace; // -> issue, layers
  auto add = [&](Loc at, std::string message) {
    auto [it, fresh] = byPlace.try_emplace({at.line, at.column}, out.size(), 0);
    if (fresh)
      out.push_back({Check::FusedSplit, true, at, std::move(message)});
    ++it->second.second;
  };
  for (const Fused &f : fusedLayers(doc, modules).fused) {
    const Entry *taken = nullptr;
    const std::string *kept = nullptr, *ignoredShard = nullptr;
    for (const std::string &s : f.shards) {
      if (const Entry *e = rules.ignoredBy(s))
        taken = e, ignoredShard = &s;
      else if (!kept)
        kept = &s;
    }
    if (taken && kept) {
      add(taken->at, "ignore entry '" + taken->text + "' takes '" + *ignoredShard + "' but not '" +
                         *kept + "' of the fused layer '" + f.name +
                         "'; vLLM refuses a fused layer ignored in part");
      continue;
    }
    if (taken)
      continue;
    int first = rules.libraryGroup(f.shards[0], "Linear");
    for (size_t i = 1; i < f.shards.size(); ++i) {
      int g = rules.libraryGroup(f.shards[i], "Linear");
      bool same = (g < 0 && first < 0) ||
                  (g >= 0 && first >= 0 && doc.groups[g].key() == doc.groups[first].key());
      if (same)
        continue;
      const Entry *e = g >= 0 ? entryFor(doc.groups[g], f.shards[i], "Linear") : nullptr;
      Loc at = e ? e->at : g >= 0 ? doc.groups[g].at : Loc{};
      add(at, "vLLM fuses '" + f.name + "' into one layer, but its shards resolve to different " +
                  "schemes: '" + f.shards[0] + "' is " + schemeText(doc, first) + ", '" +
                  f.shards[i] + "' is " + schemeText(doc, g) + "; vLLM loads all shards with one");
      break;
    }
  }
  for (const auto &[place, issue] : byPlace)
    if (modules && issue.second > 1)
      out[issue.first].message += " (" + std::to_string(issue.second) + " fused layers)";
}

// Step 2 for one entry; false when it does not compile.
bool entryIssues(const Entry &e, const std::string &where, const std::vector<ir::Module> *modules,
                 bool untyped, std::vector<Issue> &out) {
  if (!modules) {
    PatternVerdict v = judgePattern(e.text, {});
    if (v.kind == PatternVerdict::Syntax) {
      out.push_back({Check::PatternSyntax, true, e.at,
                     "pattern '" + e.text + "' is not a regular expression qspec reads as " +
                         "Python does: " + v.error});
      return false;
    }
    if (std::string n = numberPrefixDigits(e.text); !n.empty())
      out.push_back({Check::PatternOverMatch, false, e.at,
                     "pattern '" + e.text + "' leaves the number '" + n + "' open: re.match " +
                         "matches a prefix and reads an unescaped '.' as any character, so it " +
                         "also matches '" + n + "0' to '" + n + "9' and longer numbers; follow " +
                         "the number with '\\.' or end the pattern with '$'"});
    return true;
  }
  PatternVerdict v = judgePattern(e.text, *modules);
  switch (v.kind) {
  case PatternVerdict::Syntax:
    out.push_back({Check::PatternSyntax, true, e.at,
                   "pattern '" + e.text + "' is not a regular expression qspec reads as Python " +
                       "does: " + v.error});
    return false;
  case PatternVerdict::NoMatch: {
    // A plain entry may be a class name, which an inventory without types cannot confirm.
    bool maybeClass = e.text.rfind("re:", 0) != 0 && e.text.find('.') == std::string::npos;
    if (!(maybeClass && untyped))
      out.push_back({Check::PatternNoMatch, false, e.at,
                     where + " '" + e.text + "' matches no module of the inventory"});
    break;
  }
  case PatternVerdict::OverMatch:
    out.push_back({Check::PatternOverMatch, true, e.at,
                   "pattern '" + e.text + "' also matches '" + v.firstExtra + "' (" +
                       std::to_string(v.extra) + " module(s) that it would not match with its " +
                       "dots literal and matched in full): re.match reads an unescaped '.' as " +
                       "any character and matches a prefix; write '" + v.fix + "'"});
    break;
  case PatternVerdict::Ok:
    break;
  }
  return true;
}

} // namespace

const char *checkName(Check c) {
  static const char *const names[] = {
#define CT_CHECK(ENUM, ID) ID,
#include "vendors/compressed_tensors/CtChecks.def"
#undef CT_CHECK
  };
  return names[static_cast<unsigned>(c)];
}

std::vector<Issue> schemeIssues(const Doc &doc) {
  std::vector<Issue> out;
  for (const ConfigGroup &g : doc.groups) {
    for (const std::optional<Args> *a : {&g.weights, &g.acts}) {
      if (!*a)
        continue;
      const char *role = a == &g.weights ? "weights" : "input_activations";
      bool known = ((*a)->type == "int" && ((*a)->numBits == 4 || (*a)->numBits == 8)) ||
                   ((*a)->type == "float" && (*a)->numBits == 8);
      if (!known || !scopeOk((*a)->strategy))
        out.push_back({Check::UnsupportedScheme, true, (*a)->at,
                       "config group '" + g.name + "' has " + role +
                           " in a scheme qspec does not read (" + (*a)->key() +
                           "): int4, int8 or fp8 with strategy tensor, channel, group or token"});
      else if ((*a)->strategy == "group" && !(*a)->groupSize)
        out.push_back({Check::UnsupportedScheme, true, (*a)->at,
                       "config group '" + g.name + "' has strategy group but no group_size"});
    }
    if (!doc.recipe && activationFormat(doc.format) && !g.acts && g.weights &&
        g.weights->type == "int")
      out.push_back({Check::UnsupportedScheme, true, g.at,
                     "format '" + doc.format + "' needs input_activations in config group '" +
                         g.name + "', whose weights are integers"});
  }
  return out;
}

std::vector<Issue> checkDocument(std::string_view text, const std::vector<ir::Module> *modules) {
  std::vector<Issue> out;
  Doc doc;
  std::string error;
  Loc at;
  if (!parseDoc(text, doc, error, at)) {
    out.push_back({Check::Parse, true, at, error});
    return out;
  }
  bool untyped = false;
  if (modules)
    for (const ir::Module &m : *modules)
      untyped = untyped || m.type.empty();
  bool compiles = true;
  for (const ConfigGroup &g : doc.groups)
    for (const Entry &e : g.targets)
      compiles = entryIssues(e, "target of config group '" + g.name + "'", modules, untyped, out) &&
                 compiles;
  for (const Entry &e : doc.ignore)
    compiles = entryIssues(e, "ignore entry", modules, untyped, out) && compiles;
  Rules rules;
  if (compiles && rules.build(doc, error, at))
    fusedIssues(doc, rules, modules, out);
  for (Issue &i : schemeIssues(doc))
    out.push_back(std::move(i));
  return out;
}

} // namespace qspec::vendors::ct
