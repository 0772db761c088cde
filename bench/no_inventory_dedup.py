#!/usr/bin/python3
"""Duplicate removal without an inventory: each case at an input size and its double.

    no_inventory_dedup.py BUILD_DIR [--runs 3] [--qcc PATH] [--only CASE,...]

Cases (--only):

  protect-names  20k / 40k literal `protect "NAME"` statements and no inventory,
                 --emit=msmodelslim-yaml: every name goes into the practice's exclude once
                 (the emitter's duplicate check is a hash set, not a search of the list so far)
  import         `qcc import` of a practice whose linear_quant excludes 22.5k / 45k literal names
                 (no inventory): the import writes a protect per name and compiles the result

Prints, per size, the medians of wall time, CPU time (user + sys) and peak RSS, and the ratio of
the CPU time at 2n to that at n (the goal is at most 2.2 per doubling). Inputs are generated into
BUILD_DIR/bench-data/dedup. Nothing here is a test.
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run_bench import timed  # noqa: E402


def median_run(cmd, runs):
    walls, cpus, rss = [], [], []
    for _ in range(runs):
        w, c, r, rc, err = timed(cmd)
        if rc != 0:
            sys.exit(f"failed (exit {rc}): {' '.join(cmd)}\n{err[:400]}")
        walls.append(w)
        cpus.append(c)
        rss.append(r)
    return statistics.median(walls), statistics.median(cpus), statistics.median(rss)


def names(n):
    # DeepSeek-V3-like expert projections: 61 layers x 256 experts x 3 projections.
    out = []
    for i in range(n):
        layer, rest = divmod(i, 256 * 3)
        expert, proj = divmod(rest, 3)
        out.append(f"model.layers.{layer}.mlp.experts.{expert}.{('gate_proj', 'up_proj', 'down_proj')[proj]}")
    return out


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def protect_spec(d, n):
    body = "qspec 1\ndefaults { tier int8 }\ntiers int8 < float\n"
    body += "".join(f'protect "{name}"\n' for name in names(n))
    return write(os.path.join(d, f"protect-{n}.qspec"), body + "target msmodelslim { }\n")


def practice(d, n):
    lines = ['apiversion: "modelslim_v1"', "spec:", "  process:", '    - type: "linear_quant"',
             "      qconfig:", "        act:", '          scope: "per_tensor"', '          dtype: "int8"',
             "          symmetric: false", '          method: "minmax"', "        weight:",
             '          scope: "per_channel"', '          dtype: "int8"', "          symmetric: true",
             '          method: "minmax"', '      include: ["*"]', "      exclude:"]
    lines += [f'        - "{name}"' for name in names(n)]
    lines += ["  save:", '    - type: "ascendv1_saver"', "      part_file_size: 4"]
    return write(os.path.join(d, f"practice-{n}.yaml"), "\n".join(lines) + "\n")


def series(case, sizes, make_cmd, runs):
    prev = None
    for n in sizes:
        wall, cpu, rss = median_run(make_cmd(n), runs)
        note = f"x{cpu / prev:.2f} CPU per 2x input" if prev else ""
        print(f"| {case} | {n} | {wall:.3f} | {cpu:.3f} | {rss:.0f} | {note} |")
        sys.stdout.flush()
        prev = cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--qcc", default="")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    qcc = a.qcc or os.path.join(a.build, "bin", "qcc")
    d = os.path.join(a.build, "bench-data", "dedup")
    os.makedirs(d, exist_ok=True)
    out = os.path.join(d, "out")
    print("| case | size | wall s | CPU s | peak RSS MB | notes |")
    print("|---|---:|---:|---:|---:|---|")
    only = a.only.split(",") if a.only else []
    if not only or "protect-names" in only:
        series("protect-names", [20_000, 40_000],
               lambda n: [qcc, protect_spec(d, n), "--emit=msmodelslim-yaml", "-o", out + ".yaml"], a.runs)
    if not only or "import" in only:
        series("import", [22_500, 45_000],
               lambda n: [qcc, "import", practice(d, n), "-o", out + ".qspec"], a.runs)


if __name__ == "__main__":
    main()
