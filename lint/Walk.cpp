// expandInputs: the command line's paths to the files qlint lints (Lint.h).
#include "lint/Config.h"
#include "lint/Context.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace qspec::lint {
namespace fs = std::filesystem;
namespace {

bool lintable(const fs::path &p) {
  std::string e = p.extension().string();
  for (char &c : e)
    c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  return e == ".qspec" || e == ".yaml" || e == ".yml" || e == ".cfg" || e == ".json" ||
         e == ".jsonc";
}

// The files under `dir` that git does not ignore (tracked, or untracked and not matched by any
// .gitignore, .git/info/exclude or core.excludesFile), relative to `dir`; false outside a git
// work tree or without git.
bool gitVisible(const std::string &dir, std::set<std::string> &out) {
  std::string list, ignored;
  std::error_code ec;
  // A directory named on the command line is linted even if it is itself ignored (a build tree):
  // its own .gitignore-d entries are what is skipped.
  if (runGit(dir, {"check-ignore", "-q", fs::absolute(dir, ec).lexically_normal().string()},
             ignored))
    return false;
  if (!runGit(dir, {"ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "."},
              list))
    return false;
  for (size_t i = 0; i < list.size();) {
    size_t e = list.find('\0', i);
    if (e == std::string::npos)
      e = list.size();
    out.insert(list.substr(i, e - i));
    i = e + 1;
  }
  return true;
}

void walk(const std::string &dir, const Options &opts, std::vector<std::string> &paths) {
  std::set<std::string> visible;
  bool useGit = gitVisible(dir, visible);
  std::vector<std::string> found;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!name.empty() && name[0] == '.') {
      if (it->is_directory(ec))
        it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(ec) || !lintable(it->path()))
      continue;
    if (useGit && !visible.count(it->path().lexically_relative(dir).generic_string()))
      continue;
    if (opts.useConfig && isExcluded(it->path().string()))
      continue;
    found.push_back(it->path().string());
  }
  std::sort(found.begin(), found.end());
  paths.insert(paths.end(), found.begin(), found.end());
}

// The .qspec files of the git work tree holding `dir` (or, outside one, under `dir`).
std::vector<std::string> specsAround(const std::string &dir) {
  std::string top;
  std::vector<std::string> out;
  if (runGit(dir, {"rev-parse", "--show-toplevel"}, top)) {
    while (!top.empty() && (top.back() == '\n' || top.back() == '\r'))
      top.pop_back();
    std::set<std::string> files;
    if (gitVisible(top, files))
      for (const std::string &f : files)
        if (fs::path(f).extension() == ".qspec")
          out.push_back((fs::path(top) / f).string());
    return out;
  }
  Options none;
  none.useConfig = false;
  std::vector<std::string> found;
  walk(dir.empty() ? "." : dir, none, found);
  for (const std::string &f : found)
    if (fs::path(f).extension() == ".qspec")
      out.push_back(f);
  return out;
}

std::string canonical(const std::string &path) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(path, ec);
  return ec ? path : c.string();
}

// Does the linted spec `r` read `file` (an inventory, scores file or include)?
bool reads(const FileResult &r, const std::string &file) {
  for (FileID id = 1; !r.sm->path(id).empty(); ++id)
    if (id != r.file && canonical(r.sm->path(id)) == file)
      return true;
  return false;
}

} // namespace

void lintSpecsReading(std::vector<FileResult> &results, const std::vector<std::string> &inputs,
                      const Options &opts) {
  std::set<std::string> named(inputs.begin(), inputs.end());
  std::map<std::string, FileResult>
      specs; // canonical path -> result: the given and the found specs
  for (const FileResult &r : results)
    if (r.kind == FileKind::QSpec)
      specs.emplace(canonical(r.path), r);
  std::set<std::string> given;
  for (const auto &entry : specs)
    given.insert(entry.first);
  std::set<std::string> addedKeys;
  std::vector<bool> replaced(results.size(), false);
  for (size_t i = 0; i < results.size(); ++i) {
    const FileResult &r = results[i];
    if (r.kind != FileKind::Unknown || !r.internalError.empty() || !named.count(r.path))
      continue;
    std::string file = canonical(r.path);
    for (const std::string &spec : specsAround(fs::path(r.path).parent_path().string())) {
      std::string key = canonical(spec);
      auto it = specs.find(key);
      if (it == specs.end())
        it = specs.emplace(key, lintFile(spec, opts)).first;
      if (it->second.internalError.empty() && it->second.file && reads(it->second, file)) {
        replaced[i] = true;
        if (!given.count(key))
          addedKeys.insert(key);
      }
    }
  }
  std::vector<FileResult> kept;
  for (size_t i = 0; i < results.size(); ++i)
    if (!replaced[i])
      kept.push_back(std::move(results[i]));
  for (const std::string &key : addedKeys) // sorted by path
    kept.push_back(std::move(specs[key]));
  results = std::move(kept);
}

std::vector<std::string> expandInputs(const std::vector<std::string> &inputs, const Options &opts) {
  std::vector<std::string> paths;
  for (const std::string &in : inputs) {
    std::error_code ec;
    if (in != "-" && fs::is_directory(in, ec))
      walk(in, opts, paths);
    else
      paths.push_back(in);
  }
  return paths;
}

} // namespace qspec::lint
