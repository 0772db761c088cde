// Writing an output file: atomically (temporary file + rename) where the target is a regular
// file or absent, directly where it is a device, a FIFO or `-` (stdout), never over a directory.
// A rewritten regular file keeps its mode and owner, and a symlink is written through (the file
// it names is replaced, the link stays a link).
#include "emitters/Emitter.h"
#include "emitters/WriteFile.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

namespace qspec::emit {

namespace {

bool writeBytes(int fd, std::string_view data, std::string &error) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      error = std::strerror(errno);
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

// Blocks the signals that end a tool from the terminal for the few calls that give the file its
// name, so an interrupt cannot leave the temporary name behind.
struct BlockTermination {
  sigset_t old;
  BlockTermination() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGQUIT);
    ::pthread_sigmask(SIG_BLOCK, &set, &old);
  }
  ~BlockTermination() { ::pthread_sigmask(SIG_SETMASK, &old, nullptr); }
};

std::string dirOf(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Gives the new file the old one's owner and mode (owner first: chown clears set-id bits). A
// user who may not give the file away (not root, a group they are not in) keeps what they can.
void keepIdentity(int fd, const struct stat *old) {
  if (!old)
    return;
  if (::fchown(fd, old->st_uid, old->st_gid) != 0)
    (void)::fchown(fd, static_cast<uid_t>(-1), old->st_gid);
  (void)::fchmod(fd, old->st_mode & 07777);
}

using Produce = std::function<bool(const ChunkSink &)>;

// Starts the disk write of a regular file's bytes every kWritebackStretch bytes, while the rest
// is still being made (Linux `sync_file_range`, SYNC_FILE_RANGE_WRITE: it does not wait), so the
// fsync at the end waits for the last stretch instead of the whole file. Only a hint: a file
// system that refuses it is written as before, and the fsync still decides that the bytes are
// on disk.
class Writeback {
public:
  static constexpr size_t kStretch = kWritebackStretch;
  Writeback(int fd, bool enabled) : fd_(fd), enabled_(enabled) {}

  // Writes `data` in stretches, starting each one's writeback once it is in the page cache.
  bool write(std::string_view data, std::string &error) {
    while (!data.empty()) {
      size_t n = std::min(data.size(), kStretch - (end_ - start_));
      if (!writeBytes(fd_, data.substr(0, n), error))
        return false;
      data.remove_prefix(n);
      end_ += n;
      if (end_ - start_ == kStretch)
        start();
    }
    return true;
  }

private:
  void start() {
#ifdef SYNC_FILE_RANGE_WRITE
    if (enabled_ &&
        ::sync_file_range(fd_, static_cast<off_t>(start_), static_cast<off_t>(end_ - start_),
                          SYNC_FILE_RANGE_WRITE) != 0)
      enabled_ = false;
#endif
    start_ = end_;
  }

  int fd_;
  bool enabled_;
  size_t start_ = 0, end_ = 0;
};

// Every chunk `produce` makes, written to `fd`; false (with `error`) if a write or `produce`
// failed. `regular`: `fd` is a new regular file, whose writeback may start early.
bool writeProduced(int fd, const Produce &produce, std::string &error, bool regular = true) {
  Writeback out(fd, regular);
  bool written = true;
  bool made = produce([&](std::string_view chunk) {
    written = written && out.write(chunk, error);
    return written;
  });
  if (written && !made)
    error = "the output could not be made";
  return written && made;
}

// Writes, gives the old identity and fsyncs the temporary file behind `fd`.
bool fillTemporary(int fd, const Produce &produce, const struct stat *old, std::string &error) {
  keepIdentity(fd, old);
  if (!writeProduced(fd, produce, error))
    return false;
  if (::fsync(fd) != 0) {
    error = std::strerror(errno);
    return false;
  }
  return true;
}

bool renameOver(const std::string &tmp, const std::string &path, std::string &error) {
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    error = std::strerror(errno);
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

// The atomic path: `path` is absent or a regular file (`old` its stat, or null) and names no
// symlink. The temporary file lives in the same directory so the rename cannot cross devices.
bool replaceAtomically(const std::string &path, const Produce &data, const struct stat *old,
                       std::string &error) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
#ifdef O_TMPFILE
  // Linux: write into an unnamed file in the target directory, then give it a temporary name
  // and rename that over `path`. Until the link, a killed process (even SIGKILL) leaves nothing.
  int tfd = ::open(dirOf(path).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
  if (tfd >= 0) {
    if (!fillTemporary(tfd, data, old, error)) {
      ::close(tfd);
      return false;
    }
    std::string proc = "/proc/self/fd/" + std::to_string(tfd);
    BlockTermination block;
    ::unlink(tmp.c_str());
    bool linked = ::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) == 0;
    ::close(tfd);
    if (linked)
      return renameOver(tmp, path, error);
    // No /proc: fall through to the named temporary file.
  }
#endif
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  if (!fillTemporary(fd, data, old, error)) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return false;
  }
  if (::close(fd) != 0) {
    error = std::strerror(errno);
    ::unlink(tmp.c_str());
    return false;
  }
  BlockTermination block;
  return renameOver(tmp, path, error);
}

