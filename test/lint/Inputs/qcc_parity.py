# qlint and qcc give one verdict on a spec. For every .qspec under the given folders (and every
# ```qspec block of the given Markdown files, written to a scratch file), runs
# `qcc SPEC --emit=all -o DIR` and `qlint SPEC` and checks:
#   - every error and warning qcc reports is a qlint finding carrying qcc's ID ("[err_x]") at the
#     same line and column;
#   - a spec qcc accepts has no qlint finding at error severity (qlint's own checks are warnings).
# Prints one MISMATCH line per difference, then a summary. qlint lints the specs in batches, one
# process for many files (its JSON names each file); a batch qlint cannot finish is linted again
# one file at a time, so a failure is reported against its spec.
#   qcc_parity.py QCC QLINT [--qlint-arg=ARG]... [--stride=N] PATH...
# PATH: a folder, a .qspec or a .md. With --stride=N (lit's %corpus_stride: 4 in the sanitizer
# tree, else 1), every N-th spec in the order found.
import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

qcc, qlint = sys.argv[1], sys.argv[2]
extra = [a[len("--qlint-arg="):] for a in sys.argv[3:] if a.startswith("--qlint-arg=")]
stride = max([1] + [int(a[len("--stride="):]) for a in sys.argv[3:] if a.startswith("--stride=")])
roots = [a for a in sys.argv[3:] if not a.startswith("--")]
scratch = tempfile.mkdtemp(prefix="qcc-parity-")
atexit.register(shutil.rmtree, scratch, True)  # every qcc output of every spec: not left in TMPDIR


def specs():
    for root in roots:
        if root.endswith(".md"):
            text = open(root, encoding="utf-8").read()
            for k, m in enumerate(re.finditer(r"^```qspec[^\S\n]*(\S*)\n(.*?)^```", text, re.M | re.S)):
                if m.group(1) == "fragment":
                    continue
                path = os.path.join(scratch, "%s-%d.qspec" % (os.path.basename(root)[:-3], k))
                open(path, "w", encoding="utf-8").write(m.group(2))
                yield path, "%s block %d" % (root, k)
        elif os.path.isfile(root):
            yield root, root
        else:
            for d, dirs, files in os.walk(root):
                dirs[:] = sorted(x for x in dirs if not x.startswith(".") and not x.startswith("build"))
                for f in sorted(files):
                    if f.endswith(".qspec"):
                        yield os.path.join(d, f), os.path.join(d, f)


def qcc_diags(path):
    out = tempfile.mkdtemp(dir=scratch)
    r = subprocess.run([qcc, path, "--emit=all", "-o", out, "--diagnostics-format=json", "--error-limit=0"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    err = r.stderr
    start = err.find("{\n")
    return [d for d in json.loads(err[start:])["diagnostics"] if d["severity"] in ("error", "fatal", "warning")]


def qlint_run(paths):
    """{path: findings} for PATHS linted by one qlint process, or None when qlint failed; with
    the failure's message when PATHS is one file."""
    r = subprocess.run([qlint, "--no-config", "--format=json"] + extra + paths,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode not in (0, 1):
        return None, r.stderr.strip()
    by_path = {os.path.normpath(f["path"]): f["findings"] for f in json.loads(r.stdout)["files"]}
    if any(os.path.normpath(p) not in by_path for p in paths):
        return None, "qlint's report does not name every file"
    return by_path, ""


def qlint_findings(paths, batch=64):
    """[(findings or None, why)] for each of PATHS, in order."""
    results = []
    for k in range(0, len(paths), batch):
        chunk = paths[k:k + batch]
        by_path, _ = qlint_run(chunk)
        for p in chunk:
            if by_path is None:
                one, why = qlint_run([p])
                results.append((one[os.path.normpath(p)], "") if one else (None, why))
            else:
                results.append((by_path[os.path.normpath(p)], ""))
    return results


def where(loc):
    return (loc.get("line"), loc.get("column")) if loc.get("line") else None


count = mismatches = 0
todo = list(specs())[::stride]
linted = qlint_findings([path for path, _ in todo])
for (path, name), (l, why) in zip(todo, linted):
    count += 1
    q = qcc_diags(path)
    if l is None:
        print("MISMATCH %s: qlint could not lint it: %s" % (name, why))
        mismatches += 1
        continue
    found = set()
    for f in l:
        for i in re.findall(r"\[((?:err|warn|fatal)_\w+)\]", f["message"]):
            found.add((i, where(f["location"])))
            found.add((i, None))
    for d in q:
        key = (d["id"], where(d["location"]) if where(d["location"]) else None)
        if key not in found:
            print("MISMATCH %s: qcc %s %s at %s, qlint has no such finding" % (name, d["severity"], d["id"], key[1]))
            mismatches += 1
    if not any(d["severity"] != "warning" for d in q):
        for f in l:
            if f["severity"] == "error":
                print("MISMATCH %s: qcc accepts it, qlint reports %s: %s" % (name, f["rule"], f["message"]))
                mismatches += 1
print("%d specs, %d mismatches" % (count, mismatches))
