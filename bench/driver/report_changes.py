#!/usr/bin/python3
"""qtune report's change columns at DeepSeek-V3 scale: what writing the report costs.

    report_changes.py BUILD_DIR [--rounds 6] [--data DIR]

Generates the DeepSeek-V3 inventory (bench/gen_inventory.py, 45k modules) and the spec of
bench/driver/qtune_scale.py (bench/specs/deepseek-v3.qspec, three targets, plus a tune block with five written levels:
the benchmark spec names no scores),
runs `qtune run --no-report` for ROUNDS rounds against a trivial evaluator, then times
`qtune report` on its work directory (the median of three): every row's spec compiled once (one
compile per new configuration, plus the base) and compared with the base and with the row above.
Also times one `qcc --emit=all` of the spec (the median of three) and one `qcc diff` of the spec
against the best row's applied spec. Prints a Markdown table (docs/performance.md).
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
from run_bench import timed  # noqa: E402

TUNE = "\ntune { metric accuracy >= 0.5; levels first 1, first 10, first 100, first 1000, first 10000 }\n"
EVALUATOR = """import json, os
ok = os.environ["QSPEC_ROUND"] != "1"
json.dump({"accuracy": 0.9 if ok else 0.1}, open(os.environ["QSPEC_RESULT"], "w"))
"""


def median_of(n, cmd, what):
    walls, cpus = [], []
    for _ in range(n):
        wall, cpu, _, rc, err = timed(cmd)
        if rc not in (0, 1):
            sys.exit("%s failed: %s" % (what, err))
        walls.append(wall)
        cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--data", default="")
    args = ap.parse_args()
    data = args.data or os.path.join(ROOT, "build", "bench-data")
    os.makedirs(data, exist_ok=True)
    manifest = os.path.join(data, "deepseek-v3.manifest")
    if not os.path.exists(manifest):
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_inventory.py"), "deepseek-v3", data],
                       check=True)
    modules = sum(1 for l in open(manifest) if l.strip() and not l.startswith("#"))
    qcc = os.path.join(args.build, "bin", "qcc")
    qtune = os.path.join(args.build, "bin", "qtune")
    work = tempfile.mkdtemp(prefix="qtune-report-")
    try:
        spec = os.path.join(work, "ds.qspec")
        text = open(os.path.join(ROOT, "bench", "specs", "deepseek-v3.qspec")).read()
        open(spec, "w").write(text + TUNE)
        ev = os.path.join(work, "eval.py")
        open(ev, "w").write(EVALUATOR)
        wd = os.path.join(work, "w")
        _, _, _, rc, err = timed([qtune, "run", spec, "--inventory", manifest, "--workdir", wd, "--no-progress",
                                  "--no-report", "--max-rounds", str(args.rounds), "--", sys.executable, ev])
        if rc not in (0, 1):
            sys.exit("qtune failed: " + err)
        state = json.load(open(os.path.join(wd, "state.json")))
        rows = [p for r in state["rounds"] for p in r["probes"]]
        report_wall, report_cpu = median_of(3, [qtune, "report", wd], "qtune report")
        qcc_wall, qcc_cpu = median_of(3, [qcc, spec, "--inventory", manifest, "--emit=all", "-o",
                                          os.path.join(work, "out")], "qcc")
        best = state["best"]["key"][:16] if state.get("best") else rows[-1]["key"][:16]
        applied = os.path.join(work, "applied.qspec")
        open(applied, "w").write(text + TUNE.replace(" }\n", "\n" + open(os.path.join(wd, "evals", best, "tune.qspec")).read() + "}\n"))
        diff_wall, diff_cpu = median_of(3, [qcc, "diff", spec, applied, "--model", manifest], "qcc diff")
        report = open(os.path.join(wd, "report.md")).read()
        print("| modules | rows | qtune report | per row | one qcc --emit=all | per row / qcc | "
              "qcc diff (base, best) | report CPU | qcc CPU | cells with `-` |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        print("| %d | %d | %.2f s | %.2f s | %.2f s | %.2fx | %.2f s | %.2f s | %.2f s | %d |" % (
            modules, len(rows), report_wall, report_wall / len(rows), qcc_wall,
            report_wall / len(rows) / qcc_wall, diff_wall, report_cpu, qcc_cpu, dashed_rows(report)))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def dashed_rows(report):
    """Rows of report.md's table of probes whose two change cells (against the base spec, against
    the previous round: the 10th and 11th cells; time and device follow) are both `-`."""
    n = 0
    for line in report.split("\n"):
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) >= 11 and cells[0].isdigit() and cells[9] == "-" and cells[10] == "-":
            n += 1
    return n


if __name__ == "__main__":
    main()
