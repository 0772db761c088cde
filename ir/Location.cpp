#include "ir/Location.h"
#include "ir/BoundedInput.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

namespace qspec {

std::string openFailureReason() {
  int e = errno;
  return e ? std::strerror(e) : "cannot open file";
}

static std::vector<uint32_t> computeLineStarts(const std::string &text) {
  // Inventories run to millions of lines: count them first, then find each newline with memchr.
  const char *begin = text.data(), *end = begin + text.size();
  size_t lines = 1;
  for (const char *p = begin; (p = static_cast<const char *>(std::memchr(p, '\n', end - p))); ++p)
    ++lines;
  std::vector<uint32_t> starts;
  starts.reserve(lines);
  starts.push_back(0);
  for (const char *p = begin; (p = static_cast<const char *>(std::memchr(p, '\n', end - p))); ++p)
    starts.push_back(static_cast<uint32_t>(p - begin + 1));
  return starts;
}

FileID SourceManager::addFile(std::string path, std::string text) {
  File f;
  f.path = std::move(path);
  f.lineStarts = computeLineStarts(text);
  f.text = std::move(text);
  files_.push_back(std::move(f));
  return static_cast<FileID>(files_.size());
}

FileID SourceManager::addPathOnly(std::string path) {
  File f;
  f.path = std::move(path);
  f.keepText = false;
  f.lineStarts = {0};
  files_.push_back(std::move(f));
  return static_cast<FileID>(files_.size());
}

void SourceManager::dropText(FileID id) {
  if (id == 0 || id > files_.size())
    return;
  File &f = files_[id - 1];
  std::string().swap(f.text);
  f.keepText = false;
}

static FileID readStdin(SourceManager &sm, std::string &error, size_t maxBytes) {
  std::string text;
  char buf[65536];
  while (std::cin.read(buf, sizeof buf) || std::cin.gcount() > 0) {
    text.append(buf, static_cast<size_t>(std::cin.gcount()));
    if (maxBytes && text.size() > maxBytes) {
      error = "standard input is over the limit of " + std::to_string(maxBytes) + " bytes";
      return 0;
    }
  }
  return sm.addFile(kStdinName, std::move(text));
}

bool checkRegularFile(const std::string &path, std::string &error) {
  bounded::BoundedFile file;
  bounded::Problem p = file.open(path);
  if (p)
    error = bounded::reason(p);
  return !p;
}

FileID SourceManager::loadFile(const std::string &path, std::string &error, size_t maxBytes) {
  if (overlay_) {
    auto it = overlay_->find(path);
    if (it != overlay_->end()) {
      if (maxBytes && it->second.size() > maxBytes) {
        error = "file is " + std::to_string(it->second.size()) + " bytes, over the limit of " +
                std::to_string(maxBytes) + " bytes";
        return 0;
      }
      return addFile(path, it->second);
    }
  }
  if (path == "-")
    return readStdin(*this, error, maxBytes);
  // The one bounded read (ir/BoundedInput.h): a regular file, a FIFO refused without waiting
  // for a writer, the size checked before reading.
  bounded::ReadOptions opt;
  if (maxBytes)
    opt.maxBytes = maxBytes;
  else
    opt.maxBytes = UINT32_MAX; // offsets into a file's text are 32-bit
  std::string text;
  if (bounded::Problem p = bounded::readBoundedFile(path, text, opt)) {
    error = bounded::reason(p);
    return 0;
  }
  return addFile(path, std::move(text));
}

const SourceManager::File *SourceManager::get(FileID id) const {
  if (id == 0 || id > files_.size())
    return nullptr;
  return &files_[id - 1];
}

const std::string &SourceManager::path(FileID id) const {
  static const std::string empty;
  const File *f = get(id);
  return f ? f->path : empty;
}

const std::string &SourceManager::text(FileID id) const {
  static const std::string empty;
  const File *f = get(id);
  return f ? f->text : empty;
}

bool SourceManager::hasText(FileID id) const {
  const File *f = get(id);
  return f && f->keepText;
}

std::string_view SourceManager::line(FileID id, uint32_t line) const {
  const File *f = get(id);
  if (!f || !f->keepText || line == 0 || line > f->lineStarts.size())
    return {};
  uint32_t start = f->lineStarts[line - 1];
  uint32_t end = line < f->lineStarts.size() ? f->lineStarts[line] : f->text.size();
  std::string_view sv(f->text.data() + start, end - start);
  while (!sv.empty() && (sv.back() == '\n' || sv.back() == '\r'))
    sv.remove_suffix(1);
  return sv;
}

SourceLoc SourceManager::locate(FileID id, uint32_t offset) const {
  const File *f = get(id);
  if (!f)
    return {};
  auto it = std::upper_bound(f->lineStarts.begin(), f->lineStarts.end(), offset);
  uint32_t lineIdx = static_cast<uint32_t>(it - f->lineStarts.begin()); // 1-based line
  uint32_t col = offset - f->lineStarts[lineIdx - 1] + 1;
  return {lineIdx, col, offset};
}

SourceRange SourceManager::range(FileID id, uint32_t begin, uint32_t end) const {
  SourceRange r;
  r.file = id;
  r.begin = locate(id, begin);
  r.end = locate(id, std::max(begin, end));
  return r;
}

SourceRange SourceManager::lineRange(FileID id, uint32_t line, uint32_t col, uint32_t len) const {
  SourceRange r;
  r.file = id;
  const File *f = get(id);
  uint32_t base = 0;
  if (f && f->keepText && line >= 1 && line <= f->lineStarts.size())
    base = f->lineStarts[line - 1];
  r.begin = {line, col, base + col - 1};
  r.end = {line, col + len, base + col - 1 + len};
  return r;
}

FileID SourceManager::find(const std::string &path) const {
  for (size_t i = 0; i < files_.size(); ++i)
    if (files_[i].path == path)
      return static_cast<FileID>(i + 1);
  return 0;
}

} // namespace qspec
