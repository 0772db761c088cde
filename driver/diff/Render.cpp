// Text, JSON and Markdown renderings of a DiffResult; see Render.h and docs/cli.md ("qcc diff").
#include "driver/diff/Render.h"

#include "ir/Diagnostics.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>

namespace qspec::driver::diff {
namespace {

using json = nlohmann::ordered_json;

std::string plural(size_t n, const char *one, const char *many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "file:line" of a rule, or "built-in".
std::string where(const RuleRef &r) {
  return r.file.empty() ? std::string("built-in") : r.file + ":" + std::to_string(r.line);
}

std::string ruleText(const RuleRef &r) {
  return r.file.empty() ? r.kind : r.kind + " at " + where(r);
}

size_t changedTargets(const DiffResult &d) {
  size_t n = 0;
  for (const TargetChange &t : d.targets)
    n += t.changed;
  return n;
}

std::string targetState(const TargetChange &t) {
  if (t.fileBefore.empty())
    return "added";
  if (t.fileAfter.empty())
    return "removed";
  if (!t.changed)
    return "unchanged";
  std::string s = "changed";
  if (t.linesAdded || t.linesRemoved)
    s += " (+" + std::to_string(t.linesAdded) + " -" + std::to_string(t.linesRemoved) + " lines)";
  if (t.fileBefore != t.fileAfter)
    s += t.linesAdded || t.linesRemoved ? ", renamed" : " (renamed)";
  return s;
}

std::string targetFile(const TargetChange &t) {
  if (t.fileBefore.empty() || t.fileBefore == t.fileAfter)
    return t.fileAfter;
  if (t.fileAfter.empty())
    return t.fileBefore;
  return t.fileBefore + " -> " + t.fileAfter;
}

// Up to `max` patterns joined by ", ", then "and N more".
std::string patternList(const std::vector<std::string> &patterns, size_t max,
                        std::string (*quote)(const std::string &)) {
  std::string out;
  for (size_t k = 0; k < patterns.size() && k < max; ++k)
    out += (k ? ", " : "") + quote(patterns[k]);
  if (patterns.size() > max)
    out += " and " + plural(patterns.size() - max, "more pattern", "more patterns");
  return out;
}

std::string plainName(const std::string &s) { return sanitizeForTerminal(s); }

struct Paint {
  bool on;
  std::string operator()(const char *code, const std::string &s) const {
    return on ? std::string("\033[") + code + "m" + s + "\033[0m" : s;
  }
};

} // namespace

std::string summaryLine(const DiffResult &d) {
  std::string s = plural(d.changedModules, "module changes", "modules change");
  if (!d.fieldCounts.empty()) {
    s += " (";
    for (size_t k = 0; k < d.fieldCounts.size(); ++k)
      s += (k ? ", " : "") + d.fieldCounts[k].first + " " + std::to_string(d.fieldCounts[k].second);
    s += ")";
  }
  s += ", " + std::to_string(d.appearedModules) + " appear, " +
       std::to_string(d.disappearedModules) + " disappear; " + std::to_string(changedTargets(d)) +
       " of " + plural(d.targets.size(), "target file changes", "target files change");
  return s;
}

void renderText(const DiffResult &d, const RenderOptions &o, std::ostream &os) {
  Paint paint{o.color};
  os << paint("1",
              "qcc diff " + sanitizeForTerminal(d.before) + " -> " + sanitizeForTerminal(d.after))
     << "\n";
  os << "modules: " << d.compared << " compared (" << d.modulesBefore << " before, "
     << d.modulesAfter << " after)\n";
  for (const ChangeGroup &g : d.changed) {
    os << "\n"
       << paint("1", patternList(g.patterns, o.maxPatterns, plainName)) << " ("
       << plural(g.count, "module", "modules") << ")\n";
    for (const FieldChange &f : g.fields)
      os << "  " << f.field << ": " << paint("31", sanitizeForTerminal(f.before)) << " -> "
         << paint("32", sanitizeForTerminal(f.after)) << "   ["
         << sanitizeForTerminal(ruleText(f.ruleBefore)) << " -> "
         << sanitizeForTerminal(ruleText(f.ruleAfter)) << "]\n";
  }
  auto presence = [&](const std::vector<PresenceGroup> &groups, const char *sign, const char *code,
                      const char *what) {
    for (const PresenceGroup &g : groups)
      os << "\n"
         << paint(code, std::string(sign) + " " + patternList(g.patterns, o.maxPatterns, plainName))
         << " (" << plural(g.count, "module", "modules") << ", " << what << ", " << g.tier << ")\n";
  };
  presence(d.disappeared, "-", "31", "disappears");
  presence(d.appeared, "+", "32", "appears");
  if (!d.targets.empty())
    os << "\ntargets:\n";
  size_t targetWidth = 0, fileWidth = 0;
  for (const TargetChange &t : d.targets) {
    targetWidth = std::max(targetWidth, t.target.size());
    fileWidth = std::max(fileWidth, sanitizeForTerminal(targetFile(t)).size());
  }
  for (const TargetChange &t : d.targets) {
    std::string state = targetState(t), file = sanitizeForTerminal(targetFile(t));
    os << "  " << t.target << std::string(targetWidth - t.target.size() + 2, ' ') << file
       << std::string(fileWidth - file.size() + 2, ' ') << (t.changed ? paint("33", state) : state)
       << "\n";
  }
  os << "\n" << paint("1", (d.same() ? "same: " : "differ: ") + summaryLine(d)) << "\n";
}

namespace {

json ruleJSON(const RuleRef &r) {
  json j;
  j["kind"] = r.kind;
  if (r.file.empty()) {
    j["file"] = nullptr;
  } else {
    j["file"] = r.file;
    j["line"] = r.line;
    j["col"] = r.col;
  }
  return j;
}

json presenceJSON(const std::vector<PresenceGroup> &groups) {
  json out = json::array();
  for (const PresenceGroup &g : groups)
    out.push_back({{"tier", g.tier}, {"count", g.count}, {"patterns", g.patterns}});
  return out;
}

} // namespace

void renderJSON(const DiffResult &d, std::ostream &os) {
  json j;
  j["before"] = d.before;
  j["after"] = d.after;
  j["same"] = d.same();
  j["modules"] = {{"before", d.modulesBefore},     {"after", d.modulesAfter},
                  {"compared", d.compared},        {"changed", d.changedModules},
                  {"appeared", d.appearedModules}, {"disappeared", d.disappearedModules}};
  json fields = json::object();
  for (const auto &[field, n] : d.fieldCounts)
    fields[field] = n;
  j["fields"] = fields;
  json changed = json::array();
  for (const ChangeGroup &g : d.changed) {
    json changes = json::array();
    for (const FieldChange &f : g.fields)
      changes.push_back({{"field", f.field},
                         {"before", f.before},
                         {"after", f.after},
                         {"rule_before", ruleJSON(f.ruleBefore)},
                         {"rule_after", ruleJSON(f.ruleAfter)}});
    changed.push_back({{"patterns", g.patterns}, {"count", g.count}, {"changes", changes}});
  }
  j["changed"] = changed;
  j["appeared"] = presenceJSON(d.appeared);
  j["disappeared"] = presenceJSON(d.disappeared);
  json targets = json::array();
  for (const TargetChange &t : d.targets) {
    json jt = {{"target", t.target}, {"changed", t.changed}};
    jt["file_before"] = t.fileBefore.empty() ? json(nullptr) : json(t.fileBefore);
    jt["file_after"] = t.fileAfter.empty() ? json(nullptr) : json(t.fileAfter);
    jt["lines_added"] = t.linesAdded;
    jt["lines_removed"] = t.linesRemoved;
    targets.push_back(std::move(jt));
  }
  j["targets"] = targets;
  j["summary"] = summaryLine(d);
  os << j.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

namespace {

// Text in a Markdown table cell: a code span (with a fence longer than any backtick run inside),
// `|` escaped and line breaks as spaces.
std::string code(const std::string &s) {
  size_t run = 0, longest = 0;
  std::string body;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    body += c == '|'                 ? std::string("\\|")
            : c == '\n' || c == '\r' ? std::string(" ")
                                     : std::string(1, c);
  }
  std::string fence(longest + 1, '`');
  bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string mdRule(const RuleRef &r) {
  return r.file.empty() ? r.kind : r.kind + " " + code(where(r));
}

} // namespace

void renderMarkdown(const DiffResult &d, const RenderOptions &o, std::ostream &os) {
  os << "### qcc diff " << code(d.before) << " → " << code(d.after) << "\n\n";
  os << (d.same() ? "**Same meaning:** " : "**Differs:** ") << summaryLine(d) << ".\n";
  if (!d.changed.empty()) {
    os << "\n| modules | count | setting | before | after | decided by (before → after) |\n"
       << "|---|--:|---|---|---|---|\n";
    for (const ChangeGroup &g : d.changed)
      for (size_t k = 0; k < g.fields.size(); ++k) {
        const FieldChange &f = g.fields[k];
        os << "| " << (k ? "" : patternList(g.patterns, o.maxPatterns, code)) << " | "
           << (k ? "" : std::to_string(g.count)) << " | " << f.field << " | " << code(f.before)
           << " | " << code(f.after) << " | " << mdRule(f.ruleBefore) << " → "
           << mdRule(f.ruleAfter) << " |\n";
      }
  }
  if (!d.appeared.empty() || !d.disappeared.empty()) {
    os << "\n| modules | count | | tier |\n|---|--:|---|---|\n";
    for (const PresenceGroup &g : d.disappeared)
      os << "| " << patternList(g.patterns, o.maxPatterns, code) << " | " << g.count
         << " | disappear | " << g.tier << " |\n";
    for (const PresenceGroup &g : d.appeared)
      os << "| " << patternList(g.patterns, o.maxPatterns, code) << " | " << g.count
         << " | appear | " << g.tier << " |\n";
  }
  if (!d.targets.empty()) {
    os << "\n| target | file | emitted file |\n|---|---|---|\n";
    for (const TargetChange &t : d.targets)
      os << "| " << t.target << " | " << code(targetFile(t)) << " | " << targetState(t) << " |\n";
  }
}

std::string renderMarkdownCell(const DiffResult &d, const RenderOptions &o, size_t maxGroups) {
  std::string out = summaryLine(d);
  size_t shown = 0, total = d.changed.size() + d.disappeared.size() + d.appeared.size();
  auto heading = [&](const std::vector<std::string> &patterns, size_t count) {
    out += "<br>" + patternList(patterns, o.maxPatterns, code) + " (" +
           plural(count, "module", "modules") + "): ";
  };
  for (const ChangeGroup &g : d.changed) {
    if (shown++ >= maxGroups)
      break;
    heading(g.patterns, g.count);
    for (size_t k = 0; k < g.fields.size(); ++k)
      out += (k ? ", " : "") + g.fields[k].field + " " + code(g.fields[k].before) + " → " +
             code(g.fields[k].after);
  }
  for (const auto &[groups, what] :
       {std::pair{&d.disappeared, "disappear, "}, std::pair{&d.appeared, "appear, "}})
    for (const PresenceGroup &g : *groups) {
      if (shown++ >= maxGroups)
        break;
      heading(g.patterns, g.count);
      out += what + g.tier;
    }
  if (total > maxGroups)
    out += "<br>and " + plural(total - maxGroups, "more group", "more groups");
  return out;
}

} // namespace qspec::driver::diff
