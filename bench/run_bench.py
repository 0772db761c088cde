#!/usr/bin/python3
"""Whole-process benchmarks: qcc on each inventory x pattern count, and the Python reference.

    run_bench.py BUILD_DIR [--runs 5] [--quick] [--only NAME,...] [--patterns 10,100,...]
                 [--emits KIND,...] [--no-reference] [--data DIR] [--json OUT.json]

Generates the inputs into BUILD_DIR/bench-data (bench/gen_inventory.py, bench/gen_specs.py),
then for every case runs `qcc SPEC --inventory MANIFEST --emit=KIND` (DeepSeek-V3: ir, each
backend's kind and all; other models: ir, msmodelslim-yaml and all; stress: all) RUNS times each, under
a monotonic clock (wall time), its rusage (CPU time) and `/usr/bin/time -f %M` (peak RSS), and
reports the medians. The ratio to the reference is given twice: against `--emit=msmodelslim-yaml`,
the same job (one practice YAML; qcc also reads it back and checks it), and against `--emit=all`,
which does more (three backends). For the cases small enough for it, runs bench/reference_qcc.py
as often, checks that its resolution (every module's tier, and the rules that set its tier and
weight dtype) equals qcc's `--emit=ir`, and reports the time ratio. Prints a Markdown table (docs/performance.md).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TIME = "/usr/bin/time"
EMITS = ["ir", "msmodelslim-yaml", "amct-cfg", "horizon-py", "all"]
SHORT = ["ir", "msmodelslim-yaml", "all"]
# (inventory name, gen_inventory model, modules or 0, pattern counts, Python reference?, emits)
CASES = [
    ("qwen3-32b", "qwen3-32b", 0, [10, 100, 1000], True, SHORT),
    ("qwen3-235b-a22b", "qwen3-235b-a22b", 0, [10, 100, 1000], True, SHORT),
    ("deepseek-v3", "deepseek-v3", 0, [10, 100, 1000], True, EMITS),
    ("stress-250k", "stress", 250_000, [1000], False, ["all"]),
    ("stress-500k", "stress", 500_000, [1000], False, ["all"]),
    ("stress-1m", "stress", 1_000_000, [10, 100, 1000], False, ["all"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def timed(cmd):
    """(wall seconds, CPU seconds (user + sys), peak RSS MB, exit code, stderr) of one run. Wall time
    comes from a monotonic clock around the process and CPU time from its rusage (wait4), both to
    the microsecond; peak RSS from /usr/bin/time, whose child is forked from a small process (a
    child forked from this Python would count the parent's pages in its high-water mark)."""
    fd, rss_file = tempfile.mkstemp(prefix="qspec-bench-rss-")
    os.close(fd)
    try:
        start = time.perf_counter()
        p = subprocess.Popen([TIME, "-f", "%M", "-o", rss_file] + cmd, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        err = p.stderr.read().decode(errors="replace")
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - start
        p.returncode = os.waitstatus_to_exitcode(status)
        with open(rss_file) as f:
            lines = [l for l in f.read().split() if l.isdigit()]
        rss = int(lines[-1]) / 1024.0 if lines else 0.0
    finally:
        os.unlink(rss_file)
    return wall, ru.ru_utime + ru.ru_stime, rss, p.returncode, err


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
            cmd = [sys.executable, os.path.join(HERE, "gen_specs.py"), model, str(k), spec]
            if modules:
                cmd += ["--modules", str(modules)]
            subprocess.run(cmd, check=True)
        specs[k] = spec
    return manifest, specs


def median_run(cmd, runs):
    """Medians of wall seconds, CPU seconds and peak RSS MB over `runs` runs (None on failure)."""
    walls, cpus, rss, rc, err = [], [], [], 0, ""
    for _ in range(runs):
        w, c, r, rc, err = timed(cmd)
        if rc != 0:
            return None, None, None, rc, err
        walls.append(w)
        cpus.append(c)
        rss.append(r)
    return statistics.median(walls), statistics.median(cpus), statistics.median(rss), rc, err


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
    ap.add_argument("--only", default="", help="comma-separated inventory names (default: all)")
    ap.add_argument("--emits", default=",".join(EMITS))
    ap.add_argument("--patterns", default="", help="comma-separated pattern counts (default: all)")
    ap.add_argument("--data", default="", help="inputs and outputs folder (default: BUILD/bench-data)")
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    qcc = os.path.join(args.build, "bin", "qcc")
    data = args.data or os.path.join(args.build, "bench-data")
    out = os.path.join(data, "out")
    os.makedirs(out, exist_ok=True)
    emits = args.emits.split(",")
    rows = []
    print("| inventory | modules | patterns | emit | wall s | CPU s | peak RSS MB | reference wall s / CPU s | ratio wall / CPU | same selections |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---|")
    for name, model, modules, counts, with_ref, case_emits in CASES:
        if (args.quick and name != "deepseek-v3") or (args.only and name not in args.only.split(",")):
            continue
        if args.patterns:
            counts = [k for k in counts if str(k) in args.patterns.split(",")]
        manifest, specs = prepare(data, name, model, modules, counts)
        nmods = sum(1 for l in open(manifest) if l.strip() and not l.startswith("#"))
        for k, spec in specs.items():
            if args.quick and k != 100:
                continue
            ref, same = None, ""
            if with_ref and not args.no_reference:
                ref_yaml = os.path.join(out, f"ref-{name}-{k}.yaml")
                ref_json = os.path.join(out, f"ref-{name}-{k}.json")
                ref_cmd = [sys.executable, os.path.join(HERE, "reference_qcc.py"), spec, manifest, ref_yaml,
                           "--resolution", ref_json]
                rw, rc_cpu, _, rc, err = median_run(ref_cmd, args.runs if k <= 100 else 1)
                ref = (rw, rc_cpu) if rw is not None else None
                ir_json = os.path.join(out, f"qcc-{name}-{k}.json")
                p = run([qcc, spec, "--inventory", manifest, "--emit=ir", "-o", ir_json])
                if p.returncode == 0 and rc == 0:
                    bad, total = compare(ir_json, ref_json)
                    same = "yes" if bad == 0 else f"NO ({bad} of {total} differ)"
                else:
                    same = f"not compared (qcc exit {p.returncode}, reference exit {rc})"
            for emit in case_emits:
                if emit not in emits:
                    continue
                target = os.path.join(out, f"{name}-{k}-{emit}" + ("" if emit == "all" else ".out"))
                cmd = [qcc, spec, "--inventory", manifest, f"--emit={emit}", "-o", target]
                wall, cpu, rss, rc, err = median_run(cmd, args.runs)
                row = {"inventory": name, "modules": nmods, "patterns": k, "emit": emit, "wall": wall,
                       "cpu": cpu, "rss_mb": rss, "exit": rc}
                if wall is None:
                    msg = err.strip().splitlines()[0] if err.strip() else ""
                    print(f"| {name} | {nmods} | {k} | {emit} | fails (exit {rc}: {msg[:60]}) | | | | | |")
                    rows.append(row)
                    continue
                refcol = ratio = sel = ""
                if ref is not None and emit in ("msmodelslim-yaml", "all"):
                    refcol = f"{ref[0]:.2f} / {ref[1]:.2f}"
                    ratio = f"{ref[0] / max(wall, 0.001):.0f}x / {ref[1] / max(cpu, 0.001):.0f}x"
                    sel = same
                    row.update(reference_wall=ref[0], reference_cpu=ref[1], same=same)
                print(f"| {name} | {nmods} | {k} | {emit} | {wall:.3f} | {cpu:.3f} | {rss:.1f} | {refcol} | "
                      f"{ratio} | {sel} |")
                sys.stdout.flush()
                rows.append(row)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
