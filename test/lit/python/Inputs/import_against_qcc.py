"""qspec.import_file against `qcc import`: the same spec bytes (printed, and written with -o),
the same diagnostics and --roundtrip rows, and an error exactly when qcc exits 1.

usage: import_against_qcc.py QCC SCRATCH CASE...
  CASE: FILE[+FILE...][@INVENTORY]   (one line per case; exits 1 on a difference)
"""
import os
import subprocess
import sys

import qspec

qcc, scratch, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
os.makedirs(scratch, exist_ok=True)
failed = False
for n, case in enumerate(cases):
    files, _, inventory = case.partition("@")
    files = files.split("+")
    inv_args = ["--inventory", inventory] if inventory else []
    problems = []
    # Printed: the spec on standard output, the diagnostics on standard error.
    run = subprocess.run([qcc, "import"] + files + inv_args, capture_output=True)
    im = qspec.import_file(files if len(files) > 1 else files[0], inventory=inventory or None)
    if im.data != (run.stdout if run.returncode == 0 else b""):
        problems.append("spec bytes differ")
    if im.diagnostics_text.encode() != run.stderr:
        problems.append("diagnostics differ:\n--- qspec\n%s--- qcc\n%s"
                        % (im.diagnostics_text, run.stderr.decode()))
    if im.ok != (run.returncode == 0):
        problems.append("ok=%s, qcc exit %d" % (im.ok, run.returncode))
    if im.ok and im.text != run.stdout.decode():
        problems.append("text differs")
    # Written: -o makes the inventory's path relative to the spec.
    out = os.path.join(scratch, "case%d" % n, "spec.qspec")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    run = subprocess.run([qcc, "import"] + files + inv_args + ["-o", out], capture_output=True)
    im = qspec.import_file(files, inventory=inventory or None, output=out)
    if im.ok and not os.path.isfile(out):
        problems.append("-o: qcc wrote nothing")
    elif im.ok:
        with open(out, "rb") as f:
            written = f.read()
        os.remove(out)
        if im.write() != out or open(out, "rb").read() != written or im.data != written:
            problems.append("-o: the written spec differs")
    elif run.returncode != 1 or os.path.exists(out):
        problems.append("-o: qcc exit %d" % run.returncode)
    # --roundtrip rows.
    if inventory:
        run = subprocess.run([qcc, "import"] + files + inv_args + ["--roundtrip"],
                             capture_output=True)
        im = qspec.import_file(files, inventory=inventory, roundtrip=True)
        if im.roundtrip.encode() != run.stdout:
            problems.append("roundtrip rows differ: %r, qcc %r" % (im.roundtrip, run.stdout))
    failed = failed or bool(problems)
    print("%s: %d bytes, %d diagnostics: %s" % ("+".join(os.path.basename(f) for f in files),
                                                len(im.data), len(im.diagnostics),
                                                "; ".join(problems) or "same as qcc"))
sys.exit(1 if failed else 0)
