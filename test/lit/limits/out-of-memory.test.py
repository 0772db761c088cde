# Helper of out-of-memory.test: QCC QLINT DIR.
import os, resource, subprocess, sys
qcc, qlint, d = sys.argv[1:4]
inv = os.path.join(d, "modules.txt")
with open(inv, "w") as f:
    for i in range(2000000):
        f.write("model.layers.%d.mlp.experts.proj Linear\n" % i)
spec = os.path.join(d, "big.qspec")
with open(spec, "w") as f:
    f.write('qspec 1\nmodel { inventory "modules.txt" }\ntarget hmct { march nash-p }\n')
def limited():
    resource.setrlimit(resource.RLIMIT_AS, (256 << 20, 256 << 20))
for name, cmd in (("qcc", [qcc, spec]), ("qlint", [qlint, "--no-config", spec])):
    r = subprocess.run(cmd, capture_output=True, preexec_fn=limited, timeout=300)
    errs = [l for l in r.stderr.decode().splitlines() if "memory" in l]
    print("%s: exit %d: %s" % (name, r.returncode, errs[0] if errs else r.stderr.decode()[-300:]))
