// Sensitivity scores: format chosen by content (docs/inputs.md).
//   msmodelslim-log  `msmodelslim analyze` output: `%3d. %-50s | Score: %12.4e` rows, or only the
//                    `top N:` list (then rank-based scores)
//   analysis-yaml    analysis_result.yaml: layer_scores [{name, score}], method, patterns
//   hmct-json        get_sensitivity_of_nodes result: {node: {metric: value}}
//   hmct-log         the node-sensitivity log table (title in '=', header `Node ...`, dashes, rows)
//   horizon-table    QuantAnalysis.sensitivity() rows: op_name sensitive_type op_type metric
//   [dtype] [flops]
#include "frontend/readers/ReaderSupport.h"
#include "frontend/readers/Readers.h"

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>
#include <yaml.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace qspec::readers {

using namespace detail;

namespace {

// Lower-is-more-sensitive metrics (similarities): everything else is an error measure.
bool isSimilarityMetric(std::string metric) {
  for (char &c : metric)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return metric.find("cos") != std::string::npos || metric.find("sqnr") != std::string::npos ||
         metric.find("similarity") != std::string::npos || metric.find("psnr") != std::string::npos;
}

class ScoresBuilder {
public:
  ScoresBuilder(ir::Scores &out, DiagnosticEngine &diags, const ReaderLimits &limits)
      : out_(out), diags_(diags), limits_(limits) {}

