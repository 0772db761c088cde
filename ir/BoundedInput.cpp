// Bounded reading of untrusted bytes (see BoundedInput.h).
#include "ir/BoundedInput.h"
#include "support/Utf8.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_set>
#include <vector>

namespace qspec::bounded {

const char *fileTypeName(unsigned mode) {
  switch (mode & S_IFMT) {
  case S_IFIFO:
    return "a FIFO";
  case S_IFCHR:
    return "a character device";
  case S_IFBLK:
    return "a block device";
  case S_IFSOCK:
    return "a socket";
  case S_IFDIR:
    return "a directory";
  case S_IFLNK:
    return "a symbolic link";
  default:
    return "not a regular file";
  }
}

std::string reason(const Problem &p) {
  switch (p.kind) {
  case Refusal::NotRegular:
    // "is a directory" says it all; "is a FIFO, not a regular file".
    return p.message.rfind("is a directory", 0) == 0 ? "is a directory" : p.message;
  case Refusal::TooLarge:
    return "file " + p.message;
  default:
    return p.message;
  }
}

namespace {

Problem problem(Refusal kind, std::string message, size_t offset = 0) {
  Problem p;
  p.kind = kind;
  p.offset = offset;
  p.message = std::move(message);
  return p;
}

Problem cannotOpen(int e) {
  Problem p = problem(Refusal::CannotOpen, std::strerror(e));
  p.error = e;
  return p;
}

} // namespace

void BoundedFile::close() {
  if (fd_ >= 0)
    ::close(fd_);
  fd_ = -1;
  size_ = 0;
}

Problem BoundedFile::open(const std::string &path, const ReadOptions &opt) {
  close();
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever.
  int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (opt.followSymlinks ? 0 : O_NOFOLLOW);
  int fd = ::openat(opt.dirFd, path.c_str(), flags);
  if (fd < 0) {
    if (errno == ELOOP && !opt.followSymlinks)
      return problem(Refusal::SymlinkName, "is a symbolic link, which is not followed here");
    return cannotOpen(errno);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    return cannotOpen(e);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return problem(Refusal::NotRegular,
                   std::string("is ") + fileTypeName(st.st_mode) + ", not a regular file");
  }
  if (static_cast<uint64_t>(st.st_size) > opt.maxBytes) {
    ::close(fd);
    return problem(Refusal::TooLarge, "is " + std::to_string(st.st_size) +
                                          " bytes, over the limit of " +
                                          std::to_string(opt.maxBytes) + " bytes");
  }
  // A regular file: back to blocking reads.
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  fd_ = fd;
  size_ = static_cast<uint64_t>(st.st_size);
  maxBytes_ = opt.maxBytes;
  return {};
}

Problem BoundedFile::read(uint64_t offset, size_t n, std::string &out) {
  out.assign(n, '\0');
  size_t got = 0;
  while (got < n) {
    ssize_t r = ::pread(fd_, &out[got], n - got, static_cast<off_t>(offset + got));
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      out.clear();
      return cannotOpen(errno);
    }
    if (r == 0)
      break;
    got += static_cast<size_t>(r);
  }
  out.resize(got);
  return {};
}

// Reads what fstat said plus whatever grew since, up to the cap + 1, in chunks read as `read`
// reads them.
Problem BoundedFile::readAll(std::string &out) {
  out.clear();
  out.reserve(static_cast<size_t>(size_));
  std::string chunk;
  for (uint64_t offset = 0;; offset += chunk.size()) {
    if (Problem p = read(offset, size_t{1} << 16, chunk)) {
      out.clear();
      return p;
    }
    if (chunk.empty())
      return {};
    out += chunk;
    if (out.size() > maxBytes_) {
      out.clear();
      return problem(Refusal::TooLarge, "grew past the limit of " + std::to_string(maxBytes_) +
                                            " bytes while being read");
    }
  }
}

Problem readBoundedFile(const std::string &path, std::string &out, const ReadOptions &opt) {
  BoundedFile file;
  if (Problem p = file.open(path, opt)) {
    out.clear();
    return p;
  }
  return file.readAll(out);
}

size_t nestingPastLimit(std::string_view t, Syntax syntax, size_t limit) {
  const bool yaml = syntax == Syntax::Yaml;
  size_t level = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    // YAML: a quote starts a quoted scalar only where a scalar may start.
    char prev = i == 0 ? '\n' : t[i - 1];
    bool scalarStart = !yaml || prev == ' ' || prev == '\t' || prev == '\n' || prev == '\r' ||
                       prev == '[' || prev == '{' || prev == ',' || prev == ':' || prev == '-' ||
                       prev == '?';
    if (c == '"' && scalarStart) {
      for (++i; i < t.size() && t[i] != '"'; ++i)
        if (t[i] == '\\')
          ++i;
    } else if (yaml && c == '\'' && scalarStart) {
      for (++i; i < t.size(); ++i)
        if (t[i] == '\'') {
          if (i + 1 < t.size() && t[i + 1] == '\'')
            ++i; // '' is an escaped quote
          else
            break;
        }
    } else if (yaml && c == '#' && scalarStart) {
      while (i < t.size() && t[i] != '\n')
        ++i;
    } else if (c == '[' || c == '{') {
      if (++level > limit)
        return i;
    } else if (c == ']' || c == '}') {
      level -= level > 0;
    }
  }
  return std::string_view::npos;
}

