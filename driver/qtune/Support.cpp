// The JSON Lines history, the flock lock, numbers and files.
#include "driver/qtune/Support.h"

#include "emitters/Emitter.h"
#include "emitters/WriteFile.h"
#include "ir/BoundedInput.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <signal.h>
#include <sstream>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace qspec::tune {

using json = nlohmann::json;

// ---- History --------------------------------------------------------------------------------

namespace {

json toJSON(const EvalRecord &r) {
  json j;
  j["key"] = r.key;
  j["round"] = r.round;
  j["probe"] = r.probe;
  j["why"] = r.why;
  j["status"] = r.status;
  j["metric"] = r.hasMetric ? json(r.metric) : json(nullptr);
  j["metrics"] = r.metrics;
  j["attempts"] = r.attempts;
  j["detail"] = r.detail;
  j["stderr_tail"] = r.stderrTail;
  j["seconds"] = std::round(r.seconds * 1000) / 1000;
  j["units"] = r.units;
  j["modules"] = r.modules;
  j["device"] = r.device;
  j["config"] = r.config;
  j["inputs"] = r.inputs;
  return j;
}

bool fromJSON(const std::string &line, EvalRecord &r) {
  json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("key") || !j["key"].is_string() ||
      !j.contains("status") || !j["status"].is_string())
    return false;
  r.key = j["key"].get<std::string>();
  r.status = j["status"].get<std::string>();
  r.round = j.value("round", 0);
  r.probe = j.value("probe", "");
  r.why = j.value("why", "");
  if (j.contains("metric") && j["metric"].is_number()) {
    r.hasMetric = true;
    r.metric = j["metric"].get<double>();
  }
  if (j.contains("metrics") && j["metrics"].is_object())
    for (const auto &[k, v] : j["metrics"].items())
      if (v.is_number())
        r.metrics[k] = v.get<double>();
  r.attempts = j.value("attempts", 1);
  r.detail = j.value("detail", "");
  r.stderrTail = j.value("stderr_tail", "");
  r.seconds = j.value("seconds", 0.0);
  r.units = j.value("units", size_t(0));
  r.modules = j.value("modules", size_t(0));
  r.device = j.value("device", "");
  r.config = j.value("config", "");
  if (j.contains("inputs") && j["inputs"].is_object())
    for (const auto &[k, v] : j["inputs"].items())
      if (v.is_string())
        r.inputs[k] = v.get<std::string>();
  return true;
}

// A work file's text ("" when it is missing, a link, not a regular file or too large).
std::string readAll(const std::string &path) {
  bool ok = false;
  return readWholeFile(path, ok);
}

void parseLines(const std::string &text, std::vector<EvalRecord> &out) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos)
      break; // torn last line
    EvalRecord r;
    if (fromJSON(text.substr(pos, nl - pos), r))
      out.push_back(std::move(r));
    pos = nl + 1;
  }
}

} // namespace

History::~History() {
  if (fd_ >= 0)
    ::close(fd_);
}

bool History::open(const std::string &path, std::string &error) {
  fd_ = openWorkFileForWriting(path, O_RDWR | O_APPEND, error);
  if (fd_ < 0)
    return false;
  std::string text = readAll(path);
  size_t keep = text.rfind('\n');
  keep = keep == std::string::npos ? 0 : keep + 1;
  if (keep != text.size() && ::ftruncate(fd_, static_cast<off_t>(keep)) != 0) {
    error = std::strerror(errno);
    return false;
  }
  parseLines(text.substr(0, keep), records_);
  for (size_t i = 0; i < records_.size(); ++i)
    byKey_[records_[i].key] = i;
  return true;
}

const EvalRecord *History::find(const std::string &key) const {
  auto it = byKey_.find(key);
  return it == byKey_.end() ? nullptr : &records_[it->second];
}

bool History::append(const EvalRecord &r, std::string &error) {
  std::string line = toJSON(r).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  if (!emit::writeAll(fd_, line, error))
    return false;
  records_.push_back(r);
  byKey_[r.key] = records_.size() - 1;
  return true;
}

std::vector<EvalRecord> readHistory(const std::string &path) {
  std::vector<EvalRecord> out;
  parseLines(readAll(path), out);
  return out;
}

// ---- Lock -----------------------------------------------------------------------------------