  // Adds one entry; reports (and returns false) on a non-finite score, a repeated name or too
  // many entries.
  bool add(std::string name, double score, SourceRange nameAt, SourceRange scoreAt, uint32_t line) {
    if (!std::isfinite(score)) {
      diags_.report(DiagID::err_scores_not_finite, scoreAt.valid() ? scoreAt : nameAt, {name});
      return false;
    }
    auto it = seen_.find(name);
    if (it != seen_.end()) {
      Diagnostic &d = diags_.report(DiagID::err_scores_duplicate, nameAt, {name});
      diags_.note(d, DiagID::note_reader_first_here, ranges_[it->second], {name});
      return false;
    }
    if (out_.entries.size() >= limits_.maxScores) {
      if (!tooMany_)
        diags_.report(DiagID::err_scores_too_many, nameAt, {std::to_string(limits_.maxScores)});
      tooMany_ = true;
      return false;
    }
    seen_.emplace(name, static_cast<uint32_t>(out_.entries.size()));
    ranges_.push_back(nameAt);
    out_.entries.push_back({std::move(name), score, line});
    return true;
  }
  bool tooMany() const { return tooMany_; }

private:
  ir::Scores &out_;
  DiagnosticEngine &diags_;
  const ReaderLimits &limits_;
  std::unordered_map<std::string, uint32_t> seen_;
  std::vector<SourceRange> ranges_;
  bool tooMany_ = false;
};

struct Ctx {
  FileID file;
  const std::vector<Line> &lines;
  ir::Scores &out;
  DiagnosticEngine &diags;
  const ReaderLimits &limits;
  SourceManager &sm() { return diags.sourceManager(); }
  SourceRange at(const Line &l, uint32_t col0, uint32_t len) {
    return sm().lineRange(file, l.number, col0 + 1, std::max<uint32_t>(len, 1));
  }
  SourceRange whole(const Line &l) {
    size_t lead = l.text.find_first_not_of(" \t");
    uint32_t c = lead == std::string_view::npos ? 0 : static_cast<uint32_t>(lead);
    return at(l, c, static_cast<uint32_t>(trim(l.text).size()));
  }
  void malformed(SourceRange r, const std::string &why) {
    diags.report(DiagID::err_scores_malformed, r, {why});
  }
};

// ---- msModelSlim analyze log -------------------------------------------------------------

bool isTopHeader(std::string_view text, uint32_t *count = nullptr) {
  // "... top 36:" (possibly behind a logger prefix)
  std::string_view t = trim(text);
  if (!endsWith(t, ":"))
    return false;
  t.remove_suffix(1);
  size_t sp = t.find_last_of(" \t");
  if (sp == std::string_view::npos)
    return false;
  std::string_view digits = t.substr(sp + 1);
  std::string_view before = trim(t.substr(0, sp));
  if (digits.empty() || digits.size() > 9 ||
      digits.find_first_not_of("0123456789") != std::string_view::npos)
    return false;
  if (!endsWith(before, "top") ||
      (before.size() > 3 && !std::isspace(static_cast<unsigned char>(before[before.size() - 4])) &&
       before[before.size() - 4] != '-'))
    return false;
  if (count)
    *count = static_cast<uint32_t>(std::stoul(std::string(digits)));
  return true;
}

bool looksLikeMsModelSlimLog(const std::vector<Line> &lines) {
  for (const Line &l : lines)
    if (l.text.find("| Score:") != std::string_view::npos ||
        l.text.find("Layer Analysis Results") != std::string_view::npos || isTopHeader(l.text))
      return true;
  return false;
}

// A `top N:` list item behind an optional prefix: `- 'name'`, `- "name"` or `- name`.
bool parseListItem(std::string_view text, std::string_view &name, uint32_t &col0) {
  std::string_view t = text;
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t'))
    t.remove_suffix(1);
  if (t.empty())
    return false;
  size_t nameBegin, nameEnd = t.size();
  char q = t.back();
  if (q == '\'' || q == '"') {
    size_t open = t.rfind(q, t.size() - 2);
    if (open == std::string_view::npos || t.size() < 2)
      return false;
    nameBegin = open + 1;
    nameEnd = t.size() - 1;
  } else {
    size_t sp = t.find_last_of(" \t");
    if (sp == std::string_view::npos)
      return false;
    nameBegin = sp + 1;
  }
  std::string_view before = t.substr(0, nameBegin - ((q == '\'' || q == '"') ? 1 : 0));
  while (!before.empty() && (before.back() == ' ' || before.back() == '\t'))
    before.remove_suffix(1);
  if (before.empty() || before.back() != '-')
    return false;
  if (before.size() > 1 && before[before.size() - 2] != ' ' && before[before.size() - 2] != '\t')
    return false;
  name = t.substr(nameBegin, nameEnd - nameBegin);
  col0 = static_cast<uint32_t>(nameBegin);
  return !name.empty();
}

bool readMsModelSlimLog(Ctx &c) {
  c.out.format = "msmodelslim-log";
  c.out.higherIsMoreSensitive = true;
  ScoresBuilder b(c.out, c.diags, c.limits);
  bool ok = true, anyRow = false;
  for (const Line &l : c.lines) {
    size_t m = l.text.find("Layer Analysis Results (");
    if (m != std::string_view::npos) {
      size_t s = m + 24, e = l.text.find(" method)", s);
      if (e != std::string_view::npos)
        c.out.metric = std::string(l.text.substr(s, e - s));
    }
  }
  for (const Line &l : c.lines) {
    size_t bar = l.text.find("| Score:");
    if (bar == std::string_view::npos) {
      if (l.text.find("Score:") != std::string_view::npos) {
        c.malformed(c.whole(l), "expected 'N. NAME | Score: VALUE'");
        ok = false;
      }
      continue;
    }
    anyRow = true;
    std::vector<Token> left = tokenize(l.text.substr(0, bar));
    if (left.size() < 2) {
      c.malformed(c.whole(l), "expected 'N. NAME | Score: VALUE'");
      ok = false;
      continue;
    }
    const Token &rank = left[left.size() - 2], &name = left.back();
    std::string_view r = rank.text;
    if (r.size() < 2 || r.back() != '.' ||
        r.substr(0, r.size() - 1).find_first_not_of("0123456789") != std::string_view::npos) {
      c.malformed(c.at(l, rank.offset, static_cast<uint32_t>(r.size())),
                  "expected a rank such as '1.' before the name");
      ok = false;
      continue;
    }
    uint32_t valueAt = static_cast<uint32_t>(bar + 8);
    std::string_view valueText = l.text.substr(valueAt);
    size_t lead = valueText.find_first_not_of(" \t");
    uint32_t vcol = valueAt + static_cast<uint32_t>(lead == std::string_view::npos ? 0 : lead);
    double v;
    if (!parseNumber(valueText, v)) {
      c.malformed(c.at(l, vcol, static_cast<uint32_t>(trim(valueText).size())),
                  "the score is not a number");
      ok = false;
      continue;
    }
    if (!b.add(stripLayerScope(name.text), v,
               c.at(l, name.offset, static_cast<uint32_t>(name.text.size())),
               c.at(l, vcol, static_cast<uint32_t>(trim(valueText).size())), l.number))
      ok = false;
    if (b.tooMany())
      return false;
  }
  if (anyRow || !ok)
    return ok;
  // No Score rows: the `top N:` list, scored by rank (first = most sensitive).
  c.out.format = "msmodelslim-top";
  if (c.out.metric.empty())
    c.out.metric = "rank";
  for (size_t i = 0; i < c.lines.size(); ++i) {
    if (!isTopHeader(c.lines[i].text))
      continue;
    std::vector<std::pair<std::string_view, size_t>> items; // name, line index
    std::vector<uint32_t> cols;
    for (size_t j = i + 1; j < c.lines.size(); ++j) {
      std::string_view name;
      uint32_t col0 = 0;
      if (!parseListItem(c.lines[j].text, name, col0))
        break;
      items.push_back({name, j});
      cols.push_back(col0);
    }
    for (size_t k = 0; k < items.size(); ++k) {
      const Line &l = c.lines[items[k].second];
      if (!b.add(stripLayerScope(items[k].first), static_cast<double>(items.size() - k),
                 c.at(l, cols[k], static_cast<uint32_t>(items[k].first.size())), {}, l.number))
        ok = false;
      if (b.tooMany())
        return false;
    }
    break;
  }
  if (ok && c.out.entries.empty()) {
    c.malformed(SourceRange{c.file, {}, {}},
                "an msModelSlim analyze log without '| Score:' rows or a 'top N:' list");
    return false;
  }
  return ok;
}

// ---- analysis_result.yaml ----------------------------------------------------------------

bool yamlNumber(const std::string &s, double &v) {
  if (s == ".nan" || s == ".NaN" || s == ".NAN") {
    v = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (s == ".inf" || s == ".Inf" || s == ".INF" || s == "+.inf" || s == "+.Inf" || s == "+.INF") {
    v = std::numeric_limits<double>::infinity();
    return true;
  }
  if (s == "-.inf" || s == "-.Inf" || s == "-.INF") {
    v = -std::numeric_limits<double>::infinity();
    return true;
  }
  return parseNumber(s, v);
}

// ---- analysis_result.yaml, streamed ----------------------------------------------------
//
// The common case read from libyaml's events, without a document tree: a top-level mapping whose
// `layer_scores` is a list of mappings with scalar `name` and `score`, every score a finite
// number, every name non-empty and listed once. Anything else (an alias, a duplicate key, a
// missing or non-scalar field, a bad value, a YAML error) answers "not the common case" before
// anything is reported, and the yaml-cpp reader below reads the file instead, with its messages.

struct StreamedScore {
  std::string name;
  double score;
  uint32_t line; // of the name
};

class YamlEvents {
public:
  explicit YamlEvents(std::string_view text) {
    ok_ = yaml_parser_initialize(&parser_) != 0;
    if (ok_)
      yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char *>(text.data()),
                                   text.size());
  }
  ~YamlEvents() {
    if (has_)
      yaml_event_delete(&event_);
    yaml_parser_delete(&parser_);
  }
  YamlEvents(const YamlEvents &) = delete;
  YamlEvents &operator=(const YamlEvents &) = delete;
  // The next event, or false at a YAML error (or an alias: the tree reader resolves those).
  bool next() {
    if (has_)
      yaml_event_delete(&event_);
    has_ = ok_ && yaml_parser_parse(&parser_, &event_) != 0;
    ok_ = has_ && event_.type != YAML_ALIAS_EVENT;
    return ok_;
  }
  yaml_event_type_t type() const { return event_.type; }
  const yaml_event_t &event() const { return event_; }
  std::string_view scalar() const {
    return {reinterpret_cast<const char *>(event_.data.scalar.value), event_.data.scalar.length};
  }
  // A scalar yaml-cpp reads as a string, not as null.
  bool isStringScalar() const {
    if (type() != YAML_SCALAR_EVENT || event_.data.scalar.tag)
      return false;
    auto style = event_.data.scalar.style;
    if (style == YAML_LITERAL_SCALAR_STYLE || style == YAML_FOLDED_SCALAR_STYLE)
      return false;
    std::string_view v = scalar();
    return style != YAML_PLAIN_SCALAR_STYLE ||
           !(v.empty() || v == "~" || v == "null" || v == "Null" || v == "NULL");
  }
  // Skips the value that starts with the current event (a scalar, or a whole collection).
  bool skipValue() {
    int depth = 0;
    do {
      yaml_event_type_t t = type();
      if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT)
        ++depth;
      else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT)
        --depth;
      if (depth == 0)
        return true;
    } while (next());
    return false;
  }

