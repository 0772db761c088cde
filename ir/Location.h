// Source locations: one SourceRange type on every AST and IR node.
//
// Contract: lines and columns are 1-based, columns count bytes; `begin`/`end` are byte offsets,
// half-open. A range whose `file` is 0 is "no location" (built-in defaults, generated rules).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace qspec {

using FileID = uint32_t;

// Why the last failed attempt to open a file failed, in the operating system's words ("No such
// file or directory", "Permission denied", ...): call right after the open failed.
std::string openFailureReason();

// The name a spec read from standard input (path `-`) is shown under, as clang does.
constexpr const char *kStdinName = "<stdin>";

struct SourceLoc {
  uint32_t line = 0;
  uint32_t col = 0;
  uint32_t offset = 0;
};

struct SourceRange {
  FileID file = 0;
  SourceLoc begin;
  SourceLoc end; // half-open

  bool valid() const { return file != 0 && begin.line != 0; }
  static SourceRange point(FileID f, uint32_t line, uint32_t col, uint32_t offset = 0) {
    SourceRange r;
    r.file = f;
    r.begin = {line, col, offset};
    r.end = {line, col + 1, offset + 1};
    return r;
  }
};

// True if `path` (through symlinks) opens as a regular file (bounded::BoundedFile, never waiting
// on a FIFO). Otherwise false with `error` saying what it is ("is a directory", "is a FIFO, not a
// regular file", ...) or why it cannot be opened. loadFile reads through the same layer, so a
// FIFO or a device cannot block or feed a tool forever (docs/limits.md).
bool checkRegularFile(const std::string &path, std::string &error);

// Owns the text of every file read during one compilation, so diagnostics can quote lines.
class SourceManager {
public:
  // Registers `path` with `text`; returns its id (ids start at 1).
  FileID addFile(std::string path, std::string text);
  // Registers a path whose text is not kept (large data files): lines are not quoted.
  FileID addPathOnly(std::string path);
  // Frees the text of `id` once nothing will quote it (an inventory after its reading: names and
  // types are copied out, and a million-line manifest is ~50 MB); its lines are kept, so ranges
  // and locations into it still work, like a file registered with addPathOnly.
  void dropText(FileID id);
  // Reads `path` from the overlay when it holds `path`, else from disk through
  // bounded::readBoundedFile (`-`: standard input, registered as kStdinName); returns 0 and fills
  // `error` when unreadable, over `maxBytes` or not a regular file (bounded::reason).
  FileID loadFile(const std::string &path, std::string &error, size_t maxBytes = 0);

  const std::string &path(FileID id) const;
  const std::string &text(FileID id) const;
  bool hasText(FileID id) const;
  // The text of 1-based line `line` of `id` without its newline ("" if out of range).
  std::string_view line(FileID id, uint32_t line) const;
  // Converts a byte offset into a location (line/col) in `id`.
  SourceLoc locate(FileID id, uint32_t offset) const;
  // A range for bytes [begin, end) of `id`.
  SourceRange range(FileID id, uint32_t begin, uint32_t end) const;
  // A range covering 1-based `line`, columns [col, col+len).
  SourceRange lineRange(FileID id, uint32_t line, uint32_t col = 1, uint32_t len = 1) const;
  // Finds an already-loaded file by path (0 if none).
  FileID find(const std::string &path) const;
  // Texts loadFile reads instead of the disk, by path: an editor's unsaved buffers (qspec-lsp).
  using Overlay = std::shared_ptr<const std::unordered_map<std::string, std::string>>;
  void setOverlay(Overlay overlay) { overlay_ = std::move(overlay); }

private:
  struct File {
    std::string path;
    std::string text;
    bool keepText = true;
    std::vector<uint32_t> lineStarts;
  };
  std::vector<File> files_;
  Overlay overlay_;
  const File *get(FileID id) const;
};

} // namespace qspec
