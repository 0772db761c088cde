#include "lint/Config.h"
#include "frontend/readers/Readers.h"
#include "ir/BoundedInput.h"
#include "vendors/amct/AmctRules.h"

#include <yaml-cpp/yaml.h>

#include <fnmatch.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

namespace qspec::lint {
namespace fs = std::filesystem;

namespace {

struct SeverityRow {
  std::string selector;
  Severity severity;
};

struct Section {
  std::vector<std::string> select, ignore;
  std::vector<SeverityRow> severity;
  bool hasSelect = false;
  std::string inventory; // the model of the vendor files it covers (resolved), "" if not said
};

struct ProjectConfig {
  std::string path, dir;
  Section top;
  bool werror = false;
  std::string amctHardware;
  std::string amctFramework;
  std::vector<std::pair<std::string, Section>> perPath;
  std::vector<std::string> exclude; // globs relative to `dir`: not linted in directory walks
  bool confine = false;             // `confine: true`: specs below read only files below `dir`
  std::string error;
};

bool parseSeverity(const std::string &s, Severity &out) {
  if (s == "error")
    out = Severity::Error;
  else if (s == "warning")
    out = Severity::Warning;
  else if (s == "note" || s == "info")
    out = Severity::Note;
  else if (s == "off" || s == "ignore")
    out = Severity::Ignored;
  else
    return false;
  return true;
}

std::string where(const YAML::Node &n) {
  return std::to_string(n.Mark().line + 1) + ":" + std::to_string(n.Mark().column + 1);
}

bool readList(const YAML::Node &n, const char *key, std::vector<std::string> &out,
              std::string &err) {
  if (!n.IsSequence() && !n.IsScalar()) {
    err = where(n) + ": '" + key + "' must be a list of rule IDs, categories or prefixes";
    return false;
  }
  std::vector<YAML::Node> items;
  if (n.IsScalar())
    items.push_back(n);
  else
    for (const auto &i : n)
      items.push_back(i);
  for (const auto &i : items) {
    if (!i.IsScalar()) {
      err = where(i) + ": '" + key + "' entries must be strings";
      return false;
    }
    std::string s = i.Scalar();
    if (!isValidSelector(s)) {
      err = where(i) + ": '" + s + "' selects no qlint rule (see qlint --list-rules)";
      return false;
    }
    out.push_back(s);
  }
  return true;
}

// `exclude`: a list of globs (strings).
bool readGlobs(const YAML::Node &v, std::vector<std::string> &out, std::string &err) {
  if (!v.IsSequence()) {
    err = where(v) + ": 'exclude' must be a list of globs";
    return false;
  }
  for (const auto &item : v) {
    if (!item.IsScalar() || item.Scalar().empty()) {
      err = where(item) + ": each 'exclude' entry must be a glob such as \"legacy/*\"";
      return false;
    }
    out.push_back(item.Scalar());
  }
  return true;
}

bool readSection(const YAML::Node &n, Section &s, bool top, ProjectConfig &cfg, std::string &err) {
  if (!n.IsMap()) {
    err = where(n) + ": expected a mapping";
    return false;
  }
  for (const auto &kv : n) {
    std::string key = kv.first.Scalar();
    const YAML::Node &v = kv.second;
    if (key == "select") {
      s.hasSelect = true;
      if (!readList(v, "select", s.select, err))
        return false;
    } else if (key == "ignore") {
      if (!readList(v, "ignore", s.ignore, err))
        return false;
    } else if (key == "severity") {
      if (!v.IsMap()) {
        err = where(v) + ": 'severity' must map rule selectors to error, warning, note or off";
        return false;
      }
      for (const auto &r : v) {
        Severity sev;
        std::string sel = r.first.Scalar();
        if (!isValidSelector(sel)) {
          err = where(r.first) + ": '" + sel + "' selects no qlint rule";
          return false;
        }
        if (!r.second.IsScalar() || !parseSeverity(r.second.Scalar(), sev)) {
          err = where(r.second) + ": severity must be error, warning, note or off";
          return false;
        }
        s.severity.push_back({sel, sev});
      }
    } else if (top && key == "werror") {
      if (!v.IsScalar() || !YAML::convert<bool>::decode(v, cfg.werror)) {
        err = where(v) + ": 'werror' must be true or false";
        return false;
      }
    } else if (top && key == "amct-hardware") {
      if (!v.IsScalar()) {
        err = where(v) + ": 'amct-hardware' must be a string such as Ascend950PR";
        return false;
      }
      if (std::string why = amct::checkHardwareName(v.Scalar()); !why.empty()) {
        err = where(v) + ": 'amct-hardware': " + why;
        return false;
      }
      cfg.amctHardware = v.Scalar();
    } else if (top && key == "amct-framework") {
      auto fw = v.IsScalar() ? amct::parseFramework(v.Scalar()) : std::nullopt;
      if (!fw) {
        err = where(v) + ": 'amct-framework' must be one of " + amct::knownFrameworkList();
        return false;
      }
      cfg.amctFramework = amct::frameworkName(*fw);
    } else if (key == "inventory") {
      if (!v.IsScalar() || v.Scalar().empty()) {
        err = where(v) + ": 'inventory' must be the path of the model's inventory (a safetensors "
                         "index, an ONNX model or a manifest)";
        return false;
      }
      s.inventory = (fs::path(cfg.dir) / v.Scalar()).lexically_normal().string();
    } else if (top && key == "confine") {
      if (!v.IsScalar() || !YAML::convert<bool>::decode(v, cfg.confine)) {
        err = where(v) + ": 'confine' must be true or false";
        return false;
      }
    } else if (top && key == "exclude") {
      if (!readGlobs(v, cfg.exclude, err))
        return false;
    } else if (top && key == "per-path") {
      if (!v.IsSequence()) {
        err = where(v) + ": 'per-path' must be a list of {path, select, ignore, severity}";
        return false;
      }
      for (const auto &item : v) {
        if (!item.IsMap() || !item["path"] || !item["path"].IsScalar()) {
          err = where(item) + ": each 'per-path' entry needs a 'path' glob";
          return false;
        }
        Section sub;
        YAML::Node copy = YAML::Clone(item);
        copy.remove("path");
        if (!readSection(copy, sub, false, cfg, err))
          return false;
        cfg.perPath.emplace_back(item["path"].Scalar(), std::move(sub));
      }
    } else if (key != "path" || top) {
      err = where(kv.first) + ": unknown key '" + key +
            "' (known: select, ignore, severity, werror, amct-hardware, amct-framework, inventory, "
            "per-path, exclude, confine)";
      return false;
    }
  }
  return true;
}

// An empty config (or one of comments only) reads as null and means "the defaults"; yaml-cpp also
// reads some malformed text as null (a leading ','), which must not pass as empty.
bool onlyCommentsOrBlank(const std::string &text) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string::npos && line[first] != '#' && line.compare(first, 3, "---") != 0)
      return false;
  }
  return true;
}

