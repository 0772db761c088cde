#include "emitters/Emitter.h"
#include "ir/Parallel.h"
#include "vendors/Reading.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <pthread.h>
#include <csignal>
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

// Translation validation: the written bytes read back through the vendor's model must mean what
// the spec says. Kinds without a registered reader are not checked.
static bool validateEmitted(const ir::Spec &spec, const ir::Target &target, const OutputContext &out,
                            DiagnosticEngine &diags) {
  vendors::ReadBack read = vendors::findReader(target.kind);
  if (!read)
    return true;
  vendors::VendorReading reading;
  reading.kind = target.kind;
  return read(spec, target, out.buffer(), reading, diags) && vendors::validateReading(spec, target, reading, diags) &&
         !diags.hasErrors();
}

std::vector<EmitResult> emitTargets(const ir::Spec &spec, const std::vector<const ir::Target *> &targets,
                                    DiagnosticEngine &diags, unsigned threads) {
  std::vector<EmitResult> results(targets.size());
  // Each target reports into its own engine, with no limit: the shared engine applies -Werror
  // and the error limit when they are replayed below.
  std::vector<std::unique_ptr<DiagnosticEngine>> own;
  for (size_t i = 0; i < targets.size(); ++i) {
    results[i].target = targets[i];
    own.push_back(std::make_unique<DiagnosticEngine>(diags.sourceManager()));
    own.back()->setWarningsAsErrors(diags.warningsAsErrors());
    own.back()->setErrorLimit(0);
  }
  auto runOne = [&](size_t i) {
    DiagnosticEngine &d = *own[i];
    auto emitter = createEmitter(targets[i]->kind);
    if (!emitter) {
      d.report(DiagID::err_tune_no_emitter, targets[i]->range, {targets[i]->kind});
      return;
    }
    results[i].ok = emitter->emit(spec, *targets[i], results[i].out, d) && !d.hasErrors() &&
                    validateEmitted(spec, *targets[i], results[i].out, d);
  };
  if (threads == 0)
    threads = spec.inventory.modules.size() >= ir::kParallelMinModules ? ir::parallelism(targets.size()) : 1;
  ir::parallelFor(targets.size(), threads, runOne);
  for (auto &d : own)
    for (const Diagnostic &x : d->diagnostics())
      diags.report(x);
  return results;
}

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
