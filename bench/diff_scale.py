#!/usr/bin/python3
"""qcc diff at DeepSeek-V3 scale, against one compile of both sides.

    diff_scale.py BUILD_DIR [--runs 5] [--data DIR]

Generates the DeepSeek-V3 inventory (bench/gen_inventory.py, 45,337 modules; into DIR, by default
this checkout's build/bench-data) and compares bench/specs/deepseek-v3.qspec (100 patterns, all
three targets) with three after sides:

- same: the spec itself (every module compared, nothing changes);
- rule: one name override widened (`model.layers.{6..7}.self_attn.*` -> `{6..9}`: the modules of
  blocks 8 and 9 that other rules do not already make float);
- wide: a name override of every routed expert to float below the others (about 44,000 modules
  change tier, most of them in one group);

For each, `qcc diff BEFORE AFTER --model INV` (the median of RUNS runs) against one compile of
both sides: `qcc BEFORE --inventory INV --emit=all -o D1` plus the same for AFTER (each the median
of RUNS runs). Times and peak RSS as bench/run_bench.py's timed() takes them. Prints a Markdown
table (docs/performance.md, section "qcc diff at scale").
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from run_bench import timed  # noqa: E402

SPEC = os.path.join(HERE, "specs", "deepseek-v3.qspec")


def variants(text):
    rule = text.replace('"model.layers.{6..7}.self_attn.*"', '"model.layers.{6..9}.self_attn.*"')
    assert rule != text
    wide = text.replace("override type RMSNorm { tier float }",
                        "override type RMSNorm { tier float }\n"
                        'override name "model.layers.*.mlp.experts.*" priority 0 { tier float }')
    assert wide != text
    return [("same", text), ("rule", rule), ("wide", wide)]


def median_of(runs, cmd, ok_codes=(0,)):
    walls, cpus, rss = [], [], []
    for _ in range(runs):
        wall, cpu, peak, rc, err = timed(cmd)
        if rc not in ok_codes:
            sys.exit("%s: exit %d: %s" % (" ".join(cmd), rc, err[-500:]))
        walls.append(wall)
        cpus.append(cpu)
        rss.append(peak)
    return statistics.median(walls), statistics.median(cpus), max(rss)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--data", default="")
    args = ap.parse_args()
    qcc = os.path.join(os.path.abspath(args.build), "bin", "qcc")
    data = args.data or os.path.join(ROOT, "build", "bench-data")
    os.makedirs(data, exist_ok=True)
    inv = os.path.join(data, "deepseek-v3.manifest")
    if not os.path.exists(inv):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_inventory.py"), "deepseek-v3", data],
                       check=True, stdout=subprocess.DEVNULL)
    work = tempfile.mkdtemp(prefix="qspec-diff-bench-")
    try:
        before = os.path.join(work, "before", "deepseek-v3.qspec")
        os.makedirs(os.path.dirname(before))
        shutil.copy(SPEC, before)
        text = open(SPEC).read()
        compile_before = median_of(args.runs, [qcc, before, "--inventory", inv, "--emit=all", "-o",
                                               os.path.join(work, "out-before")])
        print("| after side | changed modules | qcc diff wall | compile of both sides wall | ratio "
              "| qcc diff CPU | compile of both sides CPU | ratio | qcc diff peak RSS |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for name, after_text in variants(text):
            after = os.path.join(work, name, "deepseek-v3.qspec")
            os.makedirs(os.path.dirname(after))
            with open(after, "w") as f:
                f.write(after_text)
            compile_after = median_of(args.runs, [qcc, after, "--inventory", inv, "--emit=all",
                                                  "-o", os.path.join(work, "out-" + name)])
            cmd = [qcc, "diff", before, after, "--model", inv]
            wall, cpu, rss = median_of(args.runs, cmd, ok_codes=(0, 1))
            summary = subprocess.run(cmd + ["--format=json"], stdout=subprocess.PIPE, text=True)
            changed = json.loads(summary.stdout)["modules"]["changed"]
            both = compile_before[0] + compile_after[0]
            both_cpu = compile_before[1] + compile_after[1]
            print("| %s | %s | %.3f s | %.3f s | %.2fx | %.3f s | %.3f s | %.2fx | %.0f MB |"
                  % (name, changed, wall, both, wall / both, cpu, both_cpu, cpu / both_cpu, rss))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
