// The include tree of a spec: each `include` item replaced by the included file's items, within
// the spec's bounds (depth, files and bytes in all, the project root), and the path helpers the
// frontend resolves a spec's file names with.
#include "frontend/Frontend.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

namespace qspec::frontend {

using ast::Kind;
using ast::Node;
namespace fs = std::filesystem;

std::string resolvePath(const std::string &base, const std::string &rel) {
  if (rel.empty() || fs::path(rel).is_absolute())
    return rel;
  fs::path dir = fs::path(base).parent_path();
  return (dir / rel).lexically_normal().string();
}

bool insideRoot(const std::string &root, const std::string &path) {
  if (root.empty())
    return true;
  std::error_code ec;
  fs::path r = fs::weakly_canonical(fs::absolute(root, ec), ec);
  if (ec)
    return false;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec)
    return false;
  auto ri = r.begin(), pi = p.begin();
  for (; ri != r.end(); ++ri, ++pi) {
    if (ri->empty() && std::next(ri) == r.end())
      break; // a trailing separator
    if (pi == p.end() || *ri != *pi)
      return false;
  }
  return true;
}

namespace {

struct IncludeState {
  DiagnosticEngine &diags;
  const FrontendOptions &opts;
  std::vector<std::string> stack;        // canonical paths being parsed
  const std::string *mainText = nullptr; // parseText: the top-level file's text, not read from disk
  size_t includedFiles = 0;              // include items read so far (the root file not counted)
  uint64_t includedBytes = 0;            // their sizes added up
  bool budgetSpent = false;              // reported once; later includes are skipped
  // A file included more than once is read and parsed twice at most: its second parse is kept
  // (when it reported nothing, so a file's diagnostics still come at each include) and copied
  // for each later include. By canonical path; `includedOnce` holds those seen once so far.
  std::set<std::string> includedOnce = {};
  std::map<std::string, std::unique_ptr<Node>> reparsed = {};
};

// Counts one more included file of `bytes` against the spec's include budget.
bool withinIncludeBudget(IncludeState &st, uint64_t bytes, SourceRange at) {
  if (st.budgetSpent)
    return false;
  st.includedBytes += bytes;
  std::string over = ++st.includedFiles > st.opts.maxIncludedFiles
                         ? std::to_string(st.opts.maxIncludedFiles) + " files"
                     : st.includedBytes > st.opts.maxIncludedBytes
                         ? std::to_string(st.opts.maxIncludedBytes) + " bytes"
                         : "";
  if (over.empty())
    return true;
  st.diags.report(DiagID::err_include_budget, at, {over});
  st.budgetSpent = true;
  return false;
}

std::string canonical(const std::string &p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  return ec ? p : c.string();
}

std::unique_ptr<Node> spliceIncludes(std::unique_ptr<Node> root, const std::string &path,
                                     IncludeState &st);

// `canon`: the canonical form of `path`.
std::unique_ptr<Node> parseWithIncludes(const std::string &path, const std::string &canon,
                                        SourceRange requestedAt, IncludeState &st) {
  SourceManager &sm = st.diags.sourceManager();
  if (const std::string *text = std::exchange(st.mainText, nullptr)) {
    // parse() checks the size limit.
    auto root = parse(sm.addFile(path, *text), st.diags, st.opts.parseLimits);
    return root ? spliceIncludes(std::move(root), path, st) : nullptr;
  }
  // Say "too large" (with the sizes) rather than "cannot open" for an oversized file.
  std::error_code sizeEc;
  uintmax_t size = fs::is_regular_file(path, sizeEc) ? fs::file_size(path, sizeEc) : 0;
  if (!sizeEc && size > st.opts.parseLimits.maxFileBytes) {
    st.diags.report(DiagID::err_file_too_large, requestedAt,
                    {path, std::to_string(size), std::to_string(st.opts.parseLimits.maxFileBytes)});
    return nullptr;
  }
  if (requestedAt.valid() && !withinIncludeBudget(st, sizeEc ? 0 : size, requestedAt))
    return nullptr;
  if (auto kept = st.reparsed.find(canon); kept != st.reparsed.end())
    return spliceIncludes(kept->second->copy(), path, st);
  std::string err;
  FileID f = sm.loadFile(path, err, st.opts.parseLimits.maxFileBytes);
  if (!f) {
    if (requestedAt.valid())
      st.diags.report(DiagID::err_include_not_found, requestedAt, {path, err});
    else
      st.diags.report(DiagID::err_cannot_open_file, SourceRange{}, {path, err});
    return nullptr;
  }
  size_t reported = st.diags.diagnostics().size();
  auto root = parse(f, st.diags, st.opts.parseLimits);
  if (!root)
    return nullptr;
  if (requestedAt.valid() && !st.includedOnce.insert(canon).second &&
      st.diags.diagnostics().size() == reported)
    st.reparsed.emplace(canon, root->copy());
  return spliceIncludes(std::move(root), path, st);
}

bool endsWithQSpec(const std::string &path) {
  const std::string ext = ".qspec";
  return path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}

// Replaces each `include` item of `root` (parsed from `path`) by the included file's items.
std::unique_ptr<Node> spliceIncludes(std::unique_ptr<Node> root, const std::string &path,
                                     IncludeState &st) {
  std::vector<std::unique_ptr<Node>> items;
  bool ok = true;
  for (auto &child : root->children) {
    if (child->kind != Kind::Include) {
      items.push_back(std::move(child));
      continue;
    }
    const Node *target = child->first(Kind::String);
    std::string incPath = resolvePath(path, target->text);
    // Only specs are spliced in: another file parsed as a spec would have its lines quoted in
    // the syntax errors (`include "/etc/passwd"`).
    if (!endsWithQSpec(incPath)) {
      st.diags.report(DiagID::err_include_not_qspec, target->range, {target->text});
      ok = false;
      continue;
    }
    if (!insideRoot(st.opts.root, incPath)) {
      st.diags.report(DiagID::err_path_outside_root, target->range, {target->text, st.opts.root});
      ok = false;
      continue;
    }
    std::string canon = canonical(incPath);
    if (std::find(st.stack.begin(), st.stack.end(), canon) != st.stack.end()) {
      st.diags.report(DiagID::err_include_cycle, target->range, {target->text});
      ok = false;
      continue;
    }
    if (st.stack.size() >= st.opts.maxIncludeDepth) {
      st.diags.report(DiagID::err_include_depth, target->range,
                      {std::to_string(st.opts.maxIncludeDepth)});
      ok = false;
      continue;
    }
    st.stack.push_back(canon);
    auto sub = parseWithIncludes(incPath, canon, target->range, st);
    st.stack.pop_back();
    if (!sub) {
      ok = false;
      continue;
    }
    // The included file's items take the include's place; its version line is dropped.
    for (auto &inc : sub->children)
      if (inc->kind != Kind::Version)
        items.push_back(std::move(inc));
  }
  root->children = std::move(items);
  return ok ? std::move(root) : nullptr;
}

} // namespace

std::unique_ptr<ast::Node> parseFile(const std::string &path, DiagnosticEngine &diags,
                                     const FrontendOptions &opts) {
  IncludeState st{diags, opts, {canonical(path)}};
  return parseWithIncludes(path, st.stack.front(), SourceRange{}, st);
}

std::unique_ptr<ast::Node> parseText(const std::string &path, const std::string &text,
                                     DiagnosticEngine &diags, const FrontendOptions &opts) {
  IncludeState st{diags, opts, {canonical(path)}, &text};
  return parseWithIncludes(path, st.stack.front(), SourceRange{}, st);
}

} // namespace qspec::frontend
