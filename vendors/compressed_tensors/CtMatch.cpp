// compressed-tensors' and vLLM's matching rules (CompressedTensors.h, rules 1-4), and the checks of
// one `re:` entry against an inventory.
//
// `re:` patterns are Python regular expressions; qspec runs them as ECMAScript (ir::Regex),
// which reads the common subset the same way (., *, +, ?, {m,n}, [...], (...), |, \d, \w, \s, ^,
// $). Python-only syntax -- named groups (?P<...>), inline flags (?i), \A, \Z, comments, atomic
// groups and lookbehind -- is refused rather than read differently. Python's re.match is a search
// anchored at the start only: ir::Regex::prefixMatch.
#include "vendors/compressed_tensors/CompressedTensors.h"
#include "ir/Regex.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace qspec::vendors::ct {

struct Matcher::Re {
  ir::Regex re;
};

Matcher::~Matcher() = default;

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char &c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Python syntax an ECMAScript regex would read differently (or not at all); "" when none.
std::string pythonOnly(const std::string &p) {
  static const char *const kBad[] = {"(?P", "(?<", "(?i", "(?m", "(?s", "(?x", "(?a", "(?u", "(?L",
                                     "(?#", "(?(", "(?>", "\\A", "\\Z", "*+",  "++",  "?+"};
  for (const char *b : kBad)
    if (p.find(b) != std::string::npos)
      return std::string("'") + b + "' is Python-only syntax";
  return "";
}

std::optional<ir::Regex> compileRegex(const std::string &pattern, std::string &error) {
  if (std::string why = pythonOnly(pattern); !why.empty()) {
    error = why;
    return std::nullopt;
  }
  return ir::Regex::compile(pattern, error);
}

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The pattern as its writer most likely meant it, for names made of dot-separated components: an
// unescaped '.' not followed by a quantifier is a literal dot, a '.*' or '.+' right after a word
// character starts a new component ('\..*'), and the whole name must match.
std::string literalReading(const std::string &p) {
  std::string out;
  bool inClass = false;
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      out += c;
      out += p[++i];
      continue;
    }
    if (inClass) {
      inClass = c != ']';
      out += c;
      continue;
    }
    if (c == '[') {
      inClass = true;
      out += c;
      continue;
    }
    if (c != '.') {
      out += c;
      continue;
    }
    char next = i + 1 < p.size() ? p[i + 1] : '\0';
    bool quantified = next == '*' || next == '+' || next == '?' || next == '{';
    if (!quantified)
      out += "\\.";
    else if (i > 0 && isWordChar(p[i - 1]) && (next == '*' || next == '+'))
      out += "\\..";
    else
      out += c;
  }
  if (out.empty() || out.back() != '$')
    out = "(?:" + out + ")$";
  return out;
}

} // namespace

bool Matcher::compile(const std::string &entry, std::unique_ptr<Matcher> &out, std::string &error) {
  out.reset(new Matcher);
  out->text_ = entry;
  if (entry.rfind("re:", 0) == 0) {
    std::optional<ir::Regex> re = compileRegex(entry.substr(3), error);
    if (!re)
      return false;
    out->regex_ = std::make_unique<Re>(Re{std::move(*re)});
  }
  return true;
}

bool Matcher::matchesName(std::string_view name) const {
  return regex_ ? regex_->re.prefixMatch(name) : name == text_;
}

bool Matcher::containedIn(std::string_view className) const {
  if (regex_)
    return regex_->re.prefixMatch(className);
  return !text_.empty() && lower(className).find(lower(text_)) != std::string::npos;
}

bool Matcher::namesClass(std::string_view className) const {
  return !regex_ && !className.empty() && className == text_;
}

std::optional<Fused> fusedLayerOf(std::string_view name) {
  static const std::pair<const char *, std::vector<std::string>> kFused[] = {
      {"qkv_proj", {"q_proj", "k_proj", "v_proj"}},
      {"gate_up_proj", {"gate_proj", "up_proj"}},
  };
  size_t dot = name.rfind('.');
  std::string_view prefix = dot == std::string_view::npos ? "" : name.substr(0, dot + 1);
  std::string_view last = dot == std::string_view::npos ? name : name.substr(dot + 1);
  for (const auto &[fused, shards] : kFused)
    if (std::find(shards.begin(), shards.end(), last) != shards.end()) {
      Fused f;
      f.name = std::string(prefix) + fused;
      for (const std::string &s : shards)
        f.shards.push_back(std::string(prefix) + s);
      return f;
    }
  return std::nullopt;
}

bool Rules::build(const Doc &doc, std::string &error, Loc &at) {
  std::unordered_map<std::string, size_t> seen;
  for (size_t g = 0; g < doc.groups.size(); ++g)
    for (const Entry &e : doc.groups[g].targets) {
      auto it = seen.find(e.text);
      if (it != seen.end()) {
        targets_[it->second].group = static_cast<int>(g); // a later group replaces the scheme
        continue;
      }
      T t{nullptr, static_cast<int>(g)};
      if (!Matcher::compile(e.text, t.m, error)) {
        at = e.at;
        return false;
      }
      seen.emplace(e.text, targets_.size());
      targets_.push_back(std::move(t));
    }
  for (const Entry &e : doc.ignore) {
    std::unique_ptr<Matcher> m;
    if (!Matcher::compile(e.text, m, error)) {
      at = e.at;
      return false;
    }
    ignore_.emplace_back(std::move(m), &e);
  }
  exact_.clear();
  regexes_.clear();
  for (size_t i = 0; i < targets_.size(); ++i) {
    if (targets_[i].m->isRegex())
      regexes_.push_back(i);
    else
      exact_.emplace(targets_[i].m->text(), i);
  }
  return true;
}

