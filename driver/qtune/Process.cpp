// Evaluator processes; see Process.h for the tracking rules.
#include "driver/qtune/Process.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <sstream>
#include <string_view>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace qspec::tune {

namespace {

// ---- Signals: the running groups, killed from the handler (kill() is async-signal-safe) ----

constexpr int kMaxProcessGroups = 1024;
pid_t g_groups[kMaxProcessGroups];
volatile sig_atomic_t g_numGroups = 0;
volatile sig_atomic_t g_signal = 0;
volatile sig_atomic_t g_inRunJobs = 0;

// The watchdog: its pid and the write end of its pipe (-1 without one).
pid_t g_watchdog = -1;
int g_watchFd = -1;

// Tells the watchdog a process group started (+) or ended (-); a full pipe drops the message
// (the environment sweep still finds the processes).
void tellWatchdog(char what, pid_t pgid) {
  if (g_watchFd < 0)
    return;
  char buf[32];
  int n = snprintf(buf, sizeof buf, "%c%d\n", what, static_cast<int>(pgid));
  if (::write(g_watchFd, buf, static_cast<size_t>(n)) < 0) {
  }
}

void onExitSignal(int sig) {
  for (int i = 0; i < g_numGroups; ++i)
    if (g_groups[i] > 0)
      ::kill(-g_groups[i], SIGKILL);
  g_signal = sig;
  if (!g_inRunJobs) {
    ::signal(sig, SIG_DFL);
    ::raise(sig);
  }
}

// ---- /proc scans ----------------------------------------------------------------------------

struct ProcInfo {
  pid_t pid = 0, ppid = 0;
  char state = '?';
};

bool readStat(pid_t pid, ProcInfo &out) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(in, text))
    return false;
  size_t close = text.rfind(')'); // comm may hold spaces and parentheses
  if (close == std::string::npos || close + 4 > text.size())
    return false;
  std::istringstream rest(text.substr(close + 2));
  long ppid = 0;
  rest >> out.state >> ppid;
  out.pid = pid;
  out.ppid = static_cast<pid_t>(ppid);
  return static_cast<bool>(rest);
}

// True if one NUL-separated entry of the process's environment starts with `prefix`.
bool environHas(pid_t pid, const std::string &prefix) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
  std::string entry;
  while (std::getline(in, entry, '\0'))
    if (entry.compare(0, prefix.size(), prefix) == 0)
      return true;
  return false;
}

std::vector<pid_t> allPids() {
  std::vector<pid_t> out;
  DIR *d = ::opendir("/proc");
  if (!d)
    return out;
  while (dirent *e = ::readdir(d)) {
    char *end = nullptr;
    long v = std::strtol(e->d_name, &end, 10);
    if (end && *end == '\0' && v > 0)
      out.push_back(static_cast<pid_t>(v));
  }
  ::closedir(d);
  return out;
}

