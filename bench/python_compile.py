#!/usr/bin/python3
"""qspec.compile against qcc's own compile, both in-process (no process start).

    python_compile.py BUILD_DIR [--runs 7] [--quick]

For each case, `qspec.compile(SPEC, inventory=INV)` is timed with a monotonic clock inside one
Python process (the module imported once), and qcc's in-process time is read from its
`--time-report` for `--emit=all -o DIR`: the total less the `write` row (qspec.compile writes
nothing). Both build every target's bytes. Medians of RUNS runs; the ratio is
qspec.compile / qcc. Cases: the seven examples as they are, and DeepSeek-V3's 45,337 modules
(bench/gen_inventory.py) with bench/specs/deepseek-v3.qspec. Prints a Markdown table
(docs/performance.md, "The Python module").
"""
import argparse
import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def qcc_in_process_ms(qcc, spec, inventory, out):
    cmd = [qcc, spec, "--emit=all", "-o", out, "--time-report"]
    if inventory:
        cmd += ["--inventory", inventory]
    run = subprocess.run(cmd, capture_output=True, text=True)
    rows = {}
    for line in run.stderr.splitlines():
        parts = line.split()
        if len(parts) >= 2 and line.startswith("  "):
            try:
                rows[" ".join(parts[:-1])] = float(parts[-1])
            except ValueError:
                pass
    if "total" not in rows:
        sys.exit("python_compile: no time report from %s:\n%s" % (" ".join(cmd), run.stderr))
    return rows["total"] - rows.get("write", 0.0)


def qspec_ms(qspec, spec, inventory):
    start = time.perf_counter()
    c = qspec.compile(spec, inventory=inventory)
    ms = (time.perf_counter() - start) * 1000
    if not c.files:
        sys.exit("python_compile: %s built no files:\n%s" % (spec, c.diagnostics_text))
    return ms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="one run per case, examples only")
    args = ap.parse_args()
    sys.path.insert(0, os.path.join(args.build, "python"))
    import qspec

    qcc = os.path.join(args.build, "bin", "qcc")
    runs = 1 if args.quick else args.runs
    cases = [(os.path.basename(s), s, None)
             for s in sorted(glob.glob(os.path.join(ROOT, "examples", "*", "*.qspec")))]
    scratch = tempfile.mkdtemp(prefix="qspec-pybench-")
    if not args.quick:
        subprocess.run([sys.executable, os.path.join(HERE, "gen_inventory.py"), "deepseek-v3",
                        scratch], check=True, stdout=subprocess.DEVNULL)
        cases.append(("deepseek-v3 (45,337 modules)",
                      os.path.join(HERE, "specs", "deepseek-v3.qspec"),
                      os.path.join(scratch, "deepseek-v3.manifest")))
    print("| case | qcc in-process ms | qspec.compile ms | ratio |")
    print("|---|---:|---:|---:|")
    for name, spec, inventory in cases:
        out = os.path.join(scratch, "out")
        if not qspec.compile(spec, inventory=inventory).files:
            # ppocr-det's inputs come from its own set-up (`make example-ppocr`).
            print("| %s | not compiled: %s |||" % (name, qspec.compile(spec).diagnostics[0].id))
            continue
        qspec_ms(qspec, spec, inventory)  # warm: the files' pages, the module's first call
        q = statistics.median(qcc_in_process_ms(qcc, spec, inventory, out) for _ in range(runs))
        p = statistics.median(qspec_ms(qspec, spec, inventory) for _ in range(runs))
        print("| %s | %.2f | %.2f | %.2f |" % (name, q, p, p / q))


if __name__ == "__main__":
    main()