private:
  yaml_parser_t parser_;
  yaml_event_t event_;
  bool ok_ = false, has_ = false;
};

// One `layer_scores` item (the current event is its MAPPING_START); false: not the common case.
bool streamItem(YamlEvents &ev, std::vector<StreamedScore> &out) {
  if (ev.type() != YAML_MAPPING_START_EVENT)
    return false;
  StreamedScore item{};
  bool haveName = false, haveScore = false;
  while (ev.next() && ev.type() != YAML_MAPPING_END_EVENT) {
    if (!ev.isStringScalar())
      return false;
    std::string_view key = ev.scalar();
    bool isName = key == "name", isScore = key == "score";
    if (!ev.next())
      return false;
    if (!isName && !isScore) {
      if (!ev.skipValue())
        return false;
      continue;
    }
    if ((isName && haveName) || (isScore && haveScore) || !ev.isStringScalar())
      return false;
    const yaml_mark_t &m = ev.event().start_mark;
    if (isName) {
      item.name = std::string(ev.scalar());
      item.line = static_cast<uint32_t>(m.line + 1);
      haveName = true;
    } else {
      if (!yamlNumber(std::string(ev.scalar()), item.score) || !std::isfinite(item.score))
        return false;
      haveScore = true;
    }
  }
  if (ev.type() != YAML_MAPPING_END_EVENT || !haveName || !haveScore || item.name.empty())
    return false;
  out.push_back(std::move(item));
  return true;
}

