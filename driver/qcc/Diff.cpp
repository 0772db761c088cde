// qcc diff BEFORE.qspec AFTER.qspec [--model INV | --model-a INV --model-b INV]
// qcc diff --rev REV SPEC.qspec
//
// Compiles both sides with qcc's own frontend, passes and emitters, then prints what differs
// (driver/diff/Compare.h): per group of modules, each changed setting with the rule that
// decided it on each side; modules that appear or disappear; per target, whether the emitted file
// changes. --rev reads the spec (and the files it includes) at a git revision through
// `git show`, and compares it with the work tree.
//
// Exit codes: 0 the two mean the same for every target, 1 they differ, 2 an error (usage, an
// input that does not compile, git).
#include "driver/qcc/Diff.h"

#include "driver/diff/CompileSide.h"
#include "driver/diff/Render.h"
#include "driver/qcc/diff/Vendor.h"
#include "emitters/Emitter.h"
#include "frontend/Frontend.h"
#include "ir/Cli.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <unordered_map>

extern char **environ;

namespace qspec::driver {
namespace {

namespace fs = std::filesystem;

const char *kDiffUsage =
    R"(usage: qcc diff BEFORE.qspec AFTER.qspec [options]
       qcc diff --rev REV SPEC.qspec [options]
       qcc diff SPEC.qspec VENDOR-FILE [options]
       qcc diff VENDOR-FILE VENDOR-FILE [--spec SPEC | --model INV] [options]