// A project config is a page of settings; anything larger is not one.
constexpr uint64_t kMaxConfigBytes = uint64_t(1) << 20;

std::shared_ptr<ProjectConfig> loadConfig(const fs::path &file) {
  auto cfg = std::make_shared<ProjectConfig>();
  cfg->path = file.string();
  cfg->dir = file.parent_path().string();
  // A checkout may plant anything as .qlint.yaml: read it through the bounded-input layer (a
  // FIFO refused without waiting, at most 1 MiB, flow nesting counted before yaml-cpp runs).
  std::string text;
  bounded::ReadOptions opt;
  opt.maxBytes = kMaxConfigBytes;
  if (bounded::Problem p = bounded::readBoundedFile(cfg->path, text, opt)) {
    cfg->error = cfg->path + ": cannot read: " + bounded::reason(p);
    return cfg;
  }
  if (size_t deep = bounded::nestingPastLimit(text, bounded::Syntax::Yaml);
      deep != std::string::npos) {
    uint32_t l = 0, c = 0;
    bounded::lineColumn(text, deep, l, c);
    cfg->error = cfg->path + ":" + std::to_string(l) + ":" + std::to_string(c) +
                 ": YAML nested deeper than " + std::to_string(bounded::kMaxNesting) + " levels";
    return cfg;
  }
  uint32_t line = 0, col = 0;
  if (!readers::checkYamlAliases(text, readers::kMaxYamlAliasNodes, line, col)) {
    cfg->error = cfg->path + ":" + std::to_string(line) + ":" + std::to_string(col) +
                 ": YAML aliases expand to more than " +
                 std::to_string(readers::kMaxYamlAliasNodes) + " nodes";
    return cfg;
  }
  try {
    YAML::Node root = YAML::Load(text);
    if (root.IsNull() && !onlyCommentsOrBlank(text))
      cfg->error =
          cfg->path + ":1:1: the config must be a YAML mapping (keys: select, ignore, ...)";
    if (root.IsNull())
      return cfg;
    std::string err;
    if (!readSection(root, cfg->top, true, *cfg, err))
      cfg->error = cfg->path + ":" + err;
  } catch (const YAML::Exception &e) {
    cfg->error = cfg->path + ":" + std::to_string(e.mark.line + 1) + ":" +
                 std::to_string(e.mark.column + 1) + ": " + e.msg;
  }
  return cfg;
}

std::mutex gCacheMutex;
std::map<std::string, std::shared_ptr<ProjectConfig>> gByDir; // directory -> config (or null)