// Kills every process (but qtune and `spare`) whose environment has an entry starting with
// `prefix`, reaps those that are qtune's children, and repeats until none is left: a killed
// process's children re-parent to qtune (the subreaper) and are found by the next scan.
// Zombie orphans of qtune that are not in `spare` are reaped on the way. Returns how many
// distinct processes it killed: one that is not qtune's child can still be running its exit when
// the next scan comes (SIGKILL is delivered when the process is next scheduled), and is found
// and signalled again without being a second process.
int sweep(const std::string &prefix, const std::vector<pid_t> &spare) {
  pid_t self = ::getpid();
  std::vector<pid_t> killed;
  auto spared = [&](pid_t p) { return std::find(spare.begin(), spare.end(), p) != spare.end(); };
  for (int pass = 0; pass < 200; ++pass) {
    int found = 0;
    for (pid_t pid : allPids()) {
      ProcInfo pi;
      if (pid == self || spared(pid) || !readStat(pid, pi))
        continue;
      if (pi.state == 'Z') {
        if (pi.ppid == self)
          ::waitpid(pid, nullptr, WNOHANG);
        continue;
      }
      if (!environHas(pid, prefix))
        continue;
      ++found;
      if (::kill(pid, SIGKILL) == 0 && std::find(killed.begin(), killed.end(), pid) == killed.end())
        killed.push_back(pid);
      if (pi.ppid == self)
        ::waitpid(pid, nullptr, 0);
    }
    if (!found)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return static_cast<int>(killed.size());
}

// ---- Logs: a pipe drained into a file, capped, with the last bytes kept past the cap -------

constexpr size_t kTailKeep = 64 * 1024;

struct LogSink {
  int pipe = -1, file = -1;
  size_t written = 0, dropped = 0, limit = 0;
  std::string tail; // the last kTailKeep bytes past the limit

  void take(const char *data, size_t n) {
    size_t room = written < limit ? limit - written : 0;
    size_t head = std::min(room, n);
    if (head && ::write(file, data, head) > 0)
      written += head;
    if (n > head) {
      dropped += n - head;
      tail.append(data + head, n - head);
      if (tail.size() > 2 * kTailKeep)
        tail.erase(0, tail.size() - kTailKeep);
    }
  }
  // Reads what is available; false at end of file.
  bool drain() {
    char buf[65536];
    while (pipe >= 0) {
      ssize_t r = ::read(pipe, buf, sizeof buf);
      if (r > 0) {
        take(buf, static_cast<size_t>(r));
        continue;
      }
      if (r < 0 && (errno == EAGAIN || errno == EINTR))
        return true;
      return false;
    }
    return false;
  }
  void close() {
    drain();
    if (pipe >= 0)
      ::close(pipe);
    pipe = -1;
    if (dropped) {
      if (tail.size() > kTailKeep)
        tail.erase(0, tail.size() - kTailKeep);
      std::string note = "\n[qtune: " + std::to_string(dropped - tail.size()) +
                         " bytes dropped past the log limit; the last " +
                         std::to_string(tail.size()) + " bytes follow]\n";
      if (::write(file, note.data(), note.size()) < 0 ||
          ::write(file, tail.data(), tail.size()) < 0) {
      }
    }
    if (file >= 0)
      ::close(file);
    file = -1;
  }
};

bool openSink(LogSink &s, const std::string &path, size_t limit, int &childEnd) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return false;
  // Never through a link in the work directory; O_NONBLOCK: a FIFO without a reader fails (ENXIO)
  // instead of blocking.
  s.file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
                  0644);
  if (s.file < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return false;
  }
  ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
  s.pipe = fds[0];
  s.limit = limit;
  childEnd = fds[1];
  return true;
}

// ---- Starting a job -------------------------------------------------------------------------

const char *const kStepScript =
    "d=${SLURM_STEP_GPUS:-${CUDA_VISIBLE_DEVICES:-${ASCEND_RT_VISIBLE_DEVICES:-}}}; "
    "if [ -n \"$d\" ]; then QSPEC_DEVICE=$d; export QSPEC_DEVICE; fi; "
    "printf 'devices=%s\\n' \"$d\" > \"$QSPEC_STARTED\" && exec \"$@\"";

std::vector<std::string> commandLine(const Job &job, const ExecOptions &opts) {
  std::vector<std::string> argv;
  if (opts.executor == "slurm") {
    argv = {opts.srun, "--job-name=qtune", "--export=ALL", "--ntasks=1"};
    for (const std::string &a : opts.slurmArgs)
      argv.push_back(a);
    // The step marks when it starts running (the timeout counts run time, not queue wait) and
    // writes into the mark the devices Slurm gave it (slurmd sets SLURM_STEP_GPUS for a GPU GRES
    // with device files; a site's TaskProlog may set the others), which also become its
    // QSPEC_DEVICE. The evaluator's arguments are passed as "$@", never parsed by the shell.
    argv.insert(argv.end(), {"/bin/sh", "-c", kStepScript, "qtune-evaluator"});
  }
  argv.insert(argv.end(), job.argv.begin(), job.argv.end());
  return argv;
}

// Everything the evaluator's process needs, built before it exists. It is started with vfork:
// until it executes the evaluator it shares qtune's memory, so qtune's pages are neither copied
// nor write-protected (a fork of a qtune holding a 45k-module spec made every page it wrote
// afterwards fault once more, a third of a round's system time), and it may only make system
// calls: no allocation, no locks, no library state.
struct Launch {
  std::vector<std::string> argv, shArgv, env;
  std::vector<char *> cargv, cshArgv, cenv;
  std::string program; // argv[0] found on PATH as execvp finds it; empty when there is none
  pid_t parent = 0;
  int in = -1, out = -1, err = -1;
  sigset_t mask;     // qtune's signal mask, the evaluator's too
  int execErrno = 0; // set by the child when the evaluator cannot be executed
};

