# An inventory with a hostile name may be refused (exit 1, a diagnostic with the bytes escaped)
# or accepted; if accepted, everything qcc writes for it must still parse and hold no raw control
# byte. accept-or-refuse.py QCC SPEC INVENTORY WORKDIR
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
qcc, spec, inv, work = sys.argv[1:5]
out = os.path.join(work, "out")
os.makedirs(out, exist_ok=True)
err = os.path.join(work, "stderr.txt")
with open(err, "wb") as e:
    r = subprocess.run([qcc, spec, "--inventory", inv, "--emit=all", "-o", out], stderr=e)
if r.returncode == 0:
    with open(err, "ab") as e:
        r2 = subprocess.run([qcc, spec, "--inventory", inv, "--emit=ir", "-o", os.path.join(out, "ir.json")], stderr=e)
    if r2.returncode != 0:
        sys.exit("--emit=ir failed after --emit=all succeeded")
    print("accepted")
elif r.returncode == 1:
    if os.listdir(out):
        sys.exit("refused, but wrote files")
    print("refused")
else:
    sys.exit("qcc ended with %d" % r.returncode)
sys.exit(subprocess.run([sys.executable, os.path.join(here, "check-outputs.py"), out, err]).returncode)