  BEFORE AFTER        two specs, compiled as qcc compiles them; or a spec and a vendor file
                      (practice .yaml, AMCT .cfg, HMCT .json, Horizon .py), or two vendor
                      files of one kind, each read as its vendor reads it
  --rev REV           BEFORE is SPEC (and the files it includes) at git revision REV
  --model INV         the inventory of both sides (overrides the specs'); also --inventory
  --model-a INV       the inventory of the before side only
  --model-b INV       the inventory of the after side only
  --scores FILE       sensitivity scores of both sides (overrides the specs')
  --spec SPEC         for two vendor files: the spec giving their inventory and target
  --format=F          text (default), json or markdown
  --color=WHEN        auto (default: on a terminal, unless NO_COLOR is set) | always | never
  --max-patterns=N    patterns shown per group in text and Markdown (default 8; JSON: all)

Exit status: 0 the two mean the same for every target, 1 they differ, 2 an error.
)";

struct DiffOptions {
  std::vector<std::string> specs;
  std::string rev, model, modelA, modelB, scores, spec;
  std::string format = "text", color = "auto";
  size_t maxPatterns = 8;
};

int diffUsageError(const std::string &msg) {
  std::cerr << "qcc diff: error: " << msg << "\n"
            << "run 'qcc diff --help' for usage\n";
  return 2;
}

bool startsWith(const std::string &s, const std::string &p) { return s.rfind(p, 0) == 0; }

// What parseDiffArgs cannot judge one flag at a time; -1 if the options can be used.
int checkDiffOptions(DiffOptions &o) {
  if (o.format != "text" && o.format != "json" && o.format != "markdown")
    return diffUsageError("--format must be text, json or markdown");
  if (o.color != "auto" && o.color != "always" && o.color != "never")
    return diffUsageError("--color must be auto, always or never");
  if (!o.model.empty() && (!o.modelA.empty() || !o.modelB.empty()))
    return diffUsageError("--model names both sides' inventory; use it without --model-a/-b");
  if (!o.rev.empty() && o.rev[0] == '-')
    return diffUsageError("--rev takes a revision, not '" + sanitizeForTerminal(o.rev) + "'");
  size_t want = o.rev.empty() ? 2 : 1;
  if (o.specs.size() != want)
    return diffUsageError(o.rev.empty() ? "two specs are needed (BEFORE AFTER)"
                                        : "--rev takes one spec (compared with the work tree)");
  bool vendor = false;
  for (const std::string &s : o.specs) {
    if (s == "-")
      return diffUsageError("a side cannot be standard input");
    vendor = vendor || !diff::isSpecPath(s);
  }
  if (vendor && !o.rev.empty())
    return diffUsageError("--rev compares a spec (.qspec), not a vendor file");
  if (vendor && (!o.modelA.empty() || !o.modelB.empty()))
    return diffUsageError("a vendor file is read on one inventory: use --model, not --model-a/-b");
  if (!o.spec.empty() &&
      (!vendor || diff::isSpecPath(o.specs.front()) || diff::isSpecPath(o.specs.back())))
    return diffUsageError("--spec is for two vendor files (it gives their inventory and target)");
  if (!o.model.empty())
    o.modelA = o.modelB = o.model;
  return -1;
}

// Parses argv; -1 to continue, else an exit code.
int parseDiffArgs(int argc, char **argv, DiffOptions &o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    std::string missing;
    auto value = [&](const std::string &flag, std::string &out) {
      if (startsWith(a, flag + "=")) {
        out = a.substr(flag.size() + 1);
        return true;
      }
      if (a != flag)
        return false;
      if (i + 1 >= argc)
        missing = flag;
      else
        out = argv[++i];
      return true;
    };
    std::string maxPatterns;
    if (a == "--help" || a == "-h") {
      std::cout << kDiffUsage;
      return 0;
    }
    if (value("--rev", o.rev) || value("--model", o.model) || value("--inventory", o.model) ||
        value("--model-a", o.modelA) || value("--model-b", o.modelB) ||
        value("--scores", o.scores) || value("--spec", o.spec) || value("--format", o.format) ||
        value("--color", o.color) || value("--max-patterns", maxPatterns)) {
      if (!missing.empty())
        return diffUsageError("option '" + missing + "' needs a value");
      if (!maxPatterns.empty()) {
        char *end = nullptr;
        unsigned long n = std::strtoul(maxPatterns.c_str(), &end, 10);
        if (*end || n == 0 || maxPatterns[0] == '-')
          return diffUsageError("--max-patterns takes a positive whole number");
        o.maxPatterns = n;
      }
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return diffUsageError("unknown option '" + sanitizeForTerminal(a) + "'");
    } else {
      o.specs.push_back(a);
    }
  }
  return checkDiffOptions(o);
}

// Runs `git -C DIR show SPEC` and returns its standard output in `out`; false with git's message
// (or why it could not run) in `err`.
bool gitShow(const std::string &dir, const std::string &object, std::string &out,
             std::string &err) {
  int outPipe[2], errPipe[2];
  if (::pipe(outPipe) != 0)
    return err = "cannot create a pipe", false;
  if (::pipe(errPipe) != 0) {
    ::close(outPipe[0]);
    ::close(outPipe[1]);
    return err = "cannot create a pipe", false;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, outPipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&fa, errPipe[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&fa, outPipe[0]);
  posix_spawn_file_actions_addclose(&fa, errPipe[0]);
  std::vector<std::string> args = {"git", "-C", dir, "show", object};
  std::vector<char *> argvp;
  for (std::string &s : args)
    argvp.push_back(s.data());
  argvp.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, "git", &fa, nullptr, argvp.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(outPipe[1]);
  ::close(errPipe[1]);
  auto drain = [](int fd, std::string &to) {
    char buf[65536];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
      if (n > 0)
        to.append(buf, static_cast<size_t>(n));
    ::close(fd);
  };
  std::string errText;
  drain(outPipe[0], out);
  drain(errPipe[0], errText);
  if (rc != 0)
    return err = "cannot run git", false;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return true;
  while (!errText.empty() && (errText.back() == '\n' || errText.back() == '\r'))
    errText.pop_back();
  err = errText.empty() ? "git failed" : errText;
  return false;
}

// Reads `path` at revision `rev`, and each file it includes (recursively), into `texts` by the
// path the frontend will ask for; false with the reason in `err`.
bool readAtRevision(const std::string &rev, const std::string &path,
                    std::unordered_map<std::string, std::string> &texts, std::string &err,
                    size_t depth = 0) {
  if (texts.count(path))
    return true;
  if (depth > frontend::FrontendOptions{}.maxIncludeDepth)
    return err = "includes nested too deeply at the revision", false;
  fs::path p(path);
  std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
  std::string text;
  if (!gitShow(dir, rev + ":./" + p.filename().string(), text, err)) {
    err = "cannot read '" + path + "' at revision '" + rev + "': " + err;
    return false;
  }
  std::string &stored = texts[path] = std::move(text);
  // The includes this text names (parsed alone; the real parse reports any error later).
  SourceManager sm;
  DiagnosticEngine diags(sm);
  auto root = frontend::parse(sm.addFile(path, stored), diags);
  if (!root)
    return true;
  for (const auto &item : root->children)
    if (item->kind == ast::Kind::Include)
      if (const ast::Node *target = item->first(ast::Kind::String))
        if (!readAtRevision(rev, frontend::resolvePath(path, target->text), texts, err, depth + 1))
          return false;
  return true;
}

// One side being compiled; kept to the end of the process, like qcc's -disable-free: freed
// with the process, not module by module.
using Loaded = diff::CompiledSide;

// Compiles one side as qcc does (diff::compileSide); false after an error (in `l.diags`).
bool compileSide(Loaded &l, const std::string &path, const std::string &inventory,
                 const DiffOptions &o, const std::string &stem, const std::string *text = nullptr) {
  diff::CompileInputs in;
  in.inventory = inventory;
  in.scores = o.scores;
  in.stem = stem;
  in.text = text;
  return diff::compileSide(l, path, in);
}

// Prints `result` in the format asked for; the exit code.
int render(const diff::DiffResult &result, const DiffOptions &o) {
  diff::RenderOptions ro;
  ro.color = useColor(o.color, STDOUT_FILENO);
  ro.maxPatterns = o.maxPatterns;
  if (o.format == "json")
    diff::renderJSON(result, std::cout);
  else if (o.format == "markdown")
    diff::renderMarkdown(result, ro, std::cout);
  else
    diff::renderText(result, ro, std::cout);
  std::cout.flush();
  return result.same() ? 0 : 1;
}

int fail(const std::string &msg) {
  std::cerr << "qcc diff: error: " << sanitizeForTerminal(msg) << "\n";
  return 2;
}

// The kind of vendor files among the sides (read into `texts`); "" after an error (in `l`) or
// when they are of no or of two kinds (`why`).
std::string vendorFilesKind(Loaded &l, const DiffOptions &o, std::string texts[2],
                            std::string &why) {
  std::string kind;
  for (size_t k = 0; k < 2; ++k) {
    const std::string &path = o.specs[k];
    if (diff::isSpecPath(path))
      continue;
    std::string err;
    FileID f = l.sm.loadFile(path, err, frontend::ParseLimits{}.maxFileBytes);
    if (!f) {
      l.diags.report(DiagID::err_cannot_open_file, SourceRange{}, {path, err});
      return "";
    }
    texts[k] = l.sm.text(f);
    std::string kk = diff::vendorKind(path, texts[k]);
    if (kk.empty())
      why = "cannot tell which vendor's file '" + path +
            "' is (a practice .yaml, an AMCT .cfg, an HMCT .json or a Horizon .py)";
    else if (!kind.empty() && kk != kind)
      why = "'" + o.specs[0] + "' is a " + kind + " file and '" + path + "' a " + kk +
            " file: compare files of one kind";
    if (!why.empty())
      return "";
    kind = kk;
  }
  return kind;
}

// A spec and a vendor file, or two vendor files of one kind: both read through the vendor's
// reading on one inventory (the spec's, --spec's or --model's).
int diffVendorFiles(const DiffOptions &o) {
  static Loaded *ctx = new Loaded;
  std::string texts[2], why;
  std::string kind = vendorFilesKind(*ctx, o, texts, why);
  if (!why.empty())
    return fail(why);
  bool ok = !kind.empty();
  std::string specPath = diff::isSpecPath(o.specs[0])   ? o.specs[0]
                         : diff::isSpecPath(o.specs[1]) ? o.specs[1]
                                                        : o.spec;
  if (ok && specPath.empty()) {
    if (o.model.empty())
      return fail("two vendor files are read on an inventory: give --model INV or --spec SPEC");
    const std::string text = diff::minimalSpecText(kind);
    ok = compileSide(*ctx, "<" + kind + " target>", o.model, o, "diff", &text);
  } else if (ok) {
    ok = compileSide(*ctx, specPath, o.model, o, fs::path(specPath).stem().string());
  }
  if (ok && ctx->spec->inventory.modules.empty())
    return fail("a vendor file is compared on an inventory: the spec names none; give --model INV");
  static vendors::VendorReading readings[2];
  diff::Side sides[2] = {ctx->side, ctx->side};
  std::string unread; // a vendor file its vendor's reading refused
  for (size_t k = 0; ok && k < 2; ++k) {
    sides[k].label = o.specs[k];
    ok = diff::isSpecPath(o.specs[k])
             ? diff::specThroughReading(sides[k], kind, readings[k], ctx->diags)
             : diff::vendorFileSide(sides[k], o.specs[k], kind, texts[k], readings[k], ctx->diags);
    if (!ok && !diff::isSpecPath(o.specs[k]))
      unread = o.specs[k];
  }
  if (!ok) {
    ctx->diags.printText(std::cerr, useColor(o.color, STDERR_FILENO));
    // The readers speak of the file a target emits; say which file it was.
    return unread.empty() ? 2
                          : fail("the " + kind + " reading refused '" + unread +
                                 "' (the diagnostics above are about that file)");
  }
  return render(diff::compareSides(sides[0], sides[1]), o);
}

} // namespace

int runDiff(int argc, char **argv) {
  DiffOptions o;
  if (int rc = parseDiffArgs(argc, argv, o); rc >= 0)
    return rc;
  emit::registerAllEmitters();
  if (!diff::isSpecPath(o.specs.front()) || !diff::isSpecPath(o.specs.back()))
    return diffVendorFiles(o);
  const std::string afterPath = o.specs.back();
  const std::string beforePath = o.specs.front();
  // Both sides' files are named with the after side's stem: only a name the emitter chooses
  // (msModelSlim's config_id) shows as a rename.
  const std::string stem = fs::path(afterPath).stem().string();
  static Loaded *before = new Loaded, *after = new Loaded;
  before->side.label = beforePath;
  after->side.label = afterPath;
  if (!o.rev.empty()) {
    auto texts = std::make_shared<std::unordered_map<std::string, std::string>>();
    std::string err;
    if (!readAtRevision(o.rev, beforePath, *texts, err))
      return fail(err);
    before->side.label = o.rev + ":" + beforePath;
    before->side.revision = o.rev;
    for (const auto &[path, text] : *texts)
      before->side.revisionFiles.push_back(path);
    before->sm.setOverlay(texts);
  }
  bool ok = compileSide(*before, beforePath, o.modelA, o, stem);
  ok = compileSide(*after, afterPath, o.modelB, o, stem) && ok;
  if (!ok) {
    bool color = useColor(o.color, STDERR_FILENO);
    before->diags.printText(std::cerr, color);
    after->diags.printText(std::cerr, color);
    return 2;
  }
  return render(diff::compareSides(before->side, after->side), o);
}

} // namespace qspec::driver
