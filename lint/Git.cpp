// runGit: `git -C DIR ARGS...` without a shell, standard output captured (Context.h).
#include "lint/Context.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace qspec::lint {

bool runGit(const std::string &dir, const std::vector<std::string> &args, std::string &out) {
  int pipeOut[2];
  if (pipe(pipeOut) != 0)
    return false;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pipeOut[1], 1);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&fa, pipeOut[0]);
  std::vector<std::string> all = {"git", "-C", dir.empty() ? "." : dir};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char *> argv;
  for (auto &a : all)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawnp(&pid, "git", &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(pipeOut[1]);
  if (rc != 0) {
    close(pipeOut[0]);
    return false;
  }
  char buf[65536];
  ssize_t n;
  while ((n = read(pipeOut[0], buf, sizeof buf)) > 0)
    out.append(buf, static_cast<size_t>(n));
  close(pipeOut[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

} // namespace qspec::lint
