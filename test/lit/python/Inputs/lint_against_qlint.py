"""qspec.lint against qlint: the same findings as `qlint --format=json PATHS...` prints (file,
position, rule, severity, message, notes, fixes), and an error among them exactly when qlint
exits 1.

usage: lint_against_qlint.py QLINT PATH...   (one line per path, then one for all of them;
                                              exits 1 on a difference)
QLINT_ARGS (in the environment): more arguments for qlint only, to show a difference is seen.
"""
import json
import os
import subprocess
import sys

import qspec

qlint, paths = sys.argv[1], sys.argv[2:]


def from_qlint(args):
    extra = os.environ.get("QLINT_ARGS", "").split()
    run = subprocess.run([qlint, "--format=json"] + extra + args, capture_output=True, text=True)
    out = []
    for f in json.loads(run.stdout)["files"]:
        for x in f["findings"]:
            loc = x["location"] or {}  # null: a finding on no line
            out.append((f["path"], f["kind"], loc.get("file", ""), loc.get("line", 0),
                        loc.get("column", 0), loc.get("endLine", 0), loc.get("endColumn", 0),
                        x["rule"], x["severity"], x["message"],
                        [(n["message"], (n["location"] or {}).get("file", ""),
                          (n["location"] or {}).get("line", 0)) for n in x["notes"]],
                        [(k["offset"], k["length"], k["line"], k["column"], k["text"])
                         for k in x["fixes"]]))
    return out, run.returncode


def from_api(args):
    out = []
    for d in qspec.lint(args):
        assert isinstance(d, qspec.Diagnostic) and d.rule == d.id
        out.append((d.path, d.kind, d.file, d.line, d.column, d.end_line, d.end_column, d.rule,
                    d.severity, d.message, [(n.message, n.file, n.line) for n in d.notes],
                    [(k.offset, k.length, k.line, k.column, k.text) for k in d.fixes]))
    return out


failed = False
for args in [[p] for p in paths] + [paths]:
    want, rc = from_qlint(args)
    got = from_api(args)
    problems = []
    if got != want:
        extra = [x for x in got if x not in want][:3]
        missing = [x for x in want if x not in got][:3]
        problems.append("findings differ: only qspec %s; only qlint %s" % (extra, missing))
    errors = any(x[8] in ("error", "fatal error") for x in got)
    if rc not in (0, 1) or errors != (rc == 1):
        problems.append("qlint exit %d, errors %s" % (rc, errors))
    failed = failed or bool(problems)
    name = args[0] if len(args) == 1 else "all %d paths" % len(args)
    print("%s: %d findings, %d rules: %s" % (name, len(got), len({x[7] for x in got}),
                                             "; ".join(problems) or "same as qlint"))
sys.exit(1 if failed else 0)
