"""`qcc fmt` on every .qspec of the repository: formatting preserves the meaning and is
idempotent.

    fmt_corpus.py SRCROOT QCC WORKDIR [STRIDE]

For each .qspec under SRCROOT (build trees and node_modules left out) that `qcc fmt` accepts:
  - fmt(fmt(x)) == fmt(x), byte for byte;
  - the spec and its formatted copy compile to the same result: `qcc --emit=ir` exit code, and,
    when it compiles, the same IR JSON once source locations (which move) are blanked.
The formatted copy must see the same relative includes and inputs, so WORKDIR gets a mirror of
SRCROOT made of symbolic links, with the spec itself replaced by its formatted text. A spec fmt
leaves unchanged needs neither check (the same bytes), so it costs one process, not four.
With STRIDE (lit's %corpus_stride: 4 in the sanitizer tree, else 1), every STRIDE-th spec in
path order. Prints counts; exits 1 on any difference and when fewer than 100 / STRIDE specs were
checked.
"""
import json
import os
import re
import subprocess
import sys

LOC = re.compile(r":\d+:\d+(-\d+:\d+)?$")
SKIP_DIRS = {".git", "node_modules", "__pycache__"}


def specs(root):
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("build"))
        for f in sorted(files):
            if f.endswith(".qspec"):
                yield os.path.join(d, f)


def mirror(root, dest):
    """dest/ mirrors root/: real directories, every file a symbolic link; a node_modules folder
    (an example's model and runtime from npm) is linked whole, since a spec may name a file in it."""
    for d, dirs, files in os.walk(root):
        out = os.path.join(dest, os.path.relpath(d, root))
        os.makedirs(out, exist_ok=True)
        if "node_modules" in dirs and not os.path.lexists(os.path.join(out, "node_modules")):
            os.symlink(os.path.join(d, "node_modules"), os.path.join(out, "node_modules"))
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS and not x.startswith("build")]
        for f in files:
            link = os.path.join(out, f)
            if not os.path.lexists(link):
                os.symlink(os.path.join(d, f), link)


def blank(node, roots):
    if isinstance(node, dict):
        return {k: blank(v, roots) for k, v in node.items()}
    if isinstance(node, list):
        return [blank(v, roots) for v in node]
    if isinstance(node, str):
        for r in roots:
            node = node.replace(r, "<root>")
        return LOC.sub(":<loc>", node)
    return node


def compile_ir(qcc, path, roots):
    p = subprocess.run([qcc, path, "--emit=ir"], capture_output=True, cwd=os.path.dirname(path))
    if p.returncode != 0:
        return p.returncode, None
    return 0, blank(json.loads(p.stdout), roots)


def fmt(qcc, data):
    p = subprocess.run([qcc, "fmt", "-"], input=data, capture_output=True)
    return p.stdout if p.returncode == 0 else None


def main():
    root, qcc, work = os.path.realpath(sys.argv[1]), sys.argv[2], sys.argv[3]
    stride = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    mroot = os.path.join(work, "repo")
    todo = list(specs(root))[::stride]
    mirror(root, mroot)
    roots = [mroot, root]
    checked = compiled = unparsed = changed = 0
    bad = []
    for spec in todo:
        with open(spec, "rb") as f:
            original = f.read()
        once = fmt(qcc, original)
        if once is None:
            unparsed += 1
            continue
        checked += 1
        if once == original:
            # Already formatted: formatting again and compiling the same bytes prove nothing.
            continue
        changed += 1
        if fmt(qcc, once) != once:
            bad.append("not idempotent: " + os.path.relpath(spec, root))
        copy = os.path.join(mroot, os.path.relpath(spec, root))
        os.unlink(copy)
        with open(copy, "wb") as f:
            f.write(once)
        before = compile_ir(qcc, spec, roots)
        after = compile_ir(qcc, copy, roots)
        compiled += before[0] == 0
        if before != after:
            bad.append("meaning changed: " + os.path.relpath(spec, root))
    for b in bad:
        print(b)
    print("specs formatted: %d (%d changed by fmt), of the changed compiled with identical IR: %d; "
          "not parsed (left out): %d; differences: %d" % (checked, changed, compiled, unparsed, len(bad)))
    sys.exit(1 if bad or checked < 100 // stride else 0)


main()