// The top-level mapping's `method` and `layer_scores`; false: not the common case.
bool streamAnalysisYaml(std::string_view text, std::string &method,
                        std::vector<StreamedScore> &out) {
  YamlEvents ev(text);
  if (!ev.next() || ev.type() != YAML_STREAM_START_EVENT || !ev.next() ||
      ev.type() != YAML_DOCUMENT_START_EVENT || !ev.next() || ev.type() != YAML_MAPPING_START_EVENT)
    return false;
  std::unordered_set<std::string> keys;
  bool sawList = false;
  while (ev.next() && ev.type() != YAML_MAPPING_END_EVENT) {
    if (!ev.isStringScalar() || !keys.emplace(ev.scalar()).second)
      return false;
    std::string key(ev.scalar());
    if (!ev.next())
      return false;
    if (key == "method" && ev.type() == YAML_SCALAR_EVENT) {
      if (!ev.isStringScalar())
        return false; // null or a block scalar: as the tree reader reads it
      method = std::string(ev.scalar());
    } else if (key == "layer_scores") {
      if (ev.type() != YAML_SEQUENCE_START_EVENT)
        return false;
      while (ev.next() && ev.type() != YAML_SEQUENCE_END_EVENT)
        if (!streamItem(ev, out))
          return false;
      if (ev.type() != YAML_SEQUENCE_END_EVENT)
        return false;
      sawList = true;
    } else if (!ev.skipValue()) {
      return false;
    }
  }
  return ev.type() == YAML_MAPPING_END_EVENT && sawList && !out.empty();
}

// ---- analysis_result.yaml, the plain layout --------------------------------------------
//
// The layout msModelSlim and qspec's tools write, read line by line before any YAML parser:
//
//   method: std
//   layer_scores:
//   - name: model.layers.0.mlp.down_proj
//     score: 1.25e-03
//
// (items at any one indentation, an item's two keys in either order, blank lines). Every value is
// a plain scalar of a small alphabet, so its text is its value; anything else (quotes, comments,
// other keys, flow style, tabs, CR, a null-like name, a number YAML might read otherwise) answers
// "not this layout" and the event reader above reads the file.

bool plainName(std::string_view v) {
  if (v.empty() || v == "null" || v == "Null" || v == "NULL" || v == "~")
    return false;
  auto ok = [](char ch, bool first) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
        ch == '_' || ch == '/')
      return true;
    return !first && (ch == '.' || ch == '-' || ch == '*' || ch == '+');
  };
  for (size_t i = 0; i < v.size(); ++i)
    if (!ok(v[i], i == 0))
      return false;
  return true;
}

bool plainNumber(std::string_view v) {
  if (v.empty() || !(std::isdigit(static_cast<unsigned char>(v[0])) || v[0] == '-' || v[0] == '+'))
    return false;
  return v.find_first_not_of("0123456789.eE+-") == std::string_view::npos;
}

// `KEY: VALUE` at the start of `t`: the key and the value's offset in `t`.
bool plainKeyValue(std::string_view t, std::string_view &key, size_t &valueAt) {
  size_t colon = t.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 2 > t.size() || t[colon + 1] != ' ')
    return false;
  key = t.substr(0, colon);
  valueAt = t.find_first_not_of(' ', colon + 1);
  return valueAt != std::string_view::npos;
}

// One `KEY: VALUE` of an item starting at column `at` of line `l`.
bool plainItemField(const Line &l, size_t at, StreamedScore &item, bool &haveName,
                    bool &haveScore) {
  std::string_view key;
  size_t v;
  if (!plainKeyValue(l.text.substr(at), key, v))
    return false;
  std::string_view value = l.text.substr(at + v);
  if (key == "name" && !haveName && plainName(value)) {
    item.name = std::string(value);
    item.line = l.number;
    return haveName = true;
  }
  if (key == "score" && !haveScore && plainNumber(value) &&
      yamlNumber(std::string(value), item.score) && std::isfinite(item.score))
    return haveScore = true;
  return false;
}

