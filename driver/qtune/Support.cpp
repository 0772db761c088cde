// SHA-256 (FIPS 180-4), the JSON Lines history, the flock lock, numbers and files.
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
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace qspec::tune {

using json = nlohmann::json;

// ---- SHA-256 --------------------------------------------------------------------------------

namespace {
const uint32_t kK[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
} // namespace

Sha256::Sha256() {
  const uint32_t init[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                            0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::memcpy(h_, init, sizeof h_);
}

namespace detail {

void sha256BlocksPortable(uint32_t h[8], const unsigned char *p, size_t n) {
  for (; n; --n, p += 64) {
    uint32_t w[64];
    for (int i = 0; i < 16; ++i)
      w[i] = (uint32_t(p[4 * i]) << 24) | (uint32_t(p[4 * i + 1]) << 16) |
             (uint32_t(p[4 * i + 2]) << 8) | uint32_t(p[4 * i + 3]);
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; ++i) {
      uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      uint32_t ch = (e & f) ^ (~e & g);
      uint32_t t1 = hh + S1 + ch + kK[i] + w[i];
      uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
      uint32_t t2 = S0 + maj;
      hh = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
namespace {
bool cpuHasShaNi() {
  unsigned a, b, c, d;
  // CPUID leaf 7 EBX bit 29: SHA; leaf 1 ECX bits 9 / 19: SSSE3 / SSE4.1 (used beside it).
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 9)) || !(c & (1u << 19)))
    return false;
  return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
}

// The state is kept as the two vectors the sha256rnds2 instruction takes (ABEF, CDGH); each
// group of four rounds adds its constants to four message words, and the schedule's next four
// words come from sha256msg1 / msg2 (Intel's "SHA extensions" paper, section 4).
__attribute__((target("sha,sse4.1,ssse3"))) void shaNiBlocks(uint32_t h[8], const unsigned char *p,
                                                             size_t n) {
  const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i tmp =
      _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(h)), 0xB1); // CDAB
  __m128i s1 =
      _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(h + 4)), 0x1B); // EFGH
  __m128i s0 = _mm_alignr_epi8(tmp, s1, 8);                                               // ABEF
  s1 = _mm_blend_epi16(s1, tmp, 0xF0);                                                    // CDGH
  for (; n; --n, p += 64) {
    const __m128i abef = s0, cdgh = s1;
    __m128i w[4];
    for (int i = 0; i < 4; ++i)
      w[i] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 16 * i)), swap);
    for (int g = 0; g < 16; ++g) {
      __m128i m =
          _mm_add_epi32(w[g & 3], _mm_loadu_si128(reinterpret_cast<const __m128i *>(kK + 4 * g)));
      s1 = _mm_sha256rnds2_epu32(s1, s0, m);
      s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(m, 0x0E));
      if (g < 12) { // W[4g+16 ..]: from W[4g ..], W[4g+4 ..], W[4g+9 ..], W[4g+12 ..]
        __m128i x = _mm_add_epi32(_mm_sha256msg1_epu32(w[g & 3], w[(g + 1) & 3]),
                                  _mm_alignr_epi8(w[(g + 3) & 3], w[(g + 2) & 3], 4));
        w[g & 3] = _mm_sha256msg2_epu32(x, w[(g + 3) & 3]);
      }
    }
    s0 = _mm_add_epi32(s0, abef);
    s1 = _mm_add_epi32(s1, cdgh);
  }
  tmp = _mm_shuffle_epi32(s0, 0x1B);   // FEBA
  s1 = _mm_shuffle_epi32(s1, 0xB1);    // DCHG
  s0 = _mm_blend_epi16(tmp, s1, 0xF0); // DCBA
  s1 = _mm_alignr_epi8(s1, tmp, 8);    // HGFE
  _mm_storeu_si128(reinterpret_cast<__m128i *>(h), s0);
  _mm_storeu_si128(reinterpret_cast<__m128i *>(h + 4), s1);
}
} // namespace

bool sha256BlocksShaNi(uint32_t h[8], const unsigned char *p, size_t n) {
  static const bool has = cpuHasShaNi();
  if (!has)
    return false;
  shaNiBlocks(h, p, n);
  return true;
}
#else
bool sha256BlocksShaNi(uint32_t *, const unsigned char *, size_t) { return false; }
#endif

} // namespace detail

void Sha256::blocks(const unsigned char *p, size_t n) {
  if (n && !detail::sha256BlocksShaNi(h_, p, n))
    detail::sha256BlocksPortable(h_, p, n);
}

Sha256 &Sha256::update(const void *data, size_t n) {
  const auto *p = static_cast<const unsigned char *>(data);
  total_ += n;
  if (bufLen_) {
    size_t take = std::min(n, 64 - bufLen_);
    std::memcpy(buf_ + bufLen_, p, take);
    bufLen_ += take;
    p += take;
    n -= take;
    if (bufLen_ < 64)
      return *this;
    blocks(buf_, 1);
    bufLen_ = 0;
  }
  blocks(p, n / 64);
  p += n / 64 * 64;
  n %= 64;
  std::memcpy(buf_, p, n);
  bufLen_ = n;
  return *this;
}

std::string Sha256::hexDigest() {
  uint64_t bits = total_ * 8;
  unsigned char pad[72] = {0x80};
  size_t padLen = bufLen_ < 56 ? 56 - bufLen_ : 120 - bufLen_;
  update(pad, padLen);
  unsigned char len[8];
  for (int i = 0; i < 8; ++i)
    len[i] = static_cast<unsigned char>(bits >> (56 - 8 * i));
  update(len, 8);
  char out[65];
  for (int i = 0; i < 8; ++i)
    snprintf(out + 8 * i, 9, "%08x", h_[i]);
  return std::string(out, 64);
}

std::string sha256Hex(const std::string &data) { return Sha256().update(data).hexDigest(); }

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
