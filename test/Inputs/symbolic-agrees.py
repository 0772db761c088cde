"""Random specs over literal node names, compiled for HMCT with and without an inventory that
lists exactly those names: each node must get the same qtype both ways (or both compiles fail).
Without an inventory the file lowers the symbolic resolution, with one the per-module
resolution; an emitter that combined the rules itself would disagree on some seed.

usage: symbolic-agrees.py QCC WORKDIR SEEDS"""
import json
import os
import random
import subprocess
import sys

TIERS = ["int8", "int16", "fp16", "float"]
NAMES = ["/n%d/MatMul" % i for i in range(6)]


def make_spec(rng):
    lines = ["qspec 1", "tiers int8 < int16 < fp16 < float", "defaults { tier int8 }"]
    raises = []
    tune = []
    for name in NAMES:
        if rng.random() < 0.15:
            lines.append('protect "%s"' % name)
        for _ in range(rng.randrange(3)):
            prio = rng.randrange(3)
            lines.append('override name "%s"%s { tier %s }'
                         % (name, " priority %d" % prio if prio else "", rng.choice(TIERS)))
        r = rng.random()
        if r < 0.1:
            tune.append('exclude "%s"' % name)
        elif r < 0.25:
            raises.append('raise "%s" to %s' % (name, rng.choice(TIERS[1:])))
    if not raises and rng.random() < 0.5:
        lines.append("override type MatMul { tier %s }" % rng.choice(TIERS[:3]))
    tune += raises
    if tune:
        lines.append("tune { %s }" % "; ".join(tune))
    lines.append("target hmct { }")
    return "\n".join(lines) + "\n"


def qtypes(qcc, spec, out, inventory):
    cmd = [qcc, spec, "--emit=hmct-json", "-o", out] + (["--inventory", inventory] if inventory else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None
    with open(out) as f:
        doc = json.load(f)
    base = doc.get("op_config", {}).get("MatMul", {}).get("qtype",
                                                           doc["model_config"]["all_node_type"])
    nodes = doc.get("node_config", {})
    return {n: nodes.get(n, {}).get("qtype", base) for n in NAMES}


def main():
    qcc, work, seeds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.makedirs(work, exist_ok=True)
    inventory = os.path.join(work, "inv.txt")
    with open(inventory, "w") as f:
        f.write("".join("%s MatMul\n" % n for n in NAMES))
    compiled = bad = 0
    for seed in range(1, seeds + 1):
        body = make_spec(random.Random(seed))
        spec = os.path.join(work, "s%d.qspec" % seed)
        with open(spec, "w") as f:
            f.write(body)
        a = qtypes(qcc, spec, os.path.join(work, "a.json"), None)
        b = qtypes(qcc, spec, os.path.join(work, "b.json"), inventory)
        compiled += a is not None
        if a != b:
            bad += 1
            print("seed %d disagrees:\nwithout inventory %s\nwith inventory    %s\n%s"
                  % (seed, a, b, body))
    print("checked %d specs, %d compiled, %d disagree" % (seeds, compiled, bad))


main()