// The items of `layer_scores`, from line i (after the key) on; i ends at the first line that is
// not an item. False: not this layout.
bool plainItems(const std::vector<Line> &lines, size_t &i, std::vector<StreamedScore> &out) {
  size_t indent = std::string_view::npos;
  while (i < lines.size()) {
    std::string_view t = lines[i].text;
    if (t.empty()) {
      ++i;
      continue;
    }
    size_t dash = t.find_first_not_of(' ');
    if (dash == std::string_view::npos)
      return false;
    if (indent == std::string_view::npos && dash != std::string_view::npos && t[dash] == '-')
      indent = dash;
    if (dash != indent || t.compare(dash, 2, "- ") != 0)
      return dash == 0 && t[0] != '-'; // the next top-level key
    if (i + 1 >= lines.size() || lines[i + 1].text.size() < indent + 2 ||
        lines[i + 1].text.find_first_not_of(' ') != indent + 2)
      return false;
    StreamedScore item{};
    bool haveName = false, haveScore = false;
    if (!plainItemField(lines[i], indent + 2, item, haveName, haveScore) ||
        !plainItemField(lines[i + 1], indent + 2, item, haveName, haveScore))
      return false;
    out.push_back(std::move(item));
    i += 2;
  }
  return true;
}

bool scanAnalysisYaml(const std::vector<Line> &lines, std::string &method,
                      std::vector<StreamedScore> &out) {
  bool sawMethod = false, sawList = false;
  size_t i = 0;
  while (i < lines.size()) {
    std::string_view t = lines[i].text, key;
    size_t v;
    if (t.empty()) {
      ++i;
    } else if (t == "layer_scores:" && !sawList) {
      sawList = true;
      if (!plainItems(lines, ++i, out))
        return false;
    } else if (plainKeyValue(t, key, v) && key == "method" && !sawMethod &&
               plainName(t.substr(v))) {
      sawMethod = true;
      method = std::string(t.substr(v));
      ++i;
    } else {
      return false;
    }
  }
  return sawList && !out.empty();
}

// The entries if they are the common case and none repeats or exceeds the limit: the plain
// layout first, then libyaml's events.
bool readAnalysisYamlStreamed(Ctx &c) {
  std::string method;
  std::vector<StreamedScore> items;
  bool plain = scanAnalysisYaml(c.lines, method, items);
  if (!plain) {
    method.clear();
    items.clear();
  }
  if ((!plain && !streamAnalysisYaml(c.sm().text(c.file), method, items)) ||
      items.size() > c.limits.maxScores)
    return false;
  std::unordered_set<std::string_view> names;
  names.reserve(items.size());
  for (StreamedScore &it : items) {
    if (endsWith(it.name, ".*"))
      it.name = stripLayerScope(it.name);
    if (!names.insert(it.name).second)
      return false;
  }
  c.out.format = "analysis-yaml";
  c.out.higherIsMoreSensitive = true;
  c.out.metric = method;
  // Every score finite, every name new, within the limit (checked above): nothing to report, so
  // the entries go straight in, without ScoresBuilder's index of names.
  c.out.entries.reserve(items.size());
  for (StreamedScore &it : items)
    c.out.entries.push_back({std::move(it.name), it.score, it.line});
  return true;
}

