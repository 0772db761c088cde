#include "emitters/Emitter.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <unistd.h>

namespace qspec::emit {

static std::map<std::string, std::function<std::unique_ptr<Emitter>()>, std::less<>> &factories() {
  static std::map<std::string, std::function<std::unique_ptr<Emitter>()>, std::less<>> f;
  return f;
}

void registerEmitter(ir::TargetInfo info, std::function<std::unique_ptr<Emitter>()> create) {
  factories()[info.kind] = std::move(create);
  ir::registerTarget(std::move(info));
}

std::unique_ptr<Emitter> createEmitter(std::string_view targetKind) {
  auto it = factories().find(targetKind);
  return it == factories().end() ? nullptr : it->second();
}

void registerAllEmitters() {
  static bool done = false;
  if (done)
    return;
  done = true;
#define EMITTER(KIND, FOLDER, REGISTER) REGISTER();
#include "emitters/Emitters.def"
#undef EMITTER
}

bool writeFileAtomically(const std::string &path, const std::string &data, std::string &error) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      error = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return false;
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    error = std::strerror(errno);
    ::unlink(tmp.c_str());
    return false;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    error = std::strerror(errno);
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

} // namespace qspec::emit
