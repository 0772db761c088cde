// How runJobs starts an evaluator (driver/qtune/Process.cpp): everything the child needs is built
// before vfork, so these check that what the child sees is what the fork-based start gave it: the
// job's variables over qtune's environment (the last value of a name wins), stdin from /dev/null,
// a process group of its own, a file without `#!` run by /bin/sh, and a program that cannot be
// executed reported on the job's stderr with exit code 127.
#include "driver/qtune/Process.h"
#include "../TestFiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace qspec;
namespace fs = std::filesystem;

namespace {

struct Ran {
  tune::JobResult result;
  std::string out, err;
};

class ProcessTest : public ::testing::Test {
protected:
  fs::path dir;
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("qspec-process-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  Ran run(std::vector<std::string> argv,
          std::vector<std::pair<std::string, std::string>> env = {}) {
    tune::Job job;
    job.argv = std::move(argv);
    job.env = std::move(env);
    job.key = "k";
    job.stdoutPath = (dir / "stdout.txt").string();
    job.stderrPath = (dir / "stderr.txt").string();
    Ran r;
    tune::runJobs(
        {job}, tune::ExecOptions{}, [&](size_t, const tune::JobResult &res) { r.result = res; },
        [] {});
    r.out = slurp(job.stdoutPath);
    r.err = slurp(job.stderrPath);
    return r;
  }
};

TEST_F(ProcessTest, JobVariablesOverQtunesEnvironmentLastValueWins) {
  ::setenv("QSPEC_PROCESS_TEST_KEPT", "kept", 1);
  ::setenv("QSPEC_PROCESS_TEST_SET", "old", 1);
  // env(1) prints the environment exactly as execve handed it over (a shell would merge repeats).
  Ran r = run({"env"}, {{"QSPEC_PROCESS_TEST_SET", "first"},
                        {"QSPEC_PROCESS_TEST_NEW", "new"},
                        {"QSPEC_PROCESS_TEST_SET", "last"}});
  ::unsetenv("QSPEC_PROCESS_TEST_KEPT");
  ::unsetenv("QSPEC_PROCESS_TEST_SET");
  EXPECT_EQ(r.result.exitCode, 0) << r.err;
  EXPECT_EQ(r.err, "");
  std::vector<std::string> ours;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("QSPEC_PROCESS_TEST_", 0) == 0)
      ours.push_back(line);
  std::sort(ours.begin(), ours.end());
  EXPECT_EQ(ours,
            (std::vector<std::string>{"QSPEC_PROCESS_TEST_KEPT=kept", "QSPEC_PROCESS_TEST_NEW=new",
                                      "QSPEC_PROCESS_TEST_SET=last"}));
}

TEST_F(ProcessTest, StdinIsDevNullAndTheJobLeadsItsOwnProcessGroup) {
  // /proc/self/stat of the shell: field 5 is the process group; `read` fails at end of input.
  Ran r = run({"/bin/sh", "-c",
               "read x; echo \"read $?\"; set -- $(cut -d' ' -f5 /proc/$$/stat); "
               "[ \"$1\" = \"$$\" ] && echo leader"});
  EXPECT_EQ(r.result.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "read 1\nleader\n");
}

TEST_F(ProcessTest, PathLookupAndAFileWithoutShebangRunsUnderSh) {
  fs::path script = dir / "no-shebang";
  std::ofstream(script) << "echo \"from sh $1\"\nexit 3\n";
  fs::permissions(script, fs::perms::owner_all);
  Ran r = run({script.string(), "arg"});
  EXPECT_EQ(r.result.exitCode, 3) << r.err;
  EXPECT_EQ(r.out, "from sh arg\n");
  Ran viaPath = run({"sh", "-c", "echo found"});
  EXPECT_EQ(viaPath.result.exitCode, 0);
  EXPECT_EQ(viaPath.out, "found\n");
}

TEST_F(ProcessTest, AProgramThatCannotRunIsExitCode127WithItsReason) {
  Ran missing = run({(dir / "missing").string()});
  EXPECT_EQ(missing.result.exitCode, 127);
  EXPECT_EQ(missing.err, "qtune: cannot execute '" + (dir / "missing").string() +
                             "': No such file or directory\n");
  fs::path plain = dir / "not-executable";
  std::ofstream(plain) << "echo never\n";
  Ran denied = run({plain.string()});
  EXPECT_EQ(denied.result.exitCode, 127);
  EXPECT_EQ(denied.err, "qtune: cannot execute '" + plain.string() + "': Permission denied\n");
  Ran notOnPath = run({"qspec-no-such-program-on-path"});
  EXPECT_EQ(notOnPath.result.exitCode, 127);
  EXPECT_EQ(notOnPath.err,
            "qtune: cannot execute 'qspec-no-such-program-on-path': No such file or directory\n");
}

} // namespace