bool readAnalysisYaml(Ctx &c) {
  if (c.limits.streamAnalysisYaml && readAnalysisYamlStreamed(c))
    return true;
  c.out.format = "analysis-yaml";
  c.out.higherIsMoreSensitive = true;
  SourceManager &sm = c.sm();
  auto at = [&](const YAML::Mark &m, size_t len) {
    if (m.line < 0)
      return SourceRange{c.file, {}, {}};
    return sm.lineRange(c.file, static_cast<uint32_t>(m.line + 1),
                        static_cast<uint32_t>(m.column + 1),
                        static_cast<uint32_t>(std::max<size_t>(len, 1)));
  };
  uint32_t line = 0, col = 0;
  if (!checkYamlAliases(sm.text(c.file), kMaxYamlAliasNodes, line, col)) {
    c.diags.report(DiagID::err_yaml_aliases_too_many, sm.lineRange(c.file, line, col, 1),
                   {std::to_string(kMaxYamlAliasNodes)});
    return false;
  }
  YAML::Node root;
  try {
    root = YAML::Load(sm.text(c.file));
  } catch (const YAML::Exception &e) {
    c.malformed(at(e.mark, 1), "invalid YAML: " + e.msg);
    return false;
  }
  try {
    if (!root.IsMap() || !root["layer_scores"]) {
      c.malformed(SourceRange{c.file, {}, {}},
                  "analysis_result.yaml needs a top-level 'layer_scores' list");
      return false;
    }
    if (YAML::Node method = root["method"]; method && method.IsScalar())
      c.out.metric = method.Scalar();
    YAML::Node list = root["layer_scores"];
    if (!list.IsSequence()) {
      c.malformed(at(list.Mark(), 1), "'layer_scores' must be a list of {name, score}");
      return false;
    }
    ScoresBuilder b(c.out, c.diags, c.limits);
    bool ok = true;
    for (const YAML::Node &item : list) {
      if (!item.IsMap() || !item["name"] || !item["score"] || !item["name"].IsScalar() ||
          !item["score"].IsScalar()) {
        c.malformed(at(item.Mark(), 1),
                    "each 'layer_scores' item needs a 'name' and a numeric 'score'");
        ok = false;
        continue;
      }
      YAML::Node n = item["name"], s = item["score"];
      double v;
      if (!yamlNumber(s.Scalar(), v)) {
        c.malformed(at(s.Mark(), s.Scalar().size()), "the score is not a number");
        ok = false;
        continue;
      }
      if (n.Scalar().empty()) {
        c.malformed(at(n.Mark(), 1), "empty name");
        ok = false;
        continue;
      }
      if (!b.add(stripLayerScope(n.Scalar()), v, at(n.Mark(), n.Scalar().size()),
                 at(s.Mark(), s.Scalar().size()), static_cast<uint32_t>(n.Mark().line + 1)))
        ok = false;
      if (b.tooMany())
        return false;
    }
    if (ok && c.out.entries.empty()) {
      c.malformed(at(list.Mark(), 1), "'layer_scores' is empty");
      return false;
    }
    return ok;
  } catch (const YAML::Exception &e) {
    c.malformed(at(e.mark, 1), "unexpected YAML structure: " + e.msg);
    return false;
  }
}

// ---- HMCT node sensitivity JSON ----------------------------------------------------------

bool readHmctJson(Ctx &c) {
  c.out.format = "hmct-json";
  SourceManager &sm = c.sm();
  const std::string &text = sm.text(c.file);
  auto at = [&](uint32_t o, uint32_t len) {
    return sm.range(c.file, o, o + std::max<uint32_t>(len, 1));
  };
  uint32_t off = 0;
  std::string why, dupKey;
  std::vector<uint32_t> dupPath;
  if (!checkJson(text, off, why, &dupPath, &dupKey)) {
    if (dupPath.size() != 1) {
      c.malformed(at(off, 1), why);
      return false;
    }
    // A node listed twice: the same error as in every other format, with the first one noted.
    // Node names are underlined with their quotes, as the JSON token they are.
    Diagnostic &d = c.diags.report(DiagID::err_scores_duplicate,
                                   at(off, static_cast<uint32_t>(dupKey.size() + 2)), {dupKey});
    std::string quoted = "\"" + dupKey + "\"";
    for (uint32_t k : jsonMemberOffsets(text, locateJson(text, {}).value_or(0)))
      if (k < off && text.compare(k, quoted.size(), quoted) == 0) {
        c.diags.note(d, DiagID::note_reader_first_here,
                     at(k, static_cast<uint32_t>(dupKey.size() + 2)), {dupKey});
        break;
      }
    return false;
  }
  uint32_t root = locateJson(text, {}).value_or(0);
  std::vector<JsonMember> members = jsonObjectMembers(text, root);
  if (members.empty()) {
    c.malformed(at(root, 1), "HMCT node sensitivity is a non-empty object {node: {metric: value}}");
    return false;
  }
  ScoresBuilder b(c.out, c.diags, c.limits);
  bool ok = true;
  for (const JsonMember &member : members) {
    uint32_t keyOff = member.keyOffset;
    const std::string &node = member.key;
    const nlohmann::ordered_json metrics =
        nlohmann::ordered_json::parse(member.valueText, nullptr, false);
    SourceRange nameAt = at(keyOff, static_cast<uint32_t>(node.size() + 2));
    if (!metrics.is_object() || metrics.empty()) {
      c.malformed(nameAt, "the value of '" + node + "' must be an object {metric: value}");
      ok = false;
      continue;
    }
    if (c.out.metric.empty()) {
      c.out.metric = metrics.begin().key();
      c.out.higherIsMoreSensitive = !isSimilarityMetric(c.out.metric);
    }
    if (!metrics.contains(c.out.metric)) {
      c.malformed(nameAt, "'" + node + "' has no '" + c.out.metric + "' value");
      ok = false;
      continue;
    }
    // Locate the metric's value for a precise caret.
    std::vector<uint32_t> inner = jsonMemberOffsets(text, jsonValueOffset(text, keyOff));
    uint32_t mi = 0, valOff = keyOff;
    for (auto m = metrics.begin(); m != metrics.end(); ++m, ++mi)
      if (m.key() == c.out.metric && mi < inner.size())
        valOff = jsonValueOffset(text, inner[mi]);
    const auto &v = metrics[c.out.metric];
    double score;
    std::string shown;
    if (v.is_number()) {
      score = v.get<double>();
    } else if (v.is_string() && yamlNumber(v.get<std::string>(), score)) {
      // values are strings in hmct's dict
    } else {
      c.malformed(at(valOff, 1),
                  "the '" + c.out.metric + "' value of '" + node + "' is not a number");
      ok = false;
      continue;
    }
    if (!b.add(node, score, nameAt, at(valOff, 1), sm.locate(c.file, keyOff).line))
      ok = false;
    if (b.tooMany())
      return false;
  }
  return ok;
}