std::vector<char *> pointers(std::vector<std::string> &strings) {
  std::vector<char *> out;
  for (std::string &s : strings)
    out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// qtune's environment with the job's variables set (the last value of a name wins, as setenv).
std::vector<std::string> childEnvironment(const Job &job) {
  std::vector<std::pair<std::string, std::string>> set = job.env;
  if (!job.startedPath.empty())
    set.emplace_back("QSPEC_STARTED", job.startedPath);
  auto isSet = [&](std::string_view name) {
    return std::any_of(set.begin(), set.end(), [&](const auto &kv) { return kv.first == name; }) ||
           std::find(job.unsetEnv.begin(), job.unsetEnv.end(), name) != job.unsetEnv.end();
  };
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e) {
    std::string_view kv(*e);
    if (!isSet(kv.substr(0, kv.find('='))))
      env.emplace_back(kv);
  }
  for (size_t i = 0; i < set.size(); ++i) {
    bool later = std::any_of(set.begin() + i + 1, set.end(),
                             [&](const auto &kv) { return kv.first == set[i].first; });
    if (!later)
      env.push_back(set[i].first + "=" + set[i].second);
  }
  return env;
}

void prepareLaunch(Launch &l, const Job &job, const ExecOptions &opts, int outFd, int errFd) {
  l.argv = commandLine(job, opts);
  l.program = findProgram(l.argv[0]);
  if (l.program.empty() && l.argv[0].find('/') != std::string::npos)
    l.program = l.argv[0]; // execve says why it cannot run it
  // A file without `#!` that execve refuses (ENOEXEC) runs under /bin/sh, as execvp does.
  l.shArgv = l.argv;
  l.shArgv[0] = l.program;
  l.shArgv.insert(l.shArgv.begin(), "sh");
  l.env = childEnvironment(job);
  l.cargv = pointers(l.argv);
  l.cshArgv = pointers(l.shArgv);
  l.cenv = pointers(l.env);
  l.parent = ::getpid();
  l.in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  l.out = outFd;
  l.err = errFd;
}

// The child between vfork and exec: own process group, dies with qtune, pipes for output, no shell.
[[noreturn]] void execChild(Launch &l) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != l.parent)
    ::_exit(127);
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    ::signal(sig, SIG_DFL);
  ::sigprocmask(SIG_SETMASK, &l.mask, nullptr);
  if (l.in < 0)
    ::_exit(126);
  ::dup2(l.in, 0);
  ::dup2(l.out, 1);
  ::dup2(l.err, 2);
  if (l.program.empty()) {
    l.execErrno = ENOENT;
    ::_exit(127);
  }
  ::execve(l.program.c_str(), l.cargv.data(), l.cenv.data());
  int why = errno;
  if (why == ENOEXEC)
    ::execve("/bin/sh", l.cshArgv.data(), l.cenv.data());
  l.execErrno = why;
  ::_exit(127);
}

pid_t startJob(const Job &job, const ExecOptions &opts, int outFd, int errFd) {
  Launch l;
  prepareLaunch(l, job, opts, outFd, errFd);
  // No signal handler of qtune's may run in the child while it shares qtune's memory.
  sigset_t all;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &l.mask);
  pid_t pid = ::vfork();
  if (pid == 0)
    execChild(l);
  ::pthread_sigmask(SIG_SETMASK, &l.mask, nullptr);
  if (l.in >= 0)
    ::close(l.in);
  if (pid > 0 && l.execErrno != 0) {
    std::string msg =
        "qtune: cannot execute '" + l.argv[0] + "': " + std::strerror(l.execErrno) + "\n";
    if (::write(errFd, msg.data(), msg.size()) < 0) {
    }
  }
  return pid;
}

using Clock = std::chrono::steady_clock;

struct Running {
  pid_t pid = -1;
  Clock::time_point start;
  bool started = true; // slurm: false until the step marks its start
  bool done = false, killed = false, termSent = false;
  Clock::time_point termAt;
  LogSink out, err;
};

void publishGroups(const std::vector<Running> &run) {
  int n = 0;
  for (const Running &r : run)
    if (!r.done && r.pid > 0 && n < kMaxProcessGroups)
      g_groups[n++] = r.pid;
  g_numGroups = n;
}

std::vector<pid_t> livePids(const std::vector<Running> &run) {
  std::vector<pid_t> out;
  for (const Running &r : run)
    if (!r.done && r.pid > 0)
      out.push_back(r.pid);
  return out;
}

