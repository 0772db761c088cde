#!/usr/bin/python3
"""qlint on a .qspec with a large inventory against qcc --emit=all on the same inputs.

    bench/qlint/large_inventory.py BUILD_DIR [--runs 3]

Not a test (nothing asserts on time). Since qlint runs every declared target's emitter and
translation validation (as `qcc --emit=all` does), linting a spec costs about what compiling it
does; this measures by how much. Two cases: examples/qwen3-32b (its own inventory, 64 blocks) and
DeepSeek-V3 (bench/gen_inventory.py, 45,337 modules; bench/specs/deepseek-v3.qspec, 100 patterns,
its three targets). Per case and tool: median wall time and median CPU time (user + sys, from
wait4's rusage, which a loaded host inflates less than wall time), peak RSS, and the ratio
qlint / qcc of the CPU medians. Prints a Markdown table.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def timed(cmd, cwd):
    """Exit code, wall seconds, peak RSS in KB and CPU seconds (user + sys, from wait4's rusage)."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    return os.waitstatus_to_exitcode(status), wall, ru.ru_maxrss, ru.ru_utime + ru.ru_stime


def measure(cmd, cwd, runs):
    walls, cpus, rss, codes = [], [], [], set()
    for _ in range(runs):
        rc, wall, kb, cpu = timed(cmd, cwd)
        codes.add(rc)
        walls.append(wall)
        cpus.append(cpu)
        rss.append(kb)
    return statistics.median(walls), statistics.median(cpus), max(rss), codes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    qcc = os.path.join(args.build, "bin", "qcc")
    qlint = os.path.join(args.build, "bin", "qlint")
    for exe in (qcc, qlint):
        if not os.access(exe, os.X_OK):
            sys.exit("no %s; build it first" % exe)
    with tempfile.TemporaryDirectory() as work:
        data = os.path.join(work, "ds")
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_inventory.py"), "deepseek-v3", data],
                       check=True, capture_output=True)
        qwen = os.path.join(ROOT, "examples", "qwen3-32b")
        cases = [
            ("examples/qwen3-32b", qwen, [os.path.join(qwen, "qwen3-32b.qspec")]),
            ("deepseek-v3 (45,337 modules, 100 patterns)", work,
             [os.path.join(ROOT, "bench", "specs", "deepseek-v3.qspec"), "--inventory",
              os.path.join(data, "deepseek-v3.manifest")]),
        ]
        print("| spec | tool | median wall | median CPU | peak RSS | exit | qlint/qcc CPU |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for name, cwd, spec in cases:
            out = os.path.join(work, "out")
            q = measure([qcc] + spec + ["--emit=all", "-o", out], cwd, args.runs)
            l = measure([qlint, "--no-config"] + spec, cwd, args.runs)
            for tool, m in (("qcc --emit=all", q), ("qlint --no-config", l)):
                ratio = "%.2f" % (l[1] / q[1]) if tool.startswith("qlint") and q[1] > 0 else ""
                print("| %s | %s | %.3f s | %.3f s | %.0f MB | %s | %s |" %
                      (name, tool, m[0], m[1], m[2] / 1024, ",".join(map(str, sorted(m[3]))), ratio))
    print("\nload average at the end: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
