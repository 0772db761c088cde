#!/usr/bin/python3
"""Whole-process benchmarks: qcc on each inventory x pattern count, and the Python reference.

    run_bench.py BUILD_DIR [--runs 5] [--quick] [--no-reference] [--json OUT.json]

Generates the inputs into BUILD_DIR/bench-data (bench/gen_inventory.py, bench/gen_specs.py),
then for every case runs `qcc SPEC --inventory MANIFEST --emit=KIND` for KIND in ir, each
backend's kind and all, RUNS times each, under `/usr/bin/time -f '%e %M'` (wall seconds, peak RSS
in KB), and reports the medians. For the cases small enough for it, runs bench/reference_qcc.py
as often, checks that its resolution (every module's tier, and the rules that set its tier and
weight dtype) equals qcc's `--emit=ir`, and reports the time ratio. Prints a Markdown table (docs/performance.md).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EMITS = ["ir", "msmodelslim-yaml", "amct-cfg", "hmct-json", "horizon-py", "all"]
# (inventory name, gen_inventory model, modules or 0, pattern counts, run the Python reference?)
CASES = [
    ("qwen3-32b", "qwen3-32b", 0, [10, 100, 1000], True),
    ("qwen3-235b-a22b", "qwen3-235b-a22b", 0, [10, 100, 1000], True),
    ("deepseek-v3", "deepseek-v3", 0, [10, 100, 1000], True),
    ("stress-250k", "stress", 250_000, [1000], False),
    ("stress-500k", "stress", 500_000, [1000], False),
    ("stress-1m", "stress", 1_000_000, [10, 100, 1000], False),
]
TIME = "/usr/bin/time"


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def timed(cmd):
    """(wall seconds, peak RSS MB, exit code) of one run."""
    p = run([TIME, "-f", "%e %M", "-o", "/dev/stderr"] + cmd)
    last = p.stderr.strip().splitlines()[-1].split()
    return float(last[0]), int(last[1]) / 1024.0, p.returncode, p.stderr


def prepare(data, name, model, modules, counts):
    manifest = os.path.join(data, name + ".manifest")
    if not os.path.exists(manifest):
        cmd = [sys.executable, os.path.join(HERE, "gen_inventory.py"), model, data, "--name", name]
        if modules:
            cmd += ["--modules", str(modules)]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    specs = {}
    for k in counts:
        spec = os.path.join(data, f"{name}-{k}.qspec")
        if name == "deepseek-v3" and k == 100:
            spec = os.path.join(HERE, "specs", "deepseek-v3.qspec")
        elif not os.path.exists(spec):
            subprocess.run([sys.executable, os.path.join(HERE, "gen_specs.py"), model, str(k), spec],
                           check=True)
        specs[k] = spec
    return manifest, specs


def median_run(cmd, runs):
    walls, rss, rc, err = [], [], 0, ""
    for _ in range(runs):
        w, r, rc, err = timed(cmd)
        if rc != 0:
            return None, None, rc, err
        walls.append(w)
        rss.append(r)
    return statistics.median(walls), statistics.median(rss), rc, err


def line_of(decision):
    """The line number of a decision's `at` (FILE:LINE:COL), or 0."""
    if not decision or not decision.get("at"):
        return 0
    return int(decision["at"].rsplit(":", 2)[1])


def compare(ir_path, ref_path):
    """Modules whose tier, or whose winning tier rule or weight-dtype rule, differ; and total."""
    ir = json.load(open(ir_path))
    ref = json.load(open(ref_path))
    bad = 0
    for m in ir["modules"]:
        want = ref.get(m["name"])
        dtype = (m.get("weight") or {}).get("dtype")
        got_w = line_of(dtype.get("from")) if isinstance(dtype, dict) else 0
        if (want is None or want[0] != m["tier"] or want[1] != line_of(m.get("tier_from")) or
                (want[2] is not None and want[2] != got_w)):
            bad += 1
            if bad <= 3:
                print(f"  differs: {m['name']}: qcc {m['tier']} line {line_of(m.get('tier_from'))} "
                      f"weight line {got_w}; reference {want}", file=sys.stderr)
    return bad, len(ir["modules"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="DeepSeek-V3 with 100 patterns only")
    ap.add_argument("--no-reference", action="store_true")
    ap.add_argument("--emits", default=",".join(EMITS))
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    qcc = os.path.join(args.build, "bin", "qcc")
    data = os.path.join(args.build, "bench-data")
    out = os.path.join(data, "out")
    os.makedirs(out, exist_ok=True)
    emits = args.emits.split(",")
    rows = []
    print("| inventory | modules | patterns | emit | wall s (median) | peak RSS MB | reference s | ratio | same selections |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---|")
    for name, model, modules, counts, with_ref in CASES:
        if args.quick and name != "deepseek-v3":
            continue
        manifest, specs = prepare(data, name, model, modules, counts)
        nmods = sum(1 for l in open(manifest) if l.strip() and not l.startswith("#"))
        for k, spec in specs.items():
            if args.quick and k != 100:
                continue
            ref_wall, same = None, ""
            if with_ref and not args.no_reference:
                ref_yaml = os.path.join(out, f"ref-{name}-{k}.yaml")
                ref_json = os.path.join(out, f"ref-{name}-{k}.json")
                ref_cmd = [sys.executable, os.path.join(HERE, "reference_qcc.py"), spec, manifest, ref_yaml,
                           "--resolution", ref_json]
                ref_wall, _, rc, err = median_run(ref_cmd, args.runs if k <= 100 else 1)
                ir_json = os.path.join(out, f"qcc-{name}-{k}.json")
                p = run([qcc, spec, "--inventory", manifest, "--emit=ir", "-o", ir_json])
                if p.returncode == 0 and rc == 0:
                    bad, total = compare(ir_json, ref_json)
                    same = "yes" if bad == 0 else f"NO ({bad} of {total} differ)"
                else:
                    same = f"not compared (qcc exit {p.returncode}, reference exit {rc})"
            for emit in emits:
                target = os.path.join(out, f"{name}-{k}-{emit}" + ("" if emit == "all" else ".out"))
                cmd = [qcc, spec, "--inventory", manifest, f"--emit={emit}", "-o", target]
                wall, rss, rc, err = median_run(cmd, args.runs)
                row = {"inventory": name, "modules": nmods, "patterns": k, "emit": emit, "wall": wall,
                       "rss_mb": rss, "exit": rc}
                if wall is None:
                    msg = err.strip().splitlines()[0] if err.strip() else ""
                    print(f"| {name} | {nmods} | {k} | {emit} | fails (exit {rc}: {msg[:60]}) | | | | |")
                    rows.append(row)
                    continue
                ratio = ""
                if ref_wall is not None and emit == "msmodelslim-yaml":
                    ratio = f"{ref_wall / max(wall, 0.001):.0f}x"
                    row.update(reference=ref_wall, same=same)
                print(f"| {name} | {nmods} | {k} | {emit} | {wall:.3f} | {rss:.1f} | "
                      f"{f'{ref_wall:.2f}' if ratio else ''} | {ratio} | {same if ratio else ''} |")
                sys.stdout.flush()
                rows.append(row)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
