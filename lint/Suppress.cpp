// Suppression comments: `qlint: disable=A,B` and `qlint: disable-file=A,B`, found only inside the
// file's real comments (Comments.h), and the `lint-unused-suppression` findings for those that
// suppress nothing.
#include "lint/Comments.h"
#include "lint/Config.h"
#include "lint/Context.h"

namespace qspec::lint {
namespace {

struct Suppression {
  uint32_t line = 0;        // 0 = file level
  bool ownLineOnly = false; // a trailing comment: its own line; a comment alone: it and the next
  std::string selector;
  SourceRange range; // the selector text in the comment
  bool used = false;
};

bool selectorChar(char c) { return isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; }

// The selectors of the marker at `after` (just past "qlint:") inside comment `c`.
void readMarker(const SourceManager &sm, FileID f, const CommentSpan &c, size_t at,
                std::vector<Suppression> &out) {
  const std::string &t = sm.text(f);
  size_t after = at + 6;
  while (after < c.end && t[after] == ' ')
    ++after;
  bool fileLevel = t.compare(after, 13, "disable-file=") == 0;
  if (fileLevel)
    after += 13;
  else if (t.compare(after, 8, "disable=") == 0)
    after += 8;
  else
    return;
  SourceLoc loc = sm.locate(f, static_cast<uint32_t>(at));
  while (after < c.end) {
    size_t b = after;
    while (after < c.end && selectorChar(t[after]))
      ++after;
    if (after == b)
      break;
    Suppression s;
    s.line = fileLevel ? 0 : loc.line;
    s.ownLineOnly = c.trailing;
    s.selector = t.substr(b, after - b);
    s.range = sm.range(f, static_cast<uint32_t>(b), static_cast<uint32_t>(after));
    out.push_back(std::move(s));
    if (after < c.end && t[after] == ',')
      ++after;
    else
      break;
  }
}

std::vector<Suppression> findSuppressions(const SourceManager &sm, FileID f, FileKind kind) {
  std::vector<Suppression> out;
  const std::string &t = sm.text(f);
  std::vector<CommentSpan> comments;
  if (kind == FileKind::QSpec) {
    std::lock_guard<std::mutex> lock(frontendMutex());
    comments = commentSpans(kind, sm, f);
  } else {
    comments = commentSpans(kind, sm, f);
  }
  for (const CommentSpan &c : comments)
    for (size_t pos = t.find("qlint:", c.begin); pos != std::string::npos && pos + 6 <= c.end;
         pos = t.find("qlint:", pos + 6))
      readMarker(sm, f, c, pos, out);
  return out;
}

bool covers(const Suppression &s, const Diagnostic &d) {
  uint32_t line = d.range.begin.line;
  return s.line == 0 || line == s.line || (!s.ownLineOnly && line == s.line + 1);
}

// Findings for suppressions that suppressed nothing or name an unknown rule.
void reportUnused(FileResult &res, const EffectiveRules &rules, std::vector<Suppression> &sup) {
  size_t unusedIdx = static_cast<size_t>(RuleID::LintUnusedSuppression);
  if (!rules.enabled[unusedIdx])
    return;
  const RuleInfo &ur = ruleInfo(RuleID::LintUnusedSuppression);
  // A file-level suppression of the rule itself silences it.
  bool silenced = false;
  for (Suppression &s : sup)
    if (s.line == 0 && selectorMatches(s.selector, ur)) {
      silenced = true;
      s.used = true;
    }
  for (const Suppression &s : sup) {
    if (s.used || silenced)
      continue;
    bool known = isValidSelector(s.selector);
    bool anyEnabled = false;
    for (const RuleInfo &r : allRules())
      if (selectorMatches(s.selector, r) && rules.enabled[static_cast<size_t>(r.rule)])
        anyEnabled = true;
    if (known && !anyEnabled)
      continue; // the rule is turned off for this file: nothing to say
    Diagnostic d;
    d.code = ur.id;
    d.severity = rules.severity[unusedIdx];
    if (rules.promote[unusedIdx] && d.severity == Severity::Warning)
      d.severity = Severity::Error;
    d.range = s.range;
    d.message = known ? "suppression of '" + s.selector + "' suppresses nothing"
                      : "unknown rule '" + s.selector + "' in qlint suppression";
    res.findings.push_back(std::move(d));
  }
}

} // namespace

void applySuppressions(FileResult &res, const EffectiveRules &rules) {
  std::vector<Suppression> sup = findSuppressions(*res.sm, res.file, res.kind);
  if (sup.empty())
    return;
  // Each finding is judged on its own: a suppression hides the findings on the lines it covers,
  // never an identical finding elsewhere.
  std::vector<Diagnostic> kept;
  for (Diagnostic &d : res.findings) {
    const RuleInfo *r = findRule(d.code);
    bool suppressed = false;
    for (Suppression &s : sup)
      if (r && covers(s, d) && selectorMatches(s.selector, *r)) {
        s.used = true;
        suppressed = true;
      }
    if (!suppressed)
      kept.push_back(std::move(d));
  }
  res.findings = std::move(kept);
  reportUnused(res, rules, sup);
}

} // namespace qspec::lint
