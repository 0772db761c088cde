#!/bin/sh
# qlint benchmark (not a test: no timing assertions anywhere). Generates a typical spec with a
# 32-block, 226-module inventory, 500 copies of it, and times
#   1. one invocation on the typical spec (best and median of 20 runs),
#   2. one invocation on the 500 specs (parallel lint, median of 5),
#   3. one invocation on the whole conformance folder (median of 5).
# Usage: bench/qlint/run.sh [BUILD_DIR]   (default: build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
qlint=$build/bin/qlint
[ -x "$qlint" ] || { echo "no qlint at $qlint; build the qlint target first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

/usr/bin/python3 - "$work" <<'PY'
import os, sys
work = sys.argv[1]
with open(os.path.join(work, "inventory.txt"), "w") as f:
    for i in range(32):
        for m in ["self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
                  "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"]:
            f.write("model.layers.%d.%s Linear\n" % (i, m))
    f.write("model.embed_tokens Embedding\nlm_head Linear\n")
spec = '''qspec 1
model "bench" { inventory "inventory.txt"; blocks "model.layers.{i}" }
defaults { tier int8; weight int8 per_channel symmetric minmax; act int8 per_tensor minmax }
tiers int8 < int16 < fp16 < float
protect "lm_head", type Embedding
group "model.layers.{i}.mlp.gate_proj" with "model.layers.{i}.mlp.up_proj"
override type Linear { weight int8 per_channel }
override name "model.layers.0.*" { tier int16 }
override name "model.layers.{30..31}.mlp.down_proj" { tier int16 }
target amct {}
tune { anti_outlier iter_smooth; exclude "model.layers.1.mlp.down_proj" }
'''
with open(os.path.join(work, "typical.qspec"), "w") as f:
    f.write(spec)
os.makedirs(os.path.join(work, "many"))
for k in range(500):
    with open(os.path.join(work, "many", "s%03d.qspec" % k), "w") as f:
        f.write(spec.replace('"inventory.txt"', '"../inventory.txt"'))
PY

"$qlint" --no-config "$work/typical.qspec" >/dev/null || true # warm the page cache
/usr/bin/python3 - "$qlint" "$work" "$root/test/Inputs/conformance" <<'PY'
import os, statistics, subprocess, sys, time
qlint, work, conf = sys.argv[1:4]
import resource
cpu = []
def timed(args, n):
    # Wall time per run, and CPU time (user + sys of the child): on a shared machine the CPU
    # time is the stable number.
    ts, cs = [], []
    for _ in range(n):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        p = subprocess.run([qlint, "--no-config"] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ts.append(time.perf_counter() - t)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cs.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
        if p.returncode not in (0, 1):
            raise SystemExit("qlint failed (%d) on %s" % (p.returncode, args))
    cpu.append(statistics.median(cs))
    return min(ts), statistics.median(ts)
b, m = timed([os.path.join(work, "typical.qspec")], 20)
print("typical spec (226 modules), 1 file:    best %6.1f ms  median %6.1f ms  cpu %6.1f ms" % (b * 1e3, m * 1e3, cpu[-1] * 1e3))
b, m = timed([os.path.join(work, "many")], 5)
print("500 specs, one invocation:             best %6.1f ms  median %6.1f ms  cpu %6.1f ms" % (b * 1e3, m * 1e3, cpu[-1] * 1e3))
if os.path.isdir(conf):
    n = sum(len(fs) for _, _, fs in os.walk(conf))
    b, m = timed([conf], 5)
    print("conformance folder (%d files), 1 run: best %6.1f ms  median %6.1f ms  cpu %6.1f ms" % (n, b * 1e3, m * 1e3, cpu[-1] * 1e3))
PY
