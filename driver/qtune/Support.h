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

// A number as the messages and reports print it ("%.6g").
std::string formatNumber(double v);
// The whole file; `ok` is false when it cannot be opened.
std::string readWholeFile(const std::string &path, bool &ok);

// The last `maxBytes` of a file (only those are read).
std::string fileTail(const std::string &path, size_t maxBytes);

} // namespace qspec::tune
