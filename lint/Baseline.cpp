// Baselines (Lint.h): a JSON file listing the findings a team accepts for now, so qlint can be
// adopted on old files and still fail on new findings.
//
//   {"qlint-baseline": 1,
//    "findings": [{"path": "specs/a.qspec", "rule": "spec-group-unused",
//                  "fingerprint": "0f3c...:1", "message": "..."}]}
//
// `path` is relative to the baseline's folder; `fingerprint` is the SARIF one (the rule and the
// trimmed source line, plus the count of identical ones), so moving a line keeps its entry,
// editing it or adding another identical finding does not. `message` is for readers only.
#include "emitters/Emitter.h"
#include "ir/BoundedInput.h"
#include "lint/Lint.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

namespace qspec::lint {
namespace fs = std::filesystem;
namespace {

using Key = std::tuple<std::string, std::string, std::string>; // path, rule, fingerprint

std::string relativeTo(const std::string &baseline, const std::string &path) {
  std::error_code ec;
  fs::path dir = fs::absolute(baseline, ec).lexically_normal().parent_path();
  return fs::absolute(path, ec).lexically_normal().lexically_relative(dir).generic_string();
}

bool readKeys(const std::string &file, std::set<Key> &keys, std::string &error) {
  std::string text;
  if (bounded::Problem p = bounded::readBoundedFile(file, text)) {
    error = "cannot read baseline '" + file + "': " + bounded::reason(p);
    return false;
  }
  if (bounded::Problem p = bounded::checkJsonDocument(text)) {
    error = "'" + file + "' is not a qlint baseline: " + p.message;
    return false;
  }
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("qlint-baseline", 0) != 1 ||
      !j.contains("findings") || !j["findings"].is_array()) {
    error = "'" + file + "' is not a qlint baseline (write one with --write-baseline)";
    return false;
  }
  for (const auto &f : j["findings"]) {
    if (!f.is_object() || !f.contains("path") || !f.contains("rule") ||
        !f.contains("fingerprint") || !f["path"].is_string() || !f["rule"].is_string() ||
        !f["fingerprint"].is_string()) {
      error = "'" + file + "': each finding needs string 'path', 'rule' and 'fingerprint'";
      return false;
    }
    keys.insert({f["path"].get<std::string>(), f["rule"].get<std::string>(),
                 f["fingerprint"].get<std::string>()});
  }
  return true;
}

} // namespace

bool writeBaseline(const std::string &file, const std::vector<FileResult> &results,
                   std::string &error) {
  nlohmann::json findings = nlohmann::json::array();
  for (const FileResult &r : results) {
    std::vector<std::string> prints = fingerprints(r);
    std::string path = relativeTo(file, r.path);
    for (size_t k = 0; k < r.findings.size(); ++k)
      findings.push_back({{"path", path},
                          {"rule", r.findings[k].code},
                          {"fingerprint", prints[k]},
                          {"message", r.findings[k].message}});
  }
  nlohmann::json out = {{"qlint-baseline", 1}, {"findings", findings}};
  std::string text = out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  return emit::writeFileAtomically(file, text, error);
}

bool applyBaseline(const std::string &file, std::vector<FileResult> &results, unsigned &dropped,
                   std::string &error) {
  std::set<Key> keys;
  if (!readKeys(file, keys, error))
    return false;
  dropped = 0;
  for (FileResult &r : results) {
    std::vector<std::string> prints = fingerprints(r);
    std::string path = relativeTo(file, r.path);
    std::vector<Diagnostic> kept;
    for (size_t k = 0; k < r.findings.size(); ++k) {
      if (keys.erase({path, r.findings[k].code, prints[k]}))
        ++dropped;
      else
        kept.push_back(std::move(r.findings[k]));
    }
    r.findings = std::move(kept);
  }
  return true;
}

} // namespace qspec::lint