std::shared_ptr<ProjectConfig> configFor(const fs::path &dir) {
  std::lock_guard<std::mutex> lock(gCacheMutex);
  std::vector<std::string> visited;
  fs::path d = dir;
  std::shared_ptr<ProjectConfig> found;
  while (true) {
    auto it = gByDir.find(d.string());
    if (it != gByDir.end()) {
      found = it->second;
      break;
    }
    visited.push_back(d.string());
    std::error_code ec;
    fs::path candidate = d / ".qlint.yaml";
    if (fs::is_regular_file(candidate, ec)) {
      found = loadConfig(candidate);
      break;
    }
    if (!d.has_parent_path() || d.parent_path() == d)
      break;
    d = d.parent_path();
  }
  for (const auto &v : visited)
    gByDir[v] = found;
  return found;
}

void applySection(const Section &s, EffectiveRules &out, bool replaceSelect) {
  const auto &rules = allRules();
  if (s.hasSelect) {
    for (size_t i = 0; i < rules.size(); ++i) {
      bool sel = false;
      for (const auto &x : s.select)
        sel = sel || selectorMatches(x, rules[i]);
      out.enabled[i] = replaceSelect ? sel : (out.enabled[i] || sel);
    }
  }
  for (size_t i = 0; i < rules.size(); ++i)
    for (const auto &x : s.ignore)
      if (selectorMatches(x, rules[i]))
        out.enabled[i] = false;
  for (const auto &row : s.severity)
    for (size_t i = 0; i < rules.size(); ++i)
      if (selectorMatches(row.selector, rules[i])) {
        if (row.severity == Severity::Ignored)
          out.enabled[i] = false;
        else {
          out.severity[i] = row.severity;
          out.configured[i] = true;
        }
      }
}

} // namespace

bool isExcluded(const std::string &path) {
  std::error_code ec;
  fs::path abs = fs::absolute(path, ec).lexically_normal();
  std::shared_ptr<ProjectConfig> cfg = configFor(abs.parent_path());
  if (!cfg || !cfg->error.empty() || cfg->exclude.empty())
    return false;
  // The file, and each folder above it up to the config's: `legacy` excludes legacy/a/b.qspec.
  for (fs::path rel = abs.lexically_relative(cfg->dir); !rel.empty() && rel != ".";
       rel = rel.parent_path())
    for (const std::string &glob : cfg->exclude)
      if (fnmatch(glob.c_str(), rel.generic_string().c_str(), 0) == 0)
        return true;
  return false;
}

bool effectiveRules(const std::string &path, const Options &opts, EffectiveRules &out,
                    std::string &error) {
  const auto &rules = allRules();
  out.enabled.assign(rules.size(), true);
  out.severity.clear();
  for (const auto &r : rules)
    out.severity.push_back(r.severity);
  out.configured.assign(rules.size(), false);
  out.promote.assign(rules.size(), false);
  out.amctHardware = opts.amctHardware;
  out.amctFramework = opts.amctFramework;
  out.root = opts.root;
  bool werror = opts.werror;

  std::shared_ptr<ProjectConfig> cfg;
  if (opts.useConfig) {
    std::error_code ec;
    fs::path abs = fs::absolute(path, ec);
    cfg = configFor(abs.parent_path());
    if (cfg && !cfg->error.empty()) {
      error = "invalid config " + cfg->error;
      return false;
    }
  }
  out.vendorInventory = !opts.inventory.empty() ? opts.inventory : opts.onnx;
  if (cfg) {
    out.configPath = cfg->path;
    applySection(cfg->top, out, true);
    std::string inventory = cfg->top.inventory; // the last matching per-path entry's wins
    std::error_code ec;
    std::string rel = fs::absolute(path, ec).lexically_relative(cfg->dir).generic_string();
    for (const auto &[glob, sec] : cfg->perPath)
      if (fnmatch(glob.c_str(), rel.c_str(), 0) == 0) {
        applySection(sec, out, false);
        if (!sec.inventory.empty())
          inventory = sec.inventory;
      }
    if (out.vendorInventory.empty())
      out.vendorInventory = inventory;
    werror = werror || cfg->werror;
    if (out.amctHardware.empty())
      out.amctHardware = cfg->amctHardware;
    if (out.amctFramework.empty())
      out.amctFramework = cfg->amctFramework;
    if (out.root.empty() && cfg->confine)
      out.root = cfg->dir;
  }
  // Command line last.
  if (!opts.select.empty())
    for (size_t i = 0; i < rules.size(); ++i) {
      bool sel = false;
      for (const auto &x : opts.select)
        sel = sel || selectorMatches(x, rules[i]);
      out.enabled[i] = sel;
    }
  for (size_t i = 0; i < rules.size(); ++i) {
    for (const auto &x : opts.ignore)
      if (selectorMatches(x, rules[i]))
        out.enabled[i] = false;
    bool promote = werror;
    for (const auto &x : opts.werrorRules)
      promote = promote || selectorMatches(x, rules[i]);
    out.promote[i] = promote;
  }
  return true;
}

} // namespace qspec::lint
