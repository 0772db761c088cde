#!/usr/bin/python3
"""qtune at DeepSeek-V3 scale: peak RSS, per-round overhead and disk per evaluation.

    qtune_scale.py BUILD_DIR [--rounds 6 | --rounds 0] [--data DIR]

Generates the DeepSeek-V3 inventory (bench/gen_inventory.py, 45k modules; into DIR, by default
this checkout's build/bench-data) and a spec: the
whole-process benchmark spec bench/specs/deepseek-v3.qspec (100 patterns, three targets) plus
`tune { metric accuracy >= 0.5; scores "scores.yaml" }` with the default levels (one per unit,
ordered by a made-up score per module). Runs `qtune run` with
one slot for ROUNDS rounds against a trivial evaluator (it fails round 1, passes the others, so
group-bisect keeps splitting), and `qcc --emit=all` on the same inputs. `--rounds 0` runs the
search until it stops by itself (16 rounds here: bisecting 44,855 levels). Reports the run's
wall time minus the evaluators' own time, divided by the rounds (the overhead per round, the
one-time load and the round-2 all-high probe included), one qcc --emit=all (the median of
seven), qtune's peak RSS, and the disk each evaluation folder takes beyond its emitted configs
(times and RSS as bench/run_bench.py's timed() takes them).

Also compiles, for every evaluation, the spec with that evaluation's tuning state written in (its
tune.qspec) with `qcc --emit=all`: that is what a probe must cost at least (the emitters and their
checks on a state of tens of thousands of moved modules). So "ratio to same-state qcc" (wall time)
and "CPU / same-state qcc" are qtune's own overhead over a qcc run on the same inputs as its
rounds, the measure of the goal (<= 1.5x). "floor" (in CPU, the same-state compiles over as
many plain ones, each run just before its same-state compile) is the CPU ratio to the plain compile
that a qtune with no cost of its own would reach on these rounds. Prints a Markdown table
(docs/performance.md, "Goals and today's numbers").
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
# (wall s, CPU s, peak RSS MB, exit code, stderr): CPU from wait4 in microseconds (/usr/bin/time
# prints hundredths, cut down: about 10 ms off on a 50 ms qcc run).
from run_bench import timed  # noqa: E402

# The evaluator reports its own CPU time from getrusage (microseconds): os.times() counts in
# clock ticks (10 ms here), which left most of a 17 ms Python start-up in qtune's column.
EVALUATOR = """import json, os, resource, sys
ok = os.environ["QSPEC_ROUND"] != "1"
json.dump({"accuracy": 0.9 if ok else 0.1}, open(os.environ["QSPEC_RESULT"], "w"))
t = resource.getrusage(resource.RUSAGE_SELF)
open(sys.argv[1], "a").write("%f\\n" % (t.ru_utime + t.ru_stime))
"""


def du(path):
    total = 0
    for dirpath, _, files in os.walk(path):
        for f in files:
            total += os.lstat(os.path.join(dirpath, f)).st_blocks * 512
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--rounds", type=int, default=6, help="rounds to run; 0: until the search stops")
    ap.add_argument("--data", default="")
    ap.add_argument("--without", default="", help="comma-separated targets to drop from the spec (e.g. horizon)")
    args = ap.parse_args()
    if args.rounds < 0:
        ap.error("--rounds must be 0 (until the search stops) or a number of rounds")
    # The generated inventory goes under this checkout's build/, not BUILD_DIR: a paired run
    # against another checkout's build must not write into it.
    data = args.data or os.path.join(ROOT, "build", "bench-data")
    os.makedirs(data, exist_ok=True)
    manifest = os.path.join(data, "deepseek-v3.manifest")
    if not os.path.exists(manifest):
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_inventory.py"), "deepseek-v3", data],
                       check=True)
    modules = sum(1 for l in open(manifest) if l.strip() and not l.startswith("#"))
    work = tempfile.mkdtemp(prefix="qtune-scale-")
    try:
        spec = os.path.join(work, "ds.qspec")
        text = open(os.path.join(ROOT, "bench", "specs", "deepseek-v3.qspec")).read()
        drop = [t for t in args.without.split(",") if t]
        text = "".join(l for l in text.splitlines(True) if not any(l.startswith("target " + t + " ") for t in drop))
        # Default levels are ordered by sensitivity: every module gets a distinct made-up score.
        scores = os.path.join(work, "scores.yaml")
        with open(scores, "w") as f:
            f.write("layer_scores:\n")
            names = [l.split()[0] for l in open(manifest) if l.strip() and not l.startswith("#")]
            for i, name in enumerate(names):
                f.write("  - name: %s\n    score: %d.0\n" % (name, len(names) - i))
        open(spec, "w").write(text + '\ntune { metric accuracy >= 0.5; scores "scores.yaml" }\n')
        ev = os.path.join(work, "eval.py")
        open(ev, "w").write(EVALUATOR)
        qcc = os.path.join(args.build, "bin", "qcc")
        qtune = os.path.join(args.build, "bin", "qtune")
        def compile_all(spec_path, out, what):
            """(wall s, CPU s) of one `qcc SPEC --emit=all`; stops the script with qcc's message if it fails."""
            wall, cpu, _, rc, err = timed([qcc, spec_path, "--inventory", manifest, "--emit=all", "-o",
                                           os.path.join(work, out)])
            if rc != 0:
                sys.exit("qcc failed on %s: %s" % (what, err))
            return wall, cpu

        qcc_walls, qcc_cpus = [], []
        for i in range(7):
            wall, qcc_cpu = compile_all(spec, "qcc-out", "the benchmark spec")
            qcc_walls.append(wall)
            qcc_cpus.append(qcc_cpu)
        wd = os.path.join(work, "w")
        evcpu = os.path.join(work, "eval-cpu.txt")
        rounds = ["--max-rounds", str(args.rounds)] if args.rounds > 0 else []
        wall, cpu, rss_mb, rc, err = timed([qtune, "run", spec, "--inventory", manifest, "--workdir", wd,
                                            "--no-progress", "--no-report"] + rounds +
                                           ["--", sys.executable, ev, evcpu])
        if rc not in (0, 1):
            sys.exit("qtune failed: " + err)
        hist = [json.loads(l) for l in open(os.path.join(wd, "history.jsonl"))]
        eval_secs = sum(h["seconds"] for h in hist)
        # Per round: the run's wall time minus the evaluators', minus the one-time load (one qcc
        # run's worth of loading is part of every qcc measurement too, so it is not subtracted).
        per_round = (wall - eval_secs) / len(hist)
        # The same in CPU time (user + system), which the load of a shared machine does not inflate:
        # qtune's own and its evaluators' (waited-for children), minus what the evaluators report.
        cpu_round = (cpu - sum(float(l) for l in open(evcpu))) / len(hist)
        qcc_cpu = statistics.median(qcc_cpus)
        extra = []
        for d in os.listdir(os.path.join(wd, "evals")):
            full = os.path.join(wd, "evals", d)
            extra.append(du(full) - du(os.path.join(full, "config")))
        config = du(os.path.join(wd, "evals", os.listdir(os.path.join(wd, "evals"))[0], "config"))
        qcc_med = statistics.median(qcc_walls)
        # qcc on each evaluation's own state (the spec with its tune.qspec in the tune block), each
        # after a plain qcc run: the floor is their ratio, taken while the host runs at one speed.
        same_walls, same_cpus, paired_cpus = [], [], []
        for h in hist:
            paired_cpus.append(compile_all(spec, "qcc-out", "the benchmark spec")[1])
            state_text = open(os.path.join(wd, "evals", h["key"][:16], "tune.qspec")).read()
            probe_spec = os.path.join(work, "probe.qspec")
            open(probe_spec, "w").write(text + "\ntune { metric accuracy >= 0.5\n" + state_text + "}\n")
            same_wall, same_cpu = compile_all(probe_spec, "probe-out", "an evaluation's state")
            same_walls.append(same_wall)
            same_cpus.append(same_cpu)
        same_wall = sum(same_walls) / len(same_walls)
        same_cpu = sum(same_cpus) / len(same_cpus)
        print("| inventory | modules | levels | rounds | qtune peak RSS | overhead per round | "
              "one qcc --emit=all | ratio | same-state qcc | ratio to same-state qcc | CPU per round | qcc CPU | "
              "CPU ratio | same-state qcc CPU | CPU / same-state qcc | floor | disk per evaluation beyond configs | "
              "configs |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        state = json.load(open(os.path.join(wd, "state.json")))
        print("| deepseek-v3%s | %d | %d | %d | %.0f MB | %.2f s | %.2f s | %.2fx | %.2f s | %.2fx | %.2f s | %.2f s | %.2fx | %.2f s | %.2fx | %.2fx | %.1f KB | %.1f MB |" % (
            " without " + args.without if drop else "", modules, state["levels"], len(hist), rss_mb, per_round, qcc_med, per_round / qcc_med,
            same_wall, per_round / same_wall, cpu_round, qcc_cpu, cpu_round / qcc_cpu, same_cpu, cpu_round / same_cpu,
            sum(same_cpus) / sum(paired_cpus), statistics.median(extra) / 1024, config / 1e6))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
