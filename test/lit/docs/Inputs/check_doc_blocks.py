# Checks every fenced code block of the user docs (README.md and docs/**/*.md) by the convention
# in docs/contributing.md ("Code blocks in the docs"):
#   ```qspec            a complete spec: saved (under the name that follows, e.g. ```qspec
#                       model.qspec, else doc-block.qspec) and compiled with qcc --emit=all
#                       -Werror; it must compile without errors or warnings
#   ```qspec fragment   part of a spec: not compiled
#   ```sh               commands a user types: run with bash -e -o pipefail; must exit 0
#   ```sh fragment      illustrative commands: not run
#   ```text, ```yaml, ```json, ...   anything else: not run
# A fence without an info string is a problem (say what the block is).
# Each document runs in its own scratch folder that looks like the repository root: every
# top-level entry of the source tree is a symlink, `build` points at the build tree, and the
# build's bin/ is first on PATH. Blocks of one document run in order in that folder, so a
# ```sh block may use the spec a ```qspec NAME block above it saved.
# Lint rule pages (docs/lint/<category>/<rule>.md): the first block under "## Example that
# triggers it" is linted instead of compiled when the category is a vendor's (saved as .yaml for
# msmodelslim, .cfg for amct, .json for hmct) or the block is a ```qspec one (not a fragment):
# qlint --no-config must report the page's rule. A first line
# `# qlint ARGS FILE` gives the options and the file name to save the example as.
#
#   check_doc_blocks.py [--stride=N] SRCROOT BUILDDIR [DOC...]
#                           (default: README.md and docs/**/*.md; with --stride, every Nth of them)
# Prints one line per problem (`DOC:LINE: problem`), then `N blocks: ... , P problems`; exits 1
# if there is a problem.
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
VENDOR = {"msmodelslim": ".yaml", "amct": ".cfg", "hmct": ".json"}


def blocks(path):
    """Yields (line, info words, body) for every fenced block of a Markdown file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m or (m.group(2)[0] == "`" and "`" in m.group(3)):
            i += 1
            continue
        indent, fence, info = len(m.group(1)), m.group(2), m.group(3).strip()
        start, body = i + 1, []
        i += 1
        while i < len(lines):
            c = FENCE.match(lines[i])
            if c and c.group(2)[0] == fence[0] and len(c.group(2)) >= len(fence) and not c.group(3).strip():
                break
            body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
            i += 1
        yield start, info.split(), "\n".join(body) + "\n"
        i += 1


def scratch_root(src, build):
    """A folder that looks like the repository root, with `build` pointing at the build tree."""
    root = tempfile.mkdtemp(prefix="qspec-doc-")
    for entry in os.listdir(src):
        if entry.startswith("build") or entry in ("out", ".git"):
            continue
        os.symlink(os.path.join(src, entry), os.path.join(root, entry))
    os.symlink(build, os.path.join(root, "build"))
    return root


def run(cmd, cwd, env, stdin=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, input=stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=600)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        return -1, "timed out after 120 s"


class Checker:
    def __init__(self, src, build):
        self.src, self.build = os.path.abspath(src), os.path.abspath(build)
        self.env = dict(os.environ)
        self.env["PATH"] = os.path.join(self.build, "bin") + os.pathsep + self.env.get("PATH", "")
        self.env.pop("NO_COLOR", None)
        self.problems, self.counts = 0, {"compiled": 0, "ran": 0, "linted": 0, "skipped": 0}

    def problem(self, where, text, output=""):
        self.problems += 1
        print("%s: %s" % (where, text))
        for line in output.rstrip("\n").split("\n")[:12] if output else []:
            print("    | " + line)

    def check_doc(self, doc):
        rel = os.path.relpath(doc, self.src)
        root = scratch_root(self.src, self.build)
        try:
            self.check_blocks(doc, rel, root)
        finally:
            shutil.rmtree(root, ignore_errors=True)

    def check_blocks(self, doc, rel, root):
        lint_rule = self.lint_rule(rel)
        example_line = self.example_line(doc) if lint_rule else None
        for line, words, body in blocks(doc):
            where = "%s:%d" % (rel, line)
            if not words:
                self.problem(where, "fenced block without an info string (qspec, qspec fragment, sh, sh fragment, text, ...)")
                continue
            lang, tags = words[0], words[1:]
            if lint_rule and example_line is not None and line > example_line:
                example_line = None
                complete_spec = lang == "qspec" and "fragment" not in tags
                if lint_rule[0] in VENDOR or complete_spec:
                    self.check_lint_example(where, root, lint_rule, body)
                    continue
            if "fragment" in tags:
                self.counts["skipped"] += 1
            elif lang == "qspec":
                self.compile_spec(where, root, tags, body)
            elif lang == "sh":
                self.run_sh(where, root, body)
            else:
                self.counts["skipped"] += 1

    def compile_spec(self, where, root, tags, body):
        name = next((t for t in tags if t.endswith(".qspec")), "doc-block.qspec")
        with open(os.path.join(root, name), "w", encoding="utf-8") as f:
            f.write(body)
        out = os.path.join(root, ".doc-out", where.replace("/", "_").replace(":", "_"))
        rc, text = run(["qcc", name, "--emit=all", "-o", out, "-Werror"], root, self.env)
        self.counts["compiled"] += 1
        if rc != 0 or "warning:" in text:
            self.problem(where, "qspec block does not compile cleanly (qcc exit %d)" % rc, text)

    def run_sh(self, where, root, body):
        rc, text = run(["bash", "-e", "-o", "pipefail", "-c", body], root, self.env)
        self.counts["ran"] += 1
        if rc != 0:
            self.problem(where, "sh block exits %d" % rc, text)

    def lint_rule(self, rel):
        parts = rel.split(os.sep)
        if len(parts) == 4 and parts[:2] == ["docs", "lint"] and parts[3].endswith(".md"):
            return parts[2], "%s-%s" % (parts[2], parts[3][:-3])
        return None

    def example_line(self, doc):
        for n, text in enumerate(open(doc, encoding="utf-8").read().split("\n"), 1):
            if text.strip() == "## Example that triggers it":
                return n
        return None

    def check_lint_example(self, where, root, rule, body):
        category, rule_id = rule
        args, name = [], "example" + VENDOR.get(category, ".qspec")
        first = body.split("\n", 1)[0]
        m = re.match(r"^(#|//) qlint (.*)$", first)
        if m:
            words = shlex.split(m.group(2))
            args, name = words[:-1], words[-1]
        with open(os.path.join(root, name), "w", encoding="utf-8") as f:
            f.write(body)
        rc, text = run(["qlint", "--no-config"] + args + [name], root, self.env)
        self.counts["linted"] += 1
        if "[%s]" % rule_id not in text:
            self.problem(where, "the example does not trigger %s (qlint exit %d)" % (rule_id, rc), text)


def main():
    args = sys.argv[1:]
    stride = 1
    if args and args[0].startswith("--stride="):
        stride = int(args.pop(0).split("=", 1)[1])
    src, build = args[0], args[1]
    docs = args[2:] or [os.path.join(src, "README.md")] + sorted(
        glob.glob(os.path.join(src, "docs", "**", "*.md"), recursive=True))
    docs = docs[::stride]
    checker = Checker(src, build)
    for doc in docs:
        checker.check_doc(os.path.abspath(doc))
    c = checker.counts
    print("%d docs: %d compiled, %d ran, %d linted, %d skipped; %d problems"
          % (len(docs), c["compiled"], c["ran"], c["linted"], c["skipped"], checker.problems))
    return 1 if checker.problems else 0


if __name__ == "__main__":
    sys.exit(main())
