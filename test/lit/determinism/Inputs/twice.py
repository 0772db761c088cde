# Runs every tool twice on every example (examples/*/*.qspec) and compares the bytes of stdout,
# stderr and every file written. twice.py QCC QLINT EXAMPLES WORKDIR [STRIDE]: with STRIDE, every
# STRIDE-th example.
import glob
import os
import subprocess
import sys

qcc, qlint, examples, work = sys.argv[1:5]
stride = int(sys.argv[5]) if len(sys.argv) > 5 else 1
specs = sorted(glob.glob(os.path.join(examples, "*", "*.qspec")))[::stride]
print("examples: %d specs" % len(specs))
different = 0


def run(args, outdir):
    os.makedirs(outdir, exist_ok=True)
    p = subprocess.run(args, cwd=outdir, capture_output=True)
    files = {}
    for root, _, names in os.walk(outdir):
        for n in names:
            path = os.path.join(root, n)
            files[os.path.relpath(path, outdir)] = open(path, "rb").read()
    return p.returncode, p.stdout, p.stderr.replace(outdir.encode(), b"OUT"), files


for i, spec in enumerate(specs):
    name = os.path.basename(spec)
    cmds = {
        "all": lambda o: [qcc, spec, "--emit=all", "-o", o],
        "ir": lambda o: [qcc, spec, "--emit=ir"],
        "ast": lambda o: [qcc, spec, "--emit=ast"],
        "explain": lambda o: [qcc, spec, "--explain", "lm_head"],
        "lint-text": lambda o: [qlint, "--no-config", spec],
        "lint-json": lambda o: [qlint, "--no-config", "--format=json", spec],
        "lint-sarif": lambda o: [qlint, "--no-config", "--format=sarif", spec],
        "lint-github": lambda o: [qlint, "--no-config", "--format=github", spec],
    }
    for kind, cmd in cmds.items():
        a = os.path.join(work, "%d-%s-a" % (i, kind))
        b = os.path.join(work, "%d-%s-b" % (i, kind))
        ra = run(cmd(a), a)
        rb = run(cmd(b), b)
        if ra != rb:
            different += 1
            print("DIFFERENT: %s %s" % (name, kind))
    # qlint on the files qcc wrote.
    out = os.path.join(work, "%d-all-a" % i)
    for fmt in ("text", "json", "sarif"):
        ra = run([qlint, "--no-config", "--format=" + fmt, out], os.path.join(work, "%d-lo-%s-a" % (i, fmt)))
        rb = run([qlint, "--no-config", "--format=" + fmt, out], os.path.join(work, "%d-lo-%s-b" % (i, fmt)))
        if ra != rb:
            different += 1
            print("DIFFERENT: %s qlint %s on outputs" % (name, fmt))
print("identical" if different == 0 else "%d different" % different)
sys.exit(1 if different else 0)