// A device, FIFO or stdout: opened (no O_CREAT, no O_TRUNC) and written in place. fsync is
// refused by pipes and character devices (EINVAL); that is not an error here.
bool writeDirectly(int fd, const Produce &data, std::string &error) {
  if (!writeProduced(fd, data, error, false))
    return false;
  if (::fsync(fd) != 0 && errno != EINVAL && errno != ENOTSUP && errno != EROFS) {
    error = std::strerror(errno);
    return false;
  }
  return true;
}

// The file a dangling symlink chain at `path` ends in (the one the write creates). ELOOP after
// 40 links, as the kernel does.
bool followDanglingLinks(std::string path, std::string &out, std::string &error) {
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
      out = path;
      return true;
    }
    char buf[PATH_MAX];
    ssize_t n = ::readlink(path.c_str(), buf, sizeof buf - 1);
    if (n <= 0) {
      error = std::strerror(n < 0 ? errno : ENOENT);
      return false;
    }
    std::string link(buf, static_cast<size_t>(n));
    path = link[0] == '/' ? link : dirOf(path) + "/" + link;
  }
  error = std::strerror(ELOOP);
  return false;
}

// writeFileAt's temporary file: unnamed (O_TMPFILE) and linked under `tmp` once full, or created
// under `tmp` with O_EXCL|O_NOFOLLOW where the file system has no O_TMPFILE.
bool fillTemporaryAt(int dirFd, const std::string &tmp, const Produce &data, std::string &error) {
#ifdef O_TMPFILE
  int tfd = ::openat(dirFd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
  if (tfd >= 0) {
    bool ok = fillTemporary(tfd, data, nullptr, error);
    std::string proc = "/proc/self/fd/" + std::to_string(tfd);
    ok = ok && ::linkat(AT_FDCWD, proc.c_str(), dirFd, tmp.c_str(), AT_SYMLINK_FOLLOW) == 0;
    ::close(tfd);
    if (ok)
      return true;
    if (!error.empty())
      return false;
  }
#endif
  int fd = ::openat(dirFd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  bool ok = fillTemporary(fd, data, nullptr, error);
  if (::close(fd) != 0 && ok) {
    error = std::strerror(errno);
    ok = false;
  }
  if (!ok)
    ::unlinkat(dirFd, tmp.c_str(), 0);
  return ok;
}

} // namespace

bool writeFileAt(int dirFd, const std::string &name, const std::string &data, std::string &error) {
  struct stat st;
  if (::fstatat(dirFd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode)) {
    error = S_ISLNK(st.st_mode) ? "is a symbolic link, which is never written through"
                                : "exists and is not a regular file";
    return false;
  }
  std::string tmp = name + ".tmp." + std::to_string(::getpid());
  ::unlinkat(dirFd, tmp.c_str(), 0);
  if (!fillTemporaryAt(
          dirFd, tmp, [&](const ChunkSink &sink) { return sink(data); }, error))
    return false;
  BlockTermination block;
  if (::renameat(dirFd, tmp.c_str(), dirFd, name.c_str()) != 0) {
    error = std::strerror(errno);
    ::unlinkat(dirFd, tmp.c_str(), 0);
    return false;
  }
  return true;
}

bool writeAll(int fd, std::string_view data, std::string &error) {
  if (!writeBytes(fd, data, error))
    return false;
  if (::fsync(fd) != 0) {
    error = std::strerror(errno);
    return false;
  }
  return true;
}

bool writeFileAtomically(const std::string &path, const std::string &data, std::string &error) {
  return writeFileStreamed(
      path, [&](const ChunkSink &sink) { return sink(data); }, error);
}

bool writeFileStreamed(const std::string &path, const Produce &data, std::string &error) {
  if (path == "-")
    return writeDirectly(STDOUT_FILENO, data, error);
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) {
      error = std::strerror(errno);
      return false;
    }
    std::string target;
    return followDanglingLinks(path, target, error) &&
           replaceAtomically(target, data, nullptr, error);
  }
  if (S_ISDIR(st.st_mode)) {
    error = std::strerror(EISDIR);
    return false;
  }
  if (S_ISREG(st.st_mode)) {
    // Through symlinks (of the name and of its folders) to the real file, which is replaced.
    char real[PATH_MAX];
    if (!::realpath(path.c_str(), real)) {
      error = std::strerror(errno);
      return false;
    }
    return replaceAtomically(real, data, &st, error);
  }
  int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  bool ok = writeDirectly(fd, data, error);
  if (::close(fd) != 0 && ok) {
    error = std::strerror(errno);
    ok = false;
  }
  return ok;
}

} // namespace qspec::emit