// ---- HMCT log table ----------------------------------------------------------------------

bool isRule(std::string_view t, char ch) {
  t = trim(t);
  return t.size() >= 3 && t.find_first_not_of(std::string(1, ch) + " ") == std::string_view::npos;
}

// The index of the `Node ...` header line followed by a dashes line, or -1.
long findHmctHeader(const std::vector<Line> &lines) {
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    std::vector<Token> t = tokenize(lines[i].text);
    if (t.size() >= 2 && t[0].text == "Node" && isRule(lines[i + 1].text, '-'))
      return static_cast<long>(i);
  }
  return -1;
}

bool readHmctLog(Ctx &c, size_t header) {
  c.out.format = "hmct-log";
  std::vector<Token> head = tokenize(c.lines[header].text);
  c.out.metric = std::string(head[1].text);
  c.out.higherIsMoreSensitive = !isSimilarityMetric(c.out.metric);
  ScoresBuilder b(c.out, c.diags, c.limits);
  bool ok = true;
  for (size_t i = header + 2; i < c.lines.size(); ++i) {
    const Line &l = c.lines[i];
    if (trim(l.text).empty() || isRule(l.text, '='))
      break;
    std::vector<Token> t = tokenize(l.text);
    if (t.size() != head.size()) {
      c.malformed(c.whole(l), "expected a node name and " + std::to_string(head.size() - 1) +
                                  " value(s), found " + std::to_string(t.size()) + " field(s)");
      ok = false;
      continue;
    }
    double v;
    if (!parseNumber(t[1].text, v)) {
      c.malformed(c.at(l, t[1].offset, static_cast<uint32_t>(t[1].text.size())),
                  "the score is not a number");
      ok = false;
      continue;
    }
    SourceRange nameAt = c.at(l, t[0].offset, static_cast<uint32_t>(t[0].text.size()));
    if (startsWith(t[0].text, "..."))
      c.diags.report(DiagID::warn_scores_truncated_name, nameAt, {std::string(t[0].text)});
    if (!b.add(std::string(t[0].text), v, nameAt,
               c.at(l, t[1].offset, static_cast<uint32_t>(t[1].text.size())), l.number))
      ok = false;
    if (b.tooMany())
      return false;
  }
  if (ok && c.out.entries.empty()) {
    c.malformed(c.whole(c.lines[header]), "the node sensitivity table has no rows");
    return false;
  }
  return ok;
}

// ---- Horizon QuantAnalysis sensitivity table ---------------------------------------------

std::string withoutBars(std::string_view s) {
  std::string r(s);
  for (char &ch : r)
    if (ch == '|')
      ch = ' ';
  return r;
}

bool isSeparator(std::string_view t) {
  t = trim(t);
  return !t.empty() && t.find_first_not_of("-=+| ") == std::string_view::npos;
}

bool looksLikeHorizonRow(std::string_view text) {
  std::string s = withoutBars(text);
  std::vector<Token> t = tokenize(s);
  double v;
  return t.size() >= 4 && t.size() <= 6 && (t[1].text == "activation" || t[1].text == "weight") &&
         parseNumber(t[3].text, v);
}

bool looksLikeHorizonTable(const std::vector<Line> &lines) {
  for (const Line &l : lines) {
    if (trim(l.text).empty() || isSeparator(l.text))
      continue;
    std::string s = withoutBars(l.text);
    std::vector<Token> t = tokenize(s);
    return (!t.empty() && t[0].text == "op_name") || looksLikeHorizonRow(l.text);
  }
  return false;
}

