// Reading bytes the user does not control, within bounds: one place for the checks every reader of
// untrusted input makes before it builds anything (docs/limits.md lists each limit).
//
//  - readBoundedFile (and BoundedFile, for part of a file): a regular file only, opened without
//    blocking on a FIFO (O_NONBLOCK, then fstat), never more than a cap, optionally never through
//    a symlink (O_NOFOLLOW) and relative to a directory descriptor.
//  - nestingPastLimit: how deep `[`/`{` nest, counted in one pass before any tree is built (a
//    recursive or stack-per-level parser over 200 000 `[` costs memory and time quadratic or
//    worse).
//  - firstInvalidUtf8: strict UTF-8 (support::utf8::firstInvalid, the one UTF-8 check).
//  - checkJsonDocument: all of the above for a JSON text plus repeated keys, each refusal with a
//    message of its own.
//
// Exposes only std types; no library type crosses this header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace qspec::bounded {

// Arrays, objects and YAML flow collections nest at most this deep in any untrusted input.
constexpr size_t kMaxNesting = 512;

// Why a read or a check refused its input.
enum class Refusal {
  None,
  CannotOpen,  // open or read failed (message: strerror)
  NotRegular,  // a FIFO, a device, a socket, a directory
  SymlinkName, // the name is a symbolic link and links are not followed
  TooLarge,    // over the size cap
  InvalidUtf8, // not UTF-8
  TooDeep,     // nested deeper than the cap
  DuplicateKey,
  Syntax, // not well-formed
};

struct Problem {
  Refusal kind = Refusal::None;
  size_t offset = 0;   // byte offset in the text (checks), 0 for file-level problems
  std::string message; // lowercase phrase, no file name ("is a FIFO, not a regular file")
  int error = 0;       // CannotOpen: the errno
  explicit operator bool() const { return kind != Refusal::None; }
};

// The reason a tool gives after "cannot open 'PATH': " for a refused read: "is a directory",
// "is a FIFO, not a regular file", "file is N bytes, over the limit of M bytes", the strerror.
std::string reason(const Problem &p);

// What a file is, in words ("a FIFO", "a directory", ...), from a stat mode.
const char *fileTypeName(unsigned mode);

struct ReadOptions {
  uint64_t maxBytes = uint64_t(64) << 20;
  bool followSymlinks = true; // false: O_NOFOLLOW, a link at the name is refused
  int dirFd = -100;           // AT_FDCWD: `path` relative to the working directory
};

// Reads all of `path` into `out`. Refuses (returns a Problem) what is not a regular file without
// waiting for a FIFO's writer, and a file over `maxBytes` from its size, before reading it.
Problem readBoundedFile(const std::string &path, std::string &out, const ReadOptions &opt = {});

// An open regular file, for a reader that needs only part of it (a safetensors header, the first
// bytes that tell a format): open() makes the same checks as readBoundedFile, then read() takes
// bytes at an offset. The descriptor closes with the object.
class BoundedFile {
public:
  BoundedFile() = default;
  BoundedFile(const BoundedFile &) = delete;
  BoundedFile &operator=(const BoundedFile &) = delete;
  ~BoundedFile() { close(); }

  // Opens `path`: a regular file (a FIFO is refused without waiting for a writer) of at most
  // `opt.maxBytes` bytes.
  Problem open(const std::string &path, const ReadOptions &opt = {});
  // The size fstat gave when the file was opened.
  uint64_t size() const { return size_; }
  // Reads up to `n` bytes at `offset` into `out` (fewer only at the end of the file).
  Problem read(uint64_t offset, size_t n, std::string &out);
  // Reads the whole file (at most `maxBytes` given to open, even when it grew since).
  Problem readAll(std::string &out);
  void close();

private:
  int fd_ = -1;
  uint64_t size_ = 0, maxBytes_ = 0;
};

enum class Syntax { Json, Yaml };

// The byte offset of the first `[` or `{` that opens level `limit` + 1, or npos. Brackets inside
// strings and (YAML) comments do not count; a YAML plain scalar's brackets do (an over-count: the
// answer errs toward refusing, never toward letting a deep document through).
size_t nestingPastLimit(std::string_view text, Syntax syntax, size_t limit = kMaxNesting);

// The byte index of the first byte that does not start a valid strict UTF-8 sequence (no overlong
// forms, no surrogates, nothing above U+10FFFF), or npos.
size_t firstInvalidUtf8(std::string_view text);

// The length in bytes of the character at `i` when it is one that changes how a line displays
// without showing itself: a C1 control (U+0080..U+009F), a bidi embedding, override or isolate
// (U+202A..U+202E, U+2066..U+2069), a direction mark (U+200E, U+200F, U+061C), a line or paragraph
// separator (U+2028, U+2029); 0 otherwise. Escaped wherever names are shown or written back as
// text (Trojan Source, CVE-2021-42574). `text` from `i` must be valid UTF-8.
size_t invisibleControlAt(std::string_view text, size_t i);

// The 1-based line and column (in bytes) of `offset` in `text`.
void lineColumn(std::string_view text, size_t offset, uint32_t &line, uint32_t &column);

// Checks that `text` is valid UTF-8 and nests no deeper than `maxDepth`, in that order: what every
// reader of a text format (a vendor config, a manifest) checks before it builds anything.
Problem checkText(std::string_view text, Syntax syntax, size_t maxDepth = kMaxNesting);

// Checks that `text` is valid UTF-8, nests no deeper than `maxDepth`, and is one well-formed JSON
// value with no key repeated inside one object, in that order (the cheap linear checks first).
Problem checkJsonDocument(std::string_view text, size_t maxDepth = kMaxNesting);

// nlohmann's parse-error text without its exception prefix and position ("[json.exception...]
// parse error at line 1, column 5: syntax error while parsing value - ..." -> "invalid JSON while
// parsing value - ..."): the message a reader shows beside its own location.
std::string cleanJsonError(const std::string &what);

} // namespace qspec::bounded
