#include "driver/lsp/InputCache.h"

#include <sys/stat.h>

#include <chrono>
#include <climits>
#include <cstdlib>

namespace qspec::lsp {

namespace {

// The stamp of `path` now; false if it cannot be resolved or is not a regular file.
bool stampOf(const std::string &path, InputCache::Stamp &s) {
  char resolved[PATH_MAX];
  struct stat st;
  if (!realpath(path.c_str(), resolved) || stat(resolved, &st) != 0 || !S_ISREG(st.st_mode))
    return false;
  s.path = resolved;
  s.size = static_cast<uint64_t>(st.st_size);
  s.inode = static_cast<uint64_t>(st.st_ino);
  s.device = static_cast<uint64_t>(st.st_dev);
  s.mtimeNs = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return true;
}

// Modified so recently that a second write could still share its timestamp.
bool recent(const InputCache::Stamp &s) {
  auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count();
  return now - s.mtimeNs < 1000000000;
}

} // namespace

void InputCache::setOpenPaths(std::set<std::string> paths) {
  std::lock_guard<std::mutex> lock(mutex_);
  open_ = std::move(paths);
}

template <typename T, typename Read>
bool InputCache::read(std::map<std::string, Entry<T>> &cache, const std::string &path, T &out,
                      DiagnosticEngine &diags, Read &&readFile) {
  std::lock_guard<std::mutex> lock(mutex_);
  Stamp now;
  bool cacheable = !open_.count(path) && stampOf(path, now) && !open_.count(now.path);
  if (cacheable) {
    auto it = cache.find(path);
    if (it != cache.end() && it->second.stamp == now) {
      out = it->second.value;
      return true;
    }
  }
  cache.erase(path);
  ++reads_;
  size_t before = diags.diagnostics().size();
  bool ok = readFile();
  if (ok && cacheable && !recent(now) && diags.diagnostics().size() == before)
    cache[path] = Entry<T>{now, out};
  return ok;
}

bool InputCache::readInventory(const std::string &path, ir::Inventory &out, DiagnosticEngine &diags,
                               SourceRange requestedAt, const readers::ReaderLimits &limits) {
  return read(inventories_, path, out, diags,
              [&] { return readers::readInventory(path, out, diags, requestedAt, limits); });
}

bool InputCache::readScores(const std::string &path, ir::Scores &out, DiagnosticEngine &diags,
                            SourceRange requestedAt, const readers::ReaderLimits &limits) {
  return read(scores_, path, out, diags,
              [&] { return readers::readScores(path, out, diags, requestedAt, limits); });
}

} // namespace qspec::lsp