size_t firstInvalidUtf8(std::string_view s) { return support::utf8::firstInvalid(s); }

size_t invisibleControlAt(std::string_view t, size_t i) {
  auto at = [&](size_t k) { return k < t.size() ? static_cast<unsigned char>(t[k]) : 0; };
  unsigned char c = at(i), b1 = at(i + 1), b2 = at(i + 2);
  if (c == 0xC2 && b1 >= 0x80 && b1 < 0xA0)
    return 2; // C1
  if (c == 0xD8 && b1 == 0x9C)
    return 2; // U+061C
  if (c != 0xE2)
    return 0;
  if (b1 == 0x80 && (b2 == 0x8E || b2 == 0x8F || (b2 >= 0xA8 && b2 <= 0xAE)))
    return 3; // U+200E, U+200F, U+2028..U+202E
  if (b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9)
    return 3; // U+2066..U+2069
  return 0;
}

void lineColumn(std::string_view text, size_t offset, uint32_t &line, uint32_t &column) {
  line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < offset && i < text.size(); ++i)
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  column = static_cast<uint32_t>(offset - lineStart + 1);
}

namespace {

using json = nlohmann::json;

// A SAX consumer that only checks that no key repeats within its object (the depth was checked
// before the parse).
class UniqueKeys : public nlohmann::json_sax<json> {
public:
  std::vector<std::unordered_set<std::string>> objects; // keys of each open object
  std::vector<bool> isObject;
  std::string dupKey;
  bool dup = false;
  size_t errorPos = 0;
  std::string errorText;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t &) override { return true; }
  bool string(string_t &) override { return true; }
  bool binary(binary_t &) override { return true; }
  bool start_object(std::size_t) override {
    objects.emplace_back();
    return true;
  }
  bool key(string_t &k) override {
    if (!objects.back().insert(k).second) {
      dup = true;
      dupKey = k;
      return false;
    }
    return true;
  }
  bool end_object() override {
    objects.pop_back();
    return true;
  }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string &,
                   const nlohmann::detail::exception &ex) override {
    errorPos = position;
    errorText = ex.what();
    return false;
  }
};

} // namespace

// "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error while parsing
// value - ..." -> "invalid JSON while parsing value - ...".
std::string cleanJsonError(const std::string &what) {
  size_t p = what.find(": ");
  std::string s = p == std::string::npos ? what : what.substr(p + 2);
  const std::string prefix = "syntax error while parsing ";
  if (s.rfind(prefix, 0) == 0)
    s = "invalid JSON while parsing " + s.substr(prefix.size());
  // "...; last read: '<the input's bytes>'" would repeat the file's text: the location says where.
  size_t lastRead = s.find("; last read: '");
  if (lastRead != std::string::npos) {
    size_t end = s.find("'", lastRead + 14);
    while (end != std::string::npos && end + 1 < s.size() && s[end + 1] != ';')
      end = s.find("'", end + 1);
    s.erase(lastRead, end == std::string::npos ? std::string::npos : end + 1 - lastRead);
  }
  return s;
}

Problem checkText(std::string_view text, Syntax syntax, size_t maxDepth) {
  if (size_t bad = firstInvalidUtf8(text); bad != std::string_view::npos)
    return problem(Refusal::InvalidUtf8, "invalid UTF-8 (byte " + std::to_string(bad) + ")", bad);
  if (size_t deep = nestingPastLimit(text, syntax, maxDepth); deep != std::string_view::npos)
    return problem(Refusal::TooDeep,
                   std::string(syntax == Syntax::Json ? "arrays and objects" : "brackets") +
                       " nested deeper than " + std::to_string(maxDepth) + " levels",
                   deep);
  return {};
}

Problem checkJsonDocument(std::string_view text, size_t maxDepth) {
  if (Problem p = checkText(text, Syntax::Json, maxDepth))
    return p;
  UniqueKeys check;
  if (json::sax_parse(text.begin(), text.end(), &check, nlohmann::detail::input_format_t::json,
                      true))
    return {};
  if (check.dup) {
    // SAX does not say where a key is: point at the quoted key's second appearance (the
    // repeated key, unless the same text also appears as a value before it).
    std::string quoted = json(check.dupKey).dump();
    size_t first = text.find(quoted);
    size_t second = first == std::string_view::npos ? 0 : text.find(quoted, first + 1);
    return problem(Refusal::DuplicateKey, "key '" + check.dupKey + "' appears twice in one object",
                   second == std::string_view::npos ? 0 : second);
  }
  size_t at = check.errorPos ? std::min(check.errorPos - 1, text.size()) : 0;
  return problem(
      Refusal::Syntax,
      check.errorText.empty() ? std::string("invalid JSON") : cleanJsonError(check.errorText), at);
}

} // namespace qspec::bounded
