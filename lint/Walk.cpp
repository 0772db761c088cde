// expandInputs: the command line's paths to the files qlint lints (Lint.h).
#include "frontend/Frontend.h"
#include "lint/Config.h"
#include "lint/Context.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
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

void walkFolder(const std::string &dir, const Options &opts, std::vector<std::string> &paths) {
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

// The git work tree holding `dir`: the nearest folder, from `dir` up, with a `.git` entry (a
// folder, or a file in a linked work tree or a submodule); "" outside one. Found by looking, not
// by asking git: the hook names hundreds of files, and one git call per run is the budget.
std::string workTreeOf(const fs::path &dir) {
  std::error_code ec;
  for (fs::path p = fs::absolute(dir, ec).lexically_normal(); !ec; p = p.parent_path()) {
    if (fs::exists(p / ".git", ec))
      return p.string();
    if (p == p.root_path() || p.parent_path() == p)
      break;
  }
  return "";
}

std::string canonical(const std::string &path) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(path, ec);
  return ec ? path : c.string();
}

// `path` as the user would write it: relative to the current folder when it is under it.
std::string shownPath(const std::string &path) {
  std::error_code ec;
  fs::path rel = fs::path(path).lexically_relative(fs::current_path(ec));
  if (ec || rel.empty() || *rel.begin() == "..")
    return path;
  return rel.string();
}

// The files `spec` reads besides itself: its includes, and the inventory, ONNX graph and scores
// files its blocks name (resolved, not opened).
std::vector<std::string> specInputs(const std::string &spec) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  diags.setErrorLimit(0);
  frontend::FrontendOptions fo;
  fo.loadInputs = false;
  ir::Spec s;
  {
    std::lock_guard<std::mutex> lock(frontendMutex());
    auto root = frontend::parseFile(spec, diags, fo);
    if (root)
      frontend::buildSpec(*root, spec, s, diags, fo);
  }
  std::vector<std::string> out;
  for (FileID id = 1; !sm.path(id).empty(); ++id)
    out.push_back(sm.path(id));
  for (const std::string *p : {&s.inventory.path, &s.modelConfig.path, &s.scores.path,
                               &s.tune.scoresPath, &s.onnx.path, &s.onnx.mapPath})
    if (!p->empty())
      out.push_back(*p);
  for (const ir::GroupDecl &g : s.groups)
    if (!g.scoresPath.empty())
      out.push_back(g.scoresPath);
  return out;
}

// Which specs read which inputs, for one run. A spec's inputs come from its own text (the files
// its includes splice in, and the model, tune and group blocks' file names), parsed without
// loading any input: finding the readers of a changed inventory costs one parse per spec, and
// only the specs that read it are linted. Paths are canonical, each computed once.
class SpecIndex {
public:
  // The specs (as shown) that read `file` (canonical), indexing the specs of the work tree
  // holding `dir` (or, outside one, under `dir`) on first use.
  const std::vector<std::string> &readersOf(const std::string &file, const std::string &dir) {
    std::string tree = workTreeOf(dir.empty() ? "." : dir);
    if (tree.empty())
      tree = canonical(dir.empty() ? "." : dir);
    if (indexed_.insert(tree).second)
      for (const std::string &spec : specsUnder(tree))
        addSpec(spec);
    static const std::vector<std::string> none;
    auto it = readers_.find(file);
    return it == readers_.end() ? none : it->second;
  }

private:
  // The .qspec files of the work tree `tree` (one `git ls-files`), or of the folder outside one.
  std::vector<std::string> specsUnder(const std::string &tree) {
    std::vector<std::string> out;
    std::string list;
    if (runGit(tree,
               {"ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "*.qspec"},
               list)) {
      for (size_t i = 0; i < list.size();) {
        size_t e = list.find('\0', i);
        if (e == std::string::npos)
          e = list.size();
        if (e > i)
          out.push_back(shownPath((fs::path(tree) / list.substr(i, e - i)).string()));
        i = e + 1;
      }
      return out;
    }
    Options none;
    none.useConfig = false;
    std::vector<std::string> found;
    walkFolder(tree, none, found);
    for (const std::string &f : found)
      if (fs::path(f).extension() == ".qspec")
        out.push_back(shownPath(f));
    return out;
  }

  void addSpec(const std::string &spec) {
    std::string key = canonical(spec);
    if (!specs_.insert(key).second)
      return;
    std::set<std::string> inputs;
    for (const std::string &in : specInputs(spec))
      inputs.insert(canonical(in));
    inputs.erase(key);
    for (const std::string &in : inputs)
      readers_[in].push_back(spec);
  }

  std::set<std::string> indexed_, specs_;
  std::map<std::string, std::vector<std::string>> readers_;
};

} // namespace

void lintSpecsReading(std::vector<FileResult> &results, const std::vector<std::string> &inputs,
                      const Options &opts) {
  std::set<std::string> named(inputs.begin(), inputs.end());
  std::set<std::string> given; // canonical paths of the linted specs
  bool anyInput = false;
  for (const FileResult &r : results) {
    if (r.kind == FileKind::QSpec)
      given.insert(canonical(r.path));
    anyInput = anyInput || (r.kind == FileKind::Unknown && named.count(r.path));
  }
  if (!anyInput)
    return;
  SpecIndex index;
  std::map<std::string, std::string> added; // canonical -> as shown, sorted by canonical path
  std::vector<bool> replaced(results.size(), false);
  for (size_t i = 0; i < results.size(); ++i) {
    const FileResult &r = results[i];
    if (r.kind != FileKind::Unknown || !r.internalError.empty() || !named.count(r.path))
      continue;
    for (const std::string &spec :
         index.readersOf(canonical(r.path), fs::path(r.path).parent_path().string())) {
      replaced[i] = true;
      std::string key = canonical(spec);
      if (!given.count(key))
        added.emplace(key, spec);
    }
  }
  std::vector<std::string> toLint;
  for (const auto &entry : added)
    toLint.push_back(entry.second);
  std::vector<FileResult> kept;
  for (size_t i = 0; i < results.size(); ++i)
    if (!replaced[i])
      kept.push_back(std::move(results[i]));
  for (FileResult &r : lintFiles(toLint, opts))
    kept.push_back(std::move(r));
  results = std::move(kept);
}

std::vector<std::string> expandInputs(const std::vector<std::string> &inputs, const Options &opts) {
  std::vector<std::string> paths;
  for (const std::string &in : inputs) {
    std::error_code ec;
    if (in != "-" && fs::is_directory(in, ec))
      walkFolder(in, opts, paths);
    else
      paths.push_back(in);
  }
  return paths;
}

std::vector<FileResult> lintInputs(const std::vector<std::string> &inputs, Options &opts) {
  opts.named = inputs;
  std::vector<FileResult> results = lintFiles(expandInputs(inputs, opts), opts);
  lintSpecsReading(results, inputs, opts);
  return results;
}

} // namespace qspec::lint