// The environment entry that marks every process of a job: its result path is unique to the
// work directory and the probe.
std::string jobTag(const Job &job) {
  for (const auto &[k, v] : job.env)
    if (k == "QSPEC_RESULT")
      return k + "=" + v;
  return "QSPEC_KEY=" + job.key;
}

// Kills everything and exits through the signal qtune received.
[[noreturn]] void dieOnSignal(std::vector<Running> &run, const std::vector<Job> &jobs) {
  for (Running &r : run)
    if (!r.done && r.pid > 0)
      ::kill(-r.pid, SIGKILL);
  for (const Job &job : jobs)
    sweep(jobTag(job), {});
  tellWatchdog('x', 0); // nothing left for it to do
  int sig = g_signal;
  ::signal(sig, SIG_DFL);
  ::raise(sig);
  ::_exit(128 + sig);
}

JobResult finishJob(Running &r, const Job &job, int status) {
  r.done = true;
  ::kill(-r.pid, SIGKILL); // anything the evaluator left behind in its group
  tellWatchdog('-', r.pid);
  JobResult res;
  res.seconds = r.started ? std::chrono::duration<double>(Clock::now() - r.start).count() : 0;
  res.timedOut = r.killed;
  if (WIFEXITED(status))
    res.exitCode = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    res.signal = WTERMSIG(status);
  return res;
}

void enforceTimeout(Running &r, const Job &job, const ExecOptions &opts) {
  if (!r.started) {
    struct stat st;
    if (::stat(job.startedPath.c_str(), &st) != 0)
      return;
    r.started = true;
    r.start = Clock::now();
  }
  double secs = std::chrono::duration<double>(Clock::now() - r.start).count();
  if (job.timeout > 0 && secs > job.timeout && !r.killed) {
    r.killed = true;
    if (opts.executor == "slurm") {
      // srun cancels the step on SIGTERM; SIGKILL follows if it lingers.
      ::kill(-r.pid, SIGTERM);
      r.termSent = true;
      r.termAt = Clock::now();
    } else {
      ::kill(-r.pid, SIGKILL);
    }
  }
  if (r.termSent && std::chrono::duration<double>(Clock::now() - r.termAt).count() > 5)
    ::kill(-r.pid, SIGKILL);
}

void waitForOutput(std::vector<Running> &run) {
  std::vector<pollfd> fds;
  for (Running &r : run)
    for (LogSink *s : {&r.out, &r.err})
      if (s->pipe >= 0)
        fds.push_back({s->pipe, POLLIN, 0});
  ::poll(fds.data(), fds.size(), 10);
  for (Running &r : run)
    for (LogSink *s : {&r.out, &r.err})
      if (s->pipe >= 0 && !s->drain()) {
        ::close(s->pipe);
        s->pipe = -1;
      }
}

} // namespace

void installExitHandlers() {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = onExitSignal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    ::sigaction(sig, &sa, nullptr);
}

int sweepWorkdir(const std::string &workdir) {
  std::string abs = std::filesystem::absolute(workdir).lexically_normal().string();
  if (!abs.empty() && abs.back() == '/')
    abs.pop_back();
  return sweep("QSPEC_CONFIG_DIR=" + abs + "/evals/", {});
}

void runJobs(const std::vector<Job> &jobs, const ExecOptions &opts,
             const std::function<void(size_t, const JobResult &)> &onDone,
             const std::function<void()> &tick) {
  std::vector<Running> run(jobs.size());
  g_inRunJobs = 1;
  for (size_t i = 0; i < jobs.size(); ++i) {
    Running &r = run[i];
    int outFd = -1, errFd = -1;
    bool ok = openSink(r.out, jobs[i].stdoutPath, opts.logLimit, outFd) &&
              openSink(r.err, jobs[i].stderrPath, opts.logLimit, errFd);
    r.start = Clock::now();
    r.started = jobs[i].startedPath.empty();
    r.pid = ok ? startJob(jobs[i], opts, outFd, errFd) : -1;
    if (r.pid > 0)
      tellWatchdog('+', r.pid);
    if (outFd >= 0)
      ::close(outFd);
    if (errFd >= 0)
      ::close(errFd);
    if (r.pid < 0) {
      r.done = true;
      r.out.close();
      r.err.close();
      JobResult res;
      res.exitCode = 127;
      onDone(i, res);
    }
  }
  publishGroups(run);
  auto lastTick = Clock::now();
  while (true) {
    if (g_signal)
      dieOnSignal(run, jobs);
    bool running = false; // after this pass: the last job's end does not wait for output again
    for (size_t i = 0; i < jobs.size(); ++i) {
      Running &r = run[i];
      if (r.done)
        continue;
      int status = 0;
      if (::waitpid(r.pid, &status, WNOHANG) == r.pid) {
        JobResult res = finishJob(r, jobs[i], status);
        publishGroups(run);
        sweep(jobTag(jobs[i]), livePids(run));
        r.out.close();
        r.err.close();
        onDone(i, res);
        continue;
      }
      running = true;
      enforceTimeout(r, jobs[i], opts);
    }
    if (!running)
      break;
    if (std::chrono::duration<double>(Clock::now() - lastTick).count() >= 1.0) {
      lastTick = Clock::now();
      if (tick)
        tick();
    }
    waitForOutput(run);
  }
  g_numGroups = 0;
  g_inRunJobs = 0;
  if (g_signal)
    dieOnSignal(run, jobs);
}

