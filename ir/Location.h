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

// Owns the text of every file read during one compilation, so diagnostics can quote lines.
class SourceManager {
public:
  // Registers `path` with `text`; returns its id (ids start at 1).
  FileID addFile(std::string path, std::string text);
  // Registers a path whose text is not kept (large data files): lines are not quoted.
  FileID addPathOnly(std::string path);
  // Reads `path` from disk, or from the overlay when it holds `path`; returns 0 and fills
  // `error` when unreadable.
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
