// Safe fixes: byte-range replacements applied together per finding, never overlapping; and a
// unified diff to preview them (--diff).
#include "lint/Lint.h"

#include <algorithm>
#include <sstream>
#include <unordered_map>

namespace qspec::lint {

std::string applyFixes(const std::string &text, const std::vector<Diagnostic> &findings,
                       unsigned &applied, std::vector<std::string> *fixedRules) {
  struct Edit {
    uint32_t begin, end;
    std::string text;
  };
  std::vector<Edit> accepted;
  applied = 0;
  auto overlaps = [&](uint32_t b, uint32_t e) {
    for (const Edit &x : accepted)
      if (b < x.end && x.begin < e)
        return true;
      else if (b == e && b == x.begin && x.begin == x.end)
        return true; // two insertions at one point: order would be ambiguous
    return false;
  };
  for (const Diagnostic &d : findings) {
    if (d.fixits.empty())
      continue;
    bool ok = true;
    std::vector<Edit> mine;
    for (const FixIt &f : d.fixits) {
      uint32_t b = f.range.begin.offset, e = f.range.end.offset;
      if (e < b || e > text.size() || overlaps(b, e)) {
        ok = false;
        break;
      }
      for (const Edit &x : mine)
        if (b < x.end && x.begin < e)
          ok = false;
      mine.push_back({b, e, f.text});
    }
    if (!ok)
      continue;
    accepted.insert(accepted.end(), mine.begin(), mine.end());
    ++applied;
    if (fixedRules)
      fixedRules->push_back(d.code);
  }
  std::sort(accepted.begin(), accepted.end(),
            [](const Edit &a, const Edit &b) { return a.begin > b.begin; });
  std::string out = text;
  for (const Edit &e : accepted)
    out.replace(e.begin, e.end - e.begin, e.text);
  return out;
}

// The findings of `r` whose rule is fixable and that carry fixes.
static std::vector<Diagnostic> fixableFindings(const FileResult &r) {
  std::vector<Diagnostic> out;
  for (const Diagnostic &d : r.findings) {
    const RuleInfo *info = findRule(d.code);
    if (info && info->fixable && !d.fixits.empty())
      out.push_back(d);
  }
  return out;
}

FixOutcome fixUntilStable(const FileResult &r, const Options &opts) {
  FixOutcome out;
  if (!r.file)
    return out;
  out.before = out.after = r.sm->text(r.file);
  FileResult cur = r;
  for (unsigned round = 0; round < kMaxFixRounds; ++round) {
    std::vector<Diagnostic> fixable = fixableFindings(cur);
    unsigned applied = 0;
    std::string next =
        fixable.empty() ? out.after : applyFixes(out.after, fixable, applied, &out.rules);
    if (next == out.after) {
      out.stable = true;
      break;
    }
    out.after = std::move(next);
    out.applied += applied;
    // Re-lint the fixed text (not yet written) as the same file: a fix may reveal another.
    auto texts = opts.overlay
                     ? std::make_shared<std::unordered_map<std::string, std::string>>(*opts.overlay)
                     : std::make_shared<std::unordered_map<std::string, std::string>>();
    (*texts)[r.path] = out.after;
    Options again = opts;
    again.overlay = texts;
    cur = lintFile(r.path, again);
    if (!cur.internalError.empty() || !cur.file)
      break;
  }
  std::sort(out.rules.begin(), out.rules.end());
  out.rules.erase(std::unique(out.rules.begin(), out.rules.end()), out.rules.end());
  return out;
}

static std::vector<std::string> splitLines(const std::string &s) {
  std::vector<std::string> lines;
  size_t i = 0;
  while (i < s.size()) {
    size_t e = s.find('\n', i);
    if (e == std::string::npos) {
      lines.push_back(s.substr(i));
      break;
    }
    lines.push_back(s.substr(i, e - i + 1));
    i = e + 1;
  }
  return lines;
}

std::string unifiedDiff(const std::string &path, const std::string &before,
                        const std::string &after) {
  if (before == after)
    return "";
  std::vector<std::string> a = splitLines(before), b = splitLines(after);
  // Longest common subsequence on lines (files are small; cap the table for safety).
  size_t n = a.size(), m = b.size();
  std::vector<std::pair<char, std::string>> ops; // ' ', '-', '+'
  if (n * m <= 4'000'000) {
    std::vector<std::vector<uint32_t>> L(n + 1, std::vector<uint32_t>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
      for (size_t j = m; j-- > 0;)
        L[i][j] = a[i] == b[j] ? L[i + 1][j + 1] + 1 : std::max(L[i + 1][j], L[i][j + 1]);
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[i] == b[j]) {
        ops.push_back({' ', a[i]});
        ++i, ++j;
      } else if (i < n && (j == m || L[i + 1][j] >= L[i][j + 1])) {
        ops.push_back({'-', a[i++]}); // deletions before insertions, as diff(1) prints them
      } else {
        ops.push_back({'+', b[j++]});
      }
    }
  } else {
    for (const auto &l : a)
      ops.push_back({'-', l});
    for (const auto &l : b)
      ops.push_back({'+', l});
  }
  std::ostringstream os;
  os << "--- " << path << "\n+++ " << path << "\n";
  const size_t ctx = 3;
  size_t k = 0;
  while (k < ops.size()) {
    if (ops[k].first == ' ') {
      ++k;
      continue;
    }
    // A hunk: back up `ctx` lines, extend while changes are within 2*ctx of each other.
    size_t start = k >= ctx ? k - ctx : 0;
    size_t end = k;
    size_t lastChange = k;
    while (end < ops.size()) {
      if (ops[end].first != ' ')
        lastChange = end;
      else if (end - lastChange > 2 * ctx)
        break;
      ++end;
    }
    end = std::min(ops.size(), lastChange + ctx + 1);
    size_t aLine = 1, bLine = 1;
    for (size_t x = 0; x < start; ++x) {
      if (ops[x].first != '+')
        ++aLine;
      if (ops[x].first != '-')
        ++bLine;
    }
    size_t aCount = 0, bCount = 0;
    for (size_t x = start; x < end; ++x) {
      if (ops[x].first != '+')
        ++aCount;
      if (ops[x].first != '-')
        ++bCount;
    }
    os << "@@ -" << (aCount ? aLine : aLine - 1) << "," << aCount << " +"
       << (bCount ? bLine : bLine - 1) << "," << bCount << " @@\n";
    for (size_t x = start; x < end; ++x) {
      os << ops[x].first << ops[x].second;
      if (ops[x].second.empty() || ops[x].second.back() != '\n')
        os << "\n\\ No newline at end of file\n";
    }
    k = end;
  }
  return os.str();
}

} // namespace qspec::lint
