# Runs qlint over the conformance corpus and prints one verdict per file ("accepted" or
# "refused <first error rule>"), then compares the AMCT verdicts with the corpus' own strict-parse
# VERDICTS.txt and prints every disagreement (each one is explained in docs/lint/conformance.md).
#   conformance_verdicts.py QLINT CONFORMANCE_DIR
import json
import os
import subprocess
import sys

qlint, root = sys.argv[1], sys.argv[2]
p = subprocess.run([qlint, "--no-config", "--format=json", root], stdout=subprocess.PIPE, text=True)
if p.returncode not in (0, 1):
    raise SystemExit("qlint failed with status %d" % p.returncode)
out = json.loads(p.stdout)
verdicts = {}
for f in out["files"]:
    rel = os.path.relpath(f["path"], root)
    errors = [x["rule"] for x in f["findings"] if x["severity"] in ("error", "fatal error")]
    warnings = sorted({x["rule"] for x in f["findings"] if x["severity"] == "warning"})
    v = "refused " + errors[0] if errors else "accepted"
    if not errors and warnings:
        v += " with warnings " + ",".join(warnings)
    verdicts[rel] = v
for rel in sorted(verdicts):
    print("%s: %s" % (rel, verdicts[rel]))

expected = {}
with open(os.path.join(root, "amct", "VERDICTS.txt")) as f:
    for line in f:
        if line.startswith("#") or not line.strip():
            continue
        parts = line.split()
        expected[os.path.join("amct", parts[-1])] = parts[0]
agree = 0
for rel, want in sorted(expected.items()):
    got = verdicts.get(rel)
    if got is None:
        print("MISSING %s" % rel)
        continue
    ours = "FAIL" if got.startswith("refused") else "OK"
    if ours == want:
        agree += 1
    else:
        print("DIFFER %s ours=%s strict-parse=%s" % (rel, ours, want))
print("AGREE %d of %d" % (agree, len(expected)))
