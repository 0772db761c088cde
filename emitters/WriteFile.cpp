// Writing an output file atomically (temporary file + rename).
#include "emitters/Emitter.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <csignal>
#include <unistd.h>

namespace qspec::emit {

bool writeAll(int fd, std::string_view data, std::string &error) {
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
  if (::fsync(fd) != 0) {
    error = std::strerror(errno);
    return false;
  }
  return true;
}

namespace {

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

} // namespace

bool writeFileAtomically(const std::string &path, const std::string &data, std::string &error) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
#ifdef O_TMPFILE
  // Linux: write into an unnamed file in the target directory, then give it a temporary name
  // and rename that over `path`. Until the link, a killed process (even SIGKILL) leaves nothing.
  {
    std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/'));
    if (dir.empty())
      dir = "/";
    int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    if (fd >= 0) {
      if (!writeAll(fd, data, error)) {
        ::close(fd);
        return false;
      }
      std::string proc = "/proc/self/fd/" + std::to_string(fd);
      BlockTermination block;
      ::unlink(tmp.c_str());
      bool linked = ::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) == 0;
      ::close(fd);
      if (linked) {
        if (::rename(tmp.c_str(), path.c_str()) != 0) {
          error = std::strerror(errno);
          ::unlink(tmp.c_str());
          return false;
        }
        return true;
      }
      // No /proc: fall through to the named temporary file.
    }
  }
#endif
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  if (!writeAll(fd, data, error)) {
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
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    error = std::strerror(errno);
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

} // namespace qspec::emit