bool takeLock(const std::string &path, std::string &holder, std::string &error) {
  // O_NOFOLLOW: a symlinked lock would make qtune write its pid into the link's target.
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  if (fd < 0) {
    error = errno == ELOOP ? std::string("the lock is a symbolic link") : std::strerror(errno);
    return false;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    error = "the lock is not a regular file";
    return false;
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    holder = readAll(path);
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' '))
      holder.pop_back();
    ::close(fd);
    error = "locked";
    return false;
  }
  std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
    // The pid is informational; the lock itself is held.
  }
  return true; // fd intentionally kept open for the life of the process
}

bool lockHeld(const std::string &path, std::string &holder) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0)
    return false;
  bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0;
  ::close(fd);
  if (held) {
    holder = readAll(path);
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' '))
      holder.pop_back();
  }
  return held;
}

// ---- Work directory ---------------------------------------------------------------------------

bool checkWorkDir(const std::string &dir, std::string &error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    error = ec.message();
    return false;
  }
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0) {
    error = std::strerror(errno);
    return false;
  }
  if (!S_ISDIR(st.st_mode)) {
    error = "not a directory";
    return false;
  }
  if (st.st_uid != ::geteuid()) {
    error = "owned by user " + std::to_string(st.st_uid) + ", not by the user running qtune (" +
            std::to_string(::geteuid()) + ")";
    return false;
  }
  if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
    error = "writable by other users (mode " + [&] {
      char m[8];
      snprintf(m, sizeof m, "%04o", st.st_mode & 07777);
      return std::string(m);
    }() + "); make it private or sticky";
    return false;
  }
  return true;
}

int openWorkSubdir(const std::string &workdir, const std::string &rel, bool create,
                   std::string &error) {
  int fd = ::open(workdir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return -1;
  }
  std::string done;
  for (const std::filesystem::path &part : std::filesystem::path(rel)) {
    std::string name = part.string();
    if (name.empty() || name == ".")
      continue;
    done += (done.empty() ? "" : "/") + name;
    if (create && ::mkdirat(fd, name.c_str(), 0755) != 0 && errno != EEXIST) {
      error = "DIR/" + done + ": " + std::strerror(errno);
      ::close(fd);
      return -1;
    }
    int next = ::openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int e = errno;
    ::close(fd);
    if (next < 0) {
      struct stat st;
      bool link =
          ::fstatat(AT_FDCWD, (workdir + "/" + done).c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
          S_ISLNK(st.st_mode);
      error = "DIR/" + done + ": " +
              (link ? std::string("is a symbolic link, which is never followed")
                    : std::string(std::strerror(e)));
      return -1;
    }
    fd = next;
  }
  return fd;
}

bool writeWorkFile(const std::string &workdir, const std::string &rel, const std::string &data,
                   std::string &error) {
  std::filesystem::path p(rel);
  int dir = openWorkSubdir(workdir, p.parent_path().string(), true, error);
  if (dir < 0)
    return false;
  std::string e;
  bool ok = emit::writeFileAt(dir, p.filename().string(), data, e);
  ::close(dir);
  if (!ok)
    error = "DIR/" + rel + ": " + e;
  return ok;
}

int openWorkFileForWriting(const std::string &path, int flags, std::string &error) {
  int fd = ::open(path.c_str(), flags | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = path + ": " +
            (errno == ELOOP ? std::string("is a symbolic link, which is never written through")
                            : std::string(std::strerror(errno)));
    return -1;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    error = path + ": not a regular file";
    return -1;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

// ---- Processes ------------------------------------------------------------------------------

std::string formatNumber(double v) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string readWholeFile(const std::string &path, bool &ok, uint64_t maxBytes,
                          std::string *error) {
  bounded::ReadOptions opt;
  opt.maxBytes = maxBytes;
  opt.followSymlinks = false;
  std::string text;
  bounded::Problem p = bounded::readBoundedFile(path, text, opt);
  ok = !p;
  if (p && error)
    *error = p.message;
  return text;
}

std::string fileTail(const std::string &path, size_t maxBytes) {
  // Reads only the tail: an evaluator may write gigabytes of stderr. Never a FIFO (opening one
  // waits for a writer) nor through a link.
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return "";
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in)
    return "";
  std::streamoff size = in.tellg();
  std::streamoff from = size > static_cast<std::streamoff>(maxBytes)
                            ? size - static_cast<std::streamoff>(maxBytes)
                            : 0;
  in.seekg(from);
  std::string text(static_cast<size_t>(size - from), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

} // namespace qspec::tune
