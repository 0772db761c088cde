// msmodelslim-duplicate-key: a mapping repeats a key. msModelSlim's loader refuses the file with
// `Duplicate key 'K' found in YAML at line N.` (N: line of the mapping's first key); older
// releases silently kept the last value. A key that overrides one merged in with `<<: *anchor`
// counts too (msModelSlim flattens merges first).
//
// Safe fix: when the repeat has exactly the same value as the first occurrence, delete the
// repeated entry's lines (block style only). Differing values need a decision: no fix.
#include "lint/Context.h"

#include <functional>
#include <map>
#include <set>

namespace qspec::lint {

namespace {

bool sameValue(const LNode &a, const LNode &b) {
  if (a.kind != b.kind || a.value != b.value || a.map.size() != b.map.size() ||
      a.seq.size() != b.seq.size())
    return false;
  for (size_t i = 0; i < a.map.size(); ++i)
    if (!sameValue(a.map[i].first, b.map[i].first) || !sameValue(a.map[i].second, b.map[i].second))
      return false;
  for (size_t i = 0; i < a.seq.size(); ++i)
    if (!sameValue(a.seq[i], b.seq[i]))
      return false;
  return true;
}

// Lines [key line, next line with indentation <= the key's) of a block-style entry.
bool entryLines(const LintContext &ctx, const LNode &key, SourceRange &out) {
  uint32_t line = key.range.begin.line;
  std::string_view text = ctx.sm.line(ctx.file, line);
  size_t indent = text.find_first_not_of(' ');
  if (indent == std::string_view::npos || indent + 1 != key.range.begin.col)
    return false; // flow style or `- key:`: leave it alone
  uint32_t last = line;
  // lineRange is valid for any line number: stop at the file's last line.
  uint32_t lastLine =
      ctx.sm.locate(ctx.file, static_cast<uint32_t>(ctx.sm.text(ctx.file).size())).line;
  for (uint32_t l = line + 1; l <= lastLine; ++l) {
    std::string_view t = ctx.sm.line(ctx.file, l);
    size_t ind = t.find_first_not_of(' ');
    if (ind == std::string_view::npos || t[ind] == '#') {
      continue;
    }
    if (ind <= indent)
      break;
    last = l;
  }
  SourceRange a = ctx.wholeLine(line), b = ctx.wholeLine(last);
  out = ctx.sm.range(ctx.file, a.begin.offset, b.end.offset);
  return true;
}

} // namespace

void checkMsmodelslimDuplicateKey(PracticeInput &ctx) {
  if (!ctx.tree)
    return;
  std::function<void(const LNode &)> walk = [&](const LNode &n) {
    if (n.alias)
      return; // reported where the anchor is defined
    if (n.isMap() && !n.map.empty()) {
      uint32_t firstLine = n.map.front().first.range.begin.line;
      std::map<std::string, size_t> seen;
      std::set<std::string> merged;
      for (const auto &kv : n.map)
        if (kv.first.value == "<<" && !kv.first.quoted) {
          auto add = [&](const LNode &m) {
            for (const auto &mk : m.map)
              merged.insert(mk.first.value);
          };
          if (kv.second.isMap())
            add(kv.second);
          for (const LNode &s : kv.second.seq)
            add(s);
        }
      for (size_t i = 0; i < n.map.size(); ++i) {
        const auto &[key, value] = n.map[i];
        if (!key.isScalar() || (key.value == "<<" && !key.quoted))
          continue;
        auto [it, fresh] = seen.emplace(key.value, i);
        bool fromMerge = fresh && merged.count(key.value);
        if (fresh && !fromMerge)
          continue;
        Diagnostic &d = ctx.report(
            RuleID::MsmodelslimDuplicateKey, key.range,
            "Duplicate key '" + key.value + "' found in YAML at line " + std::to_string(firstLine) +
                "." + (fromMerge ? " (it overrides a key merged in with '<<')" : ""));
        if (fromMerge)
          continue;
        const LNode &firstKey = n.map[it->second].first;
        ctx.note(d, firstKey.range, "first given here");
        SourceRange del;
        if (sameValue(n.map[it->second].second, value) && entryLines(ctx, key, del)) {
          FixIt f;
          f.range = del;
          d.fixits.push_back(std::move(f));
        }
      }
    }
    for (const auto &kv : n.map)
      walk(kv.second);
    for (const LNode &s : n.seq)
      walk(s);
  };
  walk(*ctx.tree);
}

} // namespace qspec::lint
