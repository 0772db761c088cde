"""qspec.compile against qcc on every example: the same files (names and bytes) as
`qcc SPEC --emit=all -o DIR` writes, and the same diagnostics as it prints.

usage: against_qcc.py QCC SCRATCH SPEC...   (prints one line per spec; exits 1 on a difference)
"""
import os
import subprocess
import sys

import qspec

qcc, scratch, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
failed = False
for spec in specs:
    stem = os.path.splitext(os.path.basename(spec))[0]
    out = os.path.join(scratch, stem)
    run = subprocess.run([qcc, spec, "--emit=all", "-o", out], capture_output=True, text=True)
    # qcc's progress lines are not diagnostics.
    err = "".join(line for line in run.stderr.splitlines(True)
                  if not line.startswith("qcc: wrote "))
    c = qspec.compile(spec)
    want = {}
    if run.returncode == 0 and os.path.isdir(out):
        for name in sorted(os.listdir(out)):
            with open(os.path.join(out, name), "rb") as f:
                want[name] = f.read()
    got = {f.name: f.data for f in c.files}
    problems = []
    if sorted(want) != sorted(got):
        problems.append("files %s, qcc wrote %s" % (sorted(got), sorted(want)))
    problems += ["%s differs" % n for n in sorted(want) if n in got and got[n] != want[n]]
    if c.diagnostics_text != err:
        problems.append("diagnostics differ:\n--- qspec\n%s--- qcc\n%s" % (c.diagnostics_text, err))
    if c.ok != (run.returncode == 0):
        problems.append("ok=%s, qcc exit %d" % (c.ok, run.returncode))
    if sum(1 for d in c.diagnostics if d.severity == "warning") != err.count(": warning: "):
        problems.append("warning objects do not match the text")
    failed = failed or bool(problems)
    print("%s: %d files, %d diagnostics: %s" % (os.path.basename(spec), len(got),
                                                len(c.diagnostics),
                                                "; ".join(problems) or "same as qcc"))
sys.exit(1 if failed else 0)