bool startWatchdog(const std::string &workdir) {
  char self[4096];
  ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return false;
  self[n] = '\0';
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return false;
  std::string abs = std::filesystem::absolute(workdir).lexically_normal().string();
  std::vector<std::string> args = {"qtune", "__watchdog", abs};
  std::vector<char *> argv = pointers(args);
  sigset_t all, old;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &old);
  pid_t pid = ::vfork();
  if (pid == 0) {
    // Descriptor 3 is the pipe's read end (dup2 clears close-on-exec); a new session keeps the
    // terminal's signals and a kill of qtune's process group away from the watchdog.
    ::setsid();
    if (::dup2(fds[0], 3) < 0)
      ::_exit(127);
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
      ::signal(sig, SIG_IGN);
    ::sigprocmask(SIG_SETMASK, &old, nullptr);
    ::execv(self, argv.data());
    ::_exit(127);
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  ::close(fds[0]);
  if (pid < 0) {
    ::close(fds[1]);
    return false;
  }
  g_watchdog = pid;
  g_watchFd = fds[1];
  ::signal(SIGPIPE, SIG_IGN); // a dead watchdog must not kill qtune through its pipe
  return true;
}

void stopWatchdog() {
  if (g_watchFd < 0)
    return;
  tellWatchdog('x', 0);
  ::close(g_watchFd);
  g_watchFd = -1;
  ::waitpid(g_watchdog, nullptr, 0);
  g_watchdog = -1;
}

int watchdogMain(const std::string &workdir) {
  std::vector<pid_t> groups;
  std::string pending;
  char buf[4096];
  while (true) {
    ssize_t n = ::read(3, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break; // qtune is gone without a goodbye
    pending.append(buf, static_cast<size_t>(n));
    size_t nl;
    while ((nl = pending.find('\n')) != std::string::npos) {
      std::string line = pending.substr(0, nl);
      pending.erase(0, nl + 1);
      if (line.empty())
        continue;
      if (line[0] == 'x')
        return 0;
      pid_t pgid = static_cast<pid_t>(std::strtol(line.c_str() + 1, nullptr, 10));
      if (pgid <= 0)
        continue;
      if (line[0] == '+')
        groups.push_back(pgid);
      else
        groups.erase(std::remove(groups.begin(), groups.end(), pgid), groups.end());
    }
  }
  for (pid_t g : groups)
    ::kill(-g, SIGKILL);
  // The sweep runs under the work directory's lock, so a new run cannot start evaluators it
  // would find; if a new run took the lock first, that run sweeps itself.
  std::string lock = (std::filesystem::path(workdir) / "lock").string();
  int fd = ::open(lock.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  bool held = false;
  for (int i = 0; fd >= 0 && i < 500 && !(held = ::flock(fd, LOCK_EX | LOCK_NB) == 0); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (held || fd < 0)
    sweepWorkdir(workdir);
  return 0;
}

std::string findProgram(const std::string &program) {
  auto executable = [](const std::string &p) {
    struct stat st;
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
  };
  if (program.empty())
    return "";
  if (program.find('/') != std::string::npos)
    return executable(program) ? program : "";
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t pos = 0;
  while (pos <= dirs.size()) {
    size_t colon = dirs.find(':', pos);
    std::string dir =
        dirs.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos);
    std::string cand = (dir.empty() ? "." : dir) + "/" + program;
    if (executable(cand))
      return cand;
    if (colon == std::string::npos)
      break;
    pos = colon + 1;
  }
  return "";
}

} // namespace qspec::tune
