// The JSON Lines history, the flock lock, numbers and files.
#include "driver/qtune/Support.h"

#include "emitters/Emitter.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fcntl.h>
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

std::string readAll(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
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
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    error = std::strerror(errno);
    return false;
  }
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

// ---- Processes ------------------------------------------------------------------------------

std::string formatNumber(double v) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string readWholeFile(const std::string &path, bool &ok) {
  std::ifstream in(path, std::ios::binary);
  ok = static_cast<bool>(in);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string fileTail(const std::string &path, size_t maxBytes) {
  // Reads only the tail: an evaluator may write gigabytes of stderr.
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
