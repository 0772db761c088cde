// Small pieces of qtune that need no IR: the append-only history, the work-directory
// lock, numbers and files. Evaluator processes: driver/qtune/Process.h.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace qspec::tune {

// ---- History: one JSON object per line, flushed and fsynced per record -----------------------

struct EvalRecord {
  std::string key;   // cache key (hex)
  int round = 0;     // round of the run that evaluated it
  std::string probe; // Probe::id()
  std::string why;
  std::string status; // ok | exit | timeout | no-result | bad-result | signal
  bool hasMetric = false;
  double metric = 0;                     // the first metric of the tune block
  std::map<std::string, double> metrics; // every metric the tune block names
  int attempts = 1;
  std::string detail; // why it failed
  std::string stderrTail;
  double seconds = 0;
  size_t units = 0, modules = 0;
  std::string device; // the slot's device set ("0-3"), "" when no --devices
  std::string config; // the configuration's digest (the key without its inputs)
  std::map<std::string, std::string> inputs; // the inputs' digests by name (keyInputs)
};

class History {
public:
  ~History();
  // Opens (creating) `path`, loads every complete record; a torn last line (a crash mid-write)
  // is cut off so the next record starts on a fresh line.
  bool open(const std::string &path, std::string &error);
  const EvalRecord *find(const std::string &key) const;
  bool append(const EvalRecord &r, std::string &error);
  const std::vector<EvalRecord> &records() const { return records_; }

private:
  int fd_ = -1;
  std::vector<EvalRecord> records_;
  std::map<std::string, size_t> byKey_; // the latest record per key
};

// Reads a history file without opening it for writing (status, report).
std::vector<EvalRecord> readHistory(const std::string &path);

// ---- Lock ---------------------------------------------------------------------------------

// Takes flock(LOCK_EX|LOCK_NB) on `path` (kept until the process exits; close-on-exec so
// evaluators never inherit it). On failure `holder` is the pid written by the holder, if any.
bool takeLock(const std::string &path, std::string &holder, std::string &error);
// True when some process holds the lock (status).
bool lockHeld(const std::string &path, std::string &holder);

// ---- Work directory ---------------------------------------------------------------------------
// The trust model (docs/driver.md "Work directory"): the work directory must belong to the user
// running qtune and must not be writable by others (a sticky directory of ours may be); every file
// qtune writes there is created relative to an open descriptor of its folder, with O_NOFOLLOW, and
// a symbolic link under any name qtune writes is refused, never written through.

// Creates `dir` (and its parents) when missing, then checks it as above.
bool checkWorkDir(const std::string &dir, std::string &error);
// Opens folder `rel` (a relative path, "" for the work directory itself) below `workdir`, one
// component at a time with O_NOFOLLOW, creating missing ones when `create`. -1 (with `error`
// naming the component) when a component is a link or not a folder.
int openWorkSubdir(const std::string &workdir, const std::string &rel, bool create,
                   std::string &error);
// Writes `data` atomically as `rel` below `workdir` (emit::writeFileAt in its folder).
bool writeWorkFile(const std::string &workdir, const std::string &rel, const std::string &data,
                   std::string &error);
// Opens `path` for writing with `flags` | O_CREAT | O_NOFOLLOW | O_CLOEXEC (mode 0644), refusing
// a link and anything but a regular file. -1 with `error` on failure.
int openWorkFileForWriting(const std::string &path, int flags, std::string &error);

// A number as the messages and reports print it ("%.6g").
std::string formatNumber(double v);
// An evaluator's result file (QSPEC_RESULT, a JSON object of metrics) is at most this big.
constexpr uint64_t kMaxResultBytes = uint64_t(1) << 20;
// Files qtune reads back from its work directory (state, history, reports) are at most this big.
constexpr uint64_t kMaxWorkFileBytes = uint64_t(256) << 20;
// The whole file, if it is a regular file (not a link, a FIFO, ...) of at most `maxBytes`; `ok`
// is false otherwise, with the reason in `error` when given.
std::string readWholeFile(const std::string &path, bool &ok, uint64_t maxBytes = kMaxWorkFileBytes,
                          std::string *error = nullptr);

// The last `maxBytes` of a regular file (only those are read; "" for a FIFO or a link).
std::string fileTail(const std::string &path, size_t maxBytes);

} // namespace qspec::tune
