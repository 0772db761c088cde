// The semantic difference of two compiled specs; see Compare.h.
//
//  1. Modules are matched by name (position first: two sides on one inventory have the same
//     order). For each matched module the nine resolved settings (tier, and dtype, scope,
//     symmetric, method of weight and activation) are compared by value; a setting whose value
//     is the same but whose deciding rule moved is no change. A module float on either side is
//     compared by its tier alone (a float module's recipe reaches no backend).
//  2. A changed module's key is its changed fields with both values and both deciding rules (the
//     rule's kind and its range's address in the Spec, one address per rule); modules with one
//     key form one group.
//  3. Each group, and each tier of the modules found on one side only, is named by the patterns
//     msmodelslim::SelectionCompressor makes for it: exactly its modules, none other, on that
//     inventory.
//  4. Targets are matched by kind; the emitted bytes and file names are compared.
#include "driver/diff/Compare.h"

#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "ir/Select.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace qspec::driver::diff {
namespace {

constexpr int kFields = 9;
const char *const kFieldNames[kFields] = {
    "tier",      "weight.dtype", "weight.scope",  "weight.symmetric", "weight.method",
    "act.dtype", "act.scope",    "act.symmetric", "act.method"};

struct Value {
  std::string_view text;
  const ir::Decision *from = nullptr;            // the spec's rule
  const vendors::ModuleReading *entry = nullptr; // else the vendor file's entry
};

void roleValues(const ir::ResolvedRecipe &r, Value *out) {
  auto word = [](const ir::Decided<ir::Word> &w) {
    return Value{w.value.empty() ? std::string_view("unset") : std::string_view(w.value.str()),
                 &w.from};
  };
  out[0] = word(r.dtype);
  out[1] = word(r.scope);
  out[2] = {r.symmetric.from.source == ir::Decision::BuiltIn ? "unset"
            : r.symmetric.value                              ? "true"
                                                             : "false",
            &r.symmetric.from};
  out[3] = word(r.method);
}

void moduleValues(const ir::ResolvedModule &m, Value *out) {
  out[0] = {ir::tierName(m.tier.value), &m.tier.from};
  roleValues(m.weight, out + 1);
  roleValues(m.act, out + 5);
}

// The values of module `i` as `side` gives them: its resolution, or its reading for the fields the
// reading carries ("-" for the others, on both sides alike).
void sideValues(const Side &side, uint32_t i, Value *out) {
  const ir::ResolvedModule &m = side.spec->resolution.modules[i];
  moduleValues(m, out);
  if (!side.reading)
    return;
  const vendors::ModuleReading &r = side.reading->modules[i];
  const vendors::ModuleReading *entry = side.readingFile.empty() ? nullptr : &r;
  auto word = [](const vendors::ReadingWord &w) {
    return w ? std::string_view(*w) : std::string_view("unset");
  };
  auto sym = [](const std::optional<bool> &b) {
    return !b ? std::string_view("unset") : *b ? std::string_view("true") : "false";
  };
  const std::string_view texts[kFields] = {r.known ? std::string_view(ir::tierName(r.tier))
                                                   : "not decided",
                                           word(r.weight.dtype),
                                           word(r.weight.scope),
                                           sym(r.weight.symmetric),
                                           word(r.weight.method),
                                           word(r.act.dtype),
                                           word(r.act.scope),
                                           sym(r.act.symmetric),
                                           word(r.act.method)};
  for (int f = 0; f < kFields; ++f) {
    bool carried = (side.reading->fields & (1u << f)) != 0;
    out[f].text = carried ? texts[f] : "-";
    if (entry)
      out[f].entry = entry;
  }
}

// Appends the bytes of a value to a group key.
template <typename T> void appendRaw(std::string &key, const T &v) {
  key.append(reinterpret_cast<const char *>(&v), sizeof v);
}

void appendRule(std::string &key, const Value &v) {
  if (v.entry) {
    appendRaw(key, v.entry->line);
    appendRaw(key, v.entry->column);
    return;
  }
  appendRaw(key, v.from->source);
  appendRaw(key, v.from->at);
}

RuleRef ruleRef(const Value &v, const Side &side) {
  RuleRef r;
  if (v.entry) {
    r.kind = v.entry->line ? "entry" : "vendor default";
    if (v.entry->line) {
      r.file = side.readingFile;
      r.line = v.entry->line;
      r.col = v.entry->column;
    }
    return r;
  }
  const ir::Decision &d = *v.from;
  r.kind = ir::decisionSourceName(d.source);
  const SourceRange &at = d.range();
  if (!at.valid())
    return r;
  r.file = side.sm->path(at.file);
  if (std::find(side.revisionFiles.begin(), side.revisionFiles.end(), r.file) !=
      side.revisionFiles.end())
    r.file = side.revision + ":" + r.file;
  r.line = at.begin.line;
  r.col = at.begin.col;
  return r;
}

// Names `members` (ascending module indices of `spec`'s inventory) by patterns selecting exactly
// them there.
class Namer {
public:
  explicit Namer(const ir::Spec &spec)
      : compressor_(spec.inventory, ir::sharedSelector(spec)),
        want_(spec.inventory.modules.size(), msmodelslim::Want::Forbid) {}
  std::vector<std::string> name(const std::vector<uint32_t> &members) {
    for (uint32_t i : members)
      want_[i] = msmodelslim::Want::Must;
    bool verified = false;
    std::vector<std::string> out = compressor_.compress(want_, verified);
    for (uint32_t i : members)
      want_[i] = msmodelslim::Want::Forbid;
    return out;
  }

private:
  msmodelslim::SelectionCompressor compressor_;
  std::vector<msmodelslim::Want> want_;
};

struct Pending {
  std::vector<FieldChange> fields;
  std::vector<uint32_t> members; // after side's module indices
};

// Steps 1-3 for the modules both sides have; marks in `seenBefore` the before side's modules
// that were matched.
void compareModules(const Side &a, const Side &b, DiffResult &out, std::vector<bool> &seenBefore) {
  const ir::Inventory &invA = a.spec->inventory, &invB = b.spec->inventory;
  std::unordered_map<std::string, size_t> byKey;
  std::vector<Pending> groups;
  std::vector<size_t> fieldModules(kFields, 0);
  std::string key;
  for (uint32_t i = 0; i < invB.modules.size(); ++i) {
    const std::string &name = invB.modules[i].name;
    uint32_t j = i;
    if (j >= invA.modules.size() || invA.modules[j].name != name) {
      auto hit = invA.index.find(name);
      if (!hit.found)
        continue;
      j = hit.second;
    }
    seenBefore[j] = true;
    ++out.compared;
    Value va[kFields], vb[kFields];
    sideValues(a, j, va);
    sideValues(b, i, vb);
    // A float module is not quantized: its recipe means nothing to a backend, so with float on
    // either side only the tier is compared.
    const int fields = va[0].text == "float" || vb[0].text == "float" ? 1 : kFields;
    key.clear();
    for (int f = 0; f < fields; ++f) {
      if (va[f].text == vb[f].text)
        continue;
      key += static_cast<char>(f);
      key.append(va[f].text).append(1, '\0').append(vb[f].text).append(1, '\0');
      appendRule(key, va[f]);
      appendRule(key, vb[f]);
    }
    if (key.empty())
      continue;
    ++out.changedModules;
    auto [it, inserted] = byKey.emplace(key, groups.size());
    if (inserted) {
      Pending p;
      for (int f = 0; f < fields; ++f)
        if (va[f].text != vb[f].text)
          p.fields.push_back({kFieldNames[f], std::string(va[f].text), std::string(vb[f].text),
                              ruleRef(va[f], a), ruleRef(vb[f], b)});
      groups.push_back(std::move(p));
    }
    Pending &g = groups[it->second];
    g.members.push_back(i);
    for (int f = 0; f < fields; ++f)
      fieldModules[static_cast<size_t>(f)] += va[f].text != vb[f].text;
  }
  for (int f = 0; f < kFields; ++f)
    if (fieldModules[static_cast<size_t>(f)])
      out.fieldCounts.emplace_back(kFieldNames[f], fieldModules[static_cast<size_t>(f)]);
  if (groups.empty())
    return;
  Namer namer(*b.spec);
  for (Pending &p : groups) {
    ChangeGroup g;
    g.fields = std::move(p.fields);
    g.count = p.members.size();
    g.patterns = namer.name(p.members);
    out.changed.push_back(std::move(g));
  }
}

// The modules of `side` not marked in `seen`, by tier, each tier named by patterns.
std::vector<PresenceGroup> unmatched(const Side &side, const std::vector<bool> &seen,
                                     size_t &count) {
  std::vector<std::vector<uint32_t>> byTier(ir::kNumTiers);
  const auto &modules = side.spec->resolution.modules;
  for (uint32_t i = 0; i < seen.size(); ++i)
    if (!seen[i]) {
      byTier[static_cast<size_t>(modules[i].tier.value)].push_back(i);
      ++count;
    }
  std::vector<PresenceGroup> out;
  if (!count)
    return out;
  Namer namer(*side.spec);
  for (int t = 0; t < ir::kNumTiers; ++t) {
    const std::vector<uint32_t> &members = byTier[static_cast<size_t>(t)];
    if (members.empty())
      continue;
    out.push_back({ir::tierName(static_cast<ir::Tier>(t)), members.size(), namer.name(members)});
  }
  return out;
}

std::string targetLabel(const ir::Target &t) {
  return t.variant.empty() ? t.kind : t.kind + " " + t.variant;
}

// Lines of `x` that `y` lacks, counted with their repeats.
size_t linesMissing(std::string_view x, std::string_view y) {
  std::unordered_map<std::string_view, long> count;
  auto each = [](std::string_view s, auto fn) {
    size_t start = 0;
    while (start < s.size()) {
      size_t end = s.find('\n', start);
      if (end == std::string_view::npos)
        end = s.size();
      fn(s.substr(start, end - start));
      start = end + 1;
    }
  };
  each(y, [&](std::string_view l) { ++count[l]; });
  size_t missing = 0;
  each(x, [&](std::string_view l) {
    if (--count[l] < 0)
      ++missing;
  });
  return missing;
}

// Step 4.
void compareTargets(const Side &a, const Side &b, DiffResult &out) {
  auto find = [](const Side &s, const std::string &kind) -> const emit::TargetFile * {
    for (const emit::TargetFile &f : s.files)
      if (f.target->kind == kind)
        return &f;
    return nullptr;
  };
  std::vector<std::string> kinds;
  for (const Side *s : {&b, &a})
    for (const emit::TargetFile &f : s->files)
      if (std::find(kinds.begin(), kinds.end(), f.target->kind) == kinds.end())
        kinds.push_back(f.target->kind);
  for (const std::string &kind : kinds) {
    const emit::TargetFile *fa = find(a, kind), *fb = find(b, kind);
    TargetChange c;
    c.target = targetLabel(*(fb ? fb : fa)->target);
    c.fileBefore = fa ? fa->name : "";
    c.fileAfter = fb ? fb->name : "";
    if (fa && fb && fa->target->variant != fb->target->variant)
      c.target = targetLabel(*fa->target) + " -> " + targetLabel(*fb->target);
    std::string_view before = fa ? std::string_view(fa->bytes) : std::string_view();
    std::string_view after = fb ? std::string_view(fb->bytes) : std::string_view();
    c.changed = !fa || !fb || before != after || c.fileBefore != c.fileAfter;
    if (before != after) {
      c.linesAdded = linesMissing(after, before);
      c.linesRemoved = linesMissing(before, after);
    }
    out.targets.push_back(std::move(c));
  }
}

} // namespace

bool DiffResult::same() const {
  if (changedModules || appearedModules || disappearedModules)
    return false;
  for (const TargetChange &t : targets)
    if (t.changed)
      return false;
  return true;
}

DiffResult compareSides(const Side &before, const Side &after) {
  DiffResult out;
  out.before = before.label;
  out.after = after.label;
  out.modulesBefore = before.spec->inventory.modules.size();
  out.modulesAfter = after.spec->inventory.modules.size();
  std::vector<bool> seenBefore(out.modulesBefore, false);
  compareModules(before, after, out, seenBefore);
  std::vector<bool> seenAfter(out.modulesAfter, true);
  if (out.compared != out.modulesAfter) {
    // The after side's modules without a namesake before.
    const ir::Inventory &invA = before.spec->inventory;
    for (uint32_t i = 0; i < out.modulesAfter; ++i)
      seenAfter[i] = invA.index.find(after.spec->inventory.modules[i].name).found;
  }
  out.appeared = unmatched(after, seenAfter, out.appearedModules);
  out.disappeared = unmatched(before, seenBefore, out.disappearedModules);
  compareTargets(before, after, out);
  return out;
}

} // namespace qspec::driver::diff
