# Interrupts `qcc SPEC --emit=all -o DIR` with SIGKILL or SIGINT at many points of its run and
# checks, after each, that DIR holds only complete files: each one byte-identical to the file of
# an uninterrupted run, and no temporary file.
#   interrupt.py QCC SPEC INVENTORY WORKDIR [STRIDE]
# STRIDE N (default 1): every Nth of the twelve points per signal.
import os
import shutil
import signal
import subprocess
import sys
import time

qcc, spec, inventory, work = sys.argv[1:5]
stride = int(sys.argv[5]) if len(sys.argv) > 5 else 1
ref = os.path.join(work, "ref")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(ref)
t0 = time.monotonic()
subprocess.run([qcc, spec, "--inventory", inventory, "--emit=all", "-o", ref], check=True,
               stderr=subprocess.DEVNULL)
full = time.monotonic() - t0
expected = {n: open(os.path.join(ref, n), "rb").read() for n in os.listdir(ref)}
if len(expected) < 2:
    sys.exit("reference run wrote %d files" % len(expected))

bad = []
runs = 0
for sig in (signal.SIGKILL, signal.SIGINT, signal.SIGTERM):
    for k in range(0, 12, stride):
        out = os.path.join(work, "run-%d-%d" % (sig, k))
        os.makedirs(out)
        p = subprocess.Popen([qcc, spec, "--inventory", inventory, "--emit=all", "-o", out],
                             stderr=subprocess.DEVNULL)
        time.sleep(full * k / 10.0)
        p.send_signal(sig)
        p.wait()
        runs += 1
        for n in os.listdir(out):
            data = open(os.path.join(out, n), "rb").read()
            if n not in expected:
                bad.append("%s: unexpected file %s" % (out, n))
            elif data != expected[n]:
                bad.append("%s: partial or different %s (%d of %d bytes)" % (out, n, len(data), len(expected[n])))
if bad:
    print("\n".join(bad))
    sys.exit(1)
print("interrupted %d runs: no partial or temporary file" % runs)