bool readHorizonTable(Ctx &c) {
  c.out.format = "horizon-table";
  c.out.metric = "atol";
  ScoresBuilder b(c.out, c.diags, c.limits);
  std::unordered_map<std::string, std::string> kindOf; // op_name -> sensitive_type first seen
  bool ok = true, sawHeader = false;
  for (const Line &l : c.lines) {
    if (trim(l.text).empty() || isSeparator(l.text))
      continue;
    std::string s = withoutBars(l.text);
    std::vector<Token> t = tokenize(s);
    if (!sawHeader && t[0].text == "op_name") {
      sawHeader = true;
      if (t.size() >= 4)
        c.out.metric = std::string(t[3].text);
      continue;
    }
    if (t.size() < 4 || t.size() > 6) {
      c.malformed(c.whole(l),
                  "expected 'op_name sensitive_type op_type metric [dtype] [flops]', found " +
                      std::to_string(t.size()) + " column(s)");
      ok = false;
      continue;
    }
    double v;
    if (!parseNumber(t[3].text, v)) {
      c.malformed(c.at(l, t[3].offset, static_cast<uint32_t>(t[3].text.size())),
                  "the score is not a number");
      ok = false;
      continue;
    }
    std::string name(t[0].text), kind(t[1].text);
    auto k = kindOf.find(name);
    if (k != kindOf.end() && k->second != kind)
      continue; // the same op's other input kind: its first (more sensitive) row counts
    kindOf.emplace(name, kind);
    if (!b.add(name, v, c.at(l, t[0].offset, static_cast<uint32_t>(t[0].text.size())),
               c.at(l, t[3].offset, static_cast<uint32_t>(t[3].text.size())), l.number))
      ok = false;
    if (b.tooMany())
      return false;
  }
  c.out.higherIsMoreSensitive = !isSimilarityMetric(c.out.metric);
  if (ok && c.out.entries.empty()) {
    c.malformed(SourceRange{c.file, {}, {}}, "the sensitivity table has no rows");
    return false;
  }
  return ok;
}

} // namespace

bool readScores(const std::string &path, ir::Scores &out, DiagnosticEngine &diags,
                SourceRange requestedAt, const ReaderLimits &limits) {
  out = ir::Scores{};
  SourceManager &sm = diags.sourceManager();
  std::string err;
  FileID f = sm.loadFile(path, err, limits.maxFileBytes);
  if (!f) {
    diags.report(DiagID::err_cannot_open_file, requestedAt, {path, err});
    return false;
  }
  QuoteNothingFrom unquoted(sm, f);
  std::string_view text = sm.text(f);
  std::vector<Line> lines = splitLines(text);
  if (!lines.empty() && startsWith(lines[0].text, "\xEF\xBB\xBF"))
    lines[0].text.remove_prefix(3); // columns on line 1 then count from after the BOM
  Ctx c{f, lines, out, diags, limits};
  std::string_view body = trim(text);
  if (startsWith(body, "\xEF\xBB\xBF"))
    body = trim(body.substr(3));
  bool yaml = false;
  for (const Line &l : lines)
    if (startsWith(l.text, "layer_scores:") ||
        l.text.find("\"layer_scores\"") != std::string_view::npos) {
      yaml = true;
      break;
    }
  if (text.substr(0, 4096).find('\0') != std::string_view::npos || body.empty()) {
    // binary or empty: nothing to recognise
  } else if (size_t bad = bounded::firstInvalidUtf8(text); bad != std::string_view::npos) {
    // Every scores format is UTF-8 (ir/BoundedInput.h); the message names the place only.
    uint32_t o = static_cast<uint32_t>(bad);
    diags.report(DiagID::err_scores_malformed, sm.range(f, o, o + 1), {"invalid UTF-8"});
    return false;
  } else if (startsWith(body, "{") && !yaml) {
    return readHmctJson(c);
  } else if (size_t deep = bounded::nestingPastLimit(text, bounded::Syntax::Yaml);
             yaml && deep != std::string_view::npos) {
    // Counted before yaml-cpp builds anything (it spends time on every level).
    uint32_t o = static_cast<uint32_t>(deep);
    diags.report(DiagID::err_scores_malformed, sm.range(f, o, o + 1),
                 {"YAML nested deeper than " + std::to_string(bounded::kMaxNesting) + " levels"});
    return false;
  } else if (yaml) {
    return readAnalysisYaml(c);
  } else if (looksLikeMsModelSlimLog(lines)) {
    return readMsModelSlimLog(c);
  } else if (long h = findHmctHeader(lines); h >= 0) {
    return readHmctLog(c, static_cast<size_t>(h));
  } else if (looksLikeHorizonTable(lines)) {
    return readHorizonTable(c);
  }
  out.format.clear();
  diags.report(DiagID::err_scores_unknown_format, SourceRange{f, {}, {}}, {path});
  return false;
}

} // namespace qspec::readers
