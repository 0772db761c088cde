// The inventory and scores files qspec-lsp has read, kept between checks: a check re-reads a file
// only when its resolved path, size, modification time or inode changed (docs/editors.md, "Large
// inventories"). A read that reported anything (an error, a warning) is not kept, so its
// diagnostics appear on every check; nor is one of a file the editor has open (its unsaved text
// is what the readers see) or one modified within the last second (a later write in the same
// timestamp tick would look unchanged).
#pragma once

#include "frontend/Frontend.h"

#include <map>
#include <mutex>
#include <set>
#include <string>

namespace qspec::lsp {

class InputCache : public frontend::InputReader {
public:
  bool readInventory(const std::string &path, ir::Inventory &out, DiagnosticEngine &diags,
                     SourceRange requestedAt, const readers::ReaderLimits &limits) override;
  bool readScores(const std::string &path, ir::Scores &out, DiagnosticEngine &diags,
                  SourceRange requestedAt, const readers::ReaderLimits &limits) override;
  // The paths the editor has open (read from their unsaved text, never from the cache).
  void setOpenPaths(std::set<std::string> paths);
  // How many times a file was read from disk (tests).
  unsigned reads() const { return reads_; }

  // What identifies one version of a file on disk.
  struct Stamp {
    std::string path; // resolved (symbolic links followed)
    uint64_t size = 0, inode = 0, device = 0;
    int64_t mtimeNs = 0;
    bool operator==(const Stamp &o) const {
      return path == o.path && size == o.size && inode == o.inode && device == o.device &&
             mtimeNs == o.mtimeNs;
    }
  };

private:
  template <typename T> struct Entry {
    Stamp stamp;
    T value;
  };
  template <typename T, typename Read>
  bool read(std::map<std::string, Entry<T>> &cache, const std::string &path, T &out,
            DiagnosticEngine &diags, Read &&readFile);

  std::mutex mutex_;
  std::set<std::string> open_;
  std::map<std::string, Entry<ir::Inventory>> inventories_;
  std::map<std::string, Entry<ir::Scores>> scores_;
  unsigned reads_ = 0;
};

} // namespace qspec::lsp