const Entry *Rules::ignoredBy(std::string_view name) const {
  for (const auto &[m, e] : ignore_)
    if (m->matchesName(name))
      return e;
  return nullptr;
}

bool Rules::ignored(std::string_view name) const { return ignoredBy(name) != nullptr; }

int Rules::firstNameMatch(std::string_view name) const {
  size_t best = targets_.size();
  if (auto it = exact_.find(std::string(name)); it != exact_.end())
    best = it->second;
  for (size_t i : regexes_) {
    if (i >= best)
      break;
    if (targets_[i].m->matchesName(name)) {
      best = i;
      break;
    }
  }
  return best == targets_.size() ? -1 : static_cast<int>(best);
}

int Rules::vllmGroup(std::string_view name, std::string_view className) const {
  if (int t = firstNameMatch(name); t >= 0)
    return targets_[t].group;
  for (const T &t : targets_)
    if (t.m->containedIn(className))
      return t.group;
  return -1;
}

int Rules::vllmFusedGroup(const Fused &f, std::string_view className) const {
  if (int g = vllmGroup(f.name, className); g >= 0)
    return g;
  int first = -1;
  for (const std::string &s : f.shards) {
    int t = firstNameMatch(s);
    if (t < 0)
      return -1;
    if (first < 0)
      first = t;
  }
  return targets_[first].group;
}

int Rules::libraryGroup(std::string_view name, std::string_view className) const {
  // Exact names, then `re:` patterns in sorted order, then class names in sorted order.
  if (auto it = exact_.find(std::string(name)); it != exact_.end())
    return targets_[it->second].group;
  const T *best = nullptr;
  for (size_t i : regexes_)
    if ((!best || targets_[i].m->text() < best->m->text()) && targets_[i].m->matchesName(name))
      best = &targets_[i];
  if (best)
    return best->group;
  for (const T &t : targets_)
    if ((!best || t.m->text() < best->m->text()) && t.m->namesClass(className))
      best = &t;
  return best ? best->group : -1;
}

PatternVerdict judgePattern(const std::string &entry, const std::vector<ir::Module> &modules) {
  PatternVerdict v;
  std::unique_ptr<Matcher> m;
  if (!Matcher::compile(entry, m, v.error)) {
    v.kind = PatternVerdict::Syntax;
    return v;
  }
  std::optional<ir::Regex> literal;
  if (m->isRegex()) {
    std::string error;
    v.fix = "re:" + literalReading(entry.substr(3));
    literal = compileRegex(v.fix.substr(3), error);
  }
  size_t matched = 0;
  for (const ir::Module &mod : modules) {
    bool hit = m->matchesName(mod.name) || m->namesClass(mod.type);
    if (!hit)
      continue;
    ++matched;
    if (literal && !literal->prefixMatch(mod.name) && !m->namesClass(mod.type)) {
      if (v.extra++ == 0)
        v.firstExtra = mod.name;
    }
  }
  if (matched == 0)
    v.kind = PatternVerdict::NoMatch;
  else if (v.extra > 0)
    v.kind = PatternVerdict::OverMatch;
  return v;
}

std::string numberPrefixDigits(const std::string &entry) {
  if (entry.rfind("re:", 0) != 0)
    return "";
  const std::string p = entry.substr(3);
  bool inClass = false;
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\') {
      ++i; // an escaped character (\d, \., \1) is no literal digit
      continue;
    }
    if (inClass) {
      inClass = c != ']';
      continue;
    }
    if (c == '[') {
      inClass = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c)))
      continue;
    size_t e = i;
    while (e < p.size() && std::isdigit(static_cast<unsigned char>(p[e])))
      ++e;
    // A number that starts a name component: after a dot (escaped or not) or at the start.
    bool component = i == 0 || p[i - 1] == '.';
    char next = e < p.size() ? p[e] : '\0';
    char after = e + 1 < p.size() ? p[e + 1] : '\0';
    bool open = next == '\0' ||
                (next == '.' && (after == '*' || after == '+' || after == '?' || after == '{'));
    if (component && open)
      return p.substr(i, e - i);
    i = e - 1;
  }
  return "";
}

bool checkPattern(const std::string &entry, const std::vector<ir::Module> &modules,
                  SourceRange range, DiagnosticEngine &diags) {
  PatternVerdict v = judgePattern(entry, modules);
  switch (v.kind) {
  case PatternVerdict::Syntax:
    diags.report(DiagID::err_llmc_pattern_syntax, range, {entry, v.error});
    return false;
  case PatternVerdict::NoMatch:
    diags.report(DiagID::err_llmc_pattern_no_match, range, {entry});
    return false;
  case PatternVerdict::OverMatch:
    diags.report(DiagID::err_llmc_pattern_over_match, range,
                 {entry, v.firstExtra, std::to_string(v.extra), v.fix});
    return false;
  case PatternVerdict::Ok:
    break;
  }
  return true;
}

} // namespace qspec::vendors::ct
