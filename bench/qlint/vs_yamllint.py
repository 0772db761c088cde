#!/usr/bin/python3
# qlint against yamllint on the same msModelSlim practice YAML, in the same run (not a test: no
# timing assertions anywhere). Times one invocation on one file (median of 15) and one invocation
# on 500 copies (median of 3) for each tool, and prints the ratio. yamllint (Debian package
# `yamllint`) is skipped when absent.
# Usage: bench/qlint/vs_yamllint.py [BUILD_DIR]   (default: build)
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build")
qlint = os.path.join(build, "bin", "qlint")
if not os.access(qlint, os.X_OK):
    sys.exit("no qlint at %s; build the qlint target first" % qlint)

PRACTICE = """apiversion: modelslim_v1
metadata:
  config_id: qwen3-w8a8
  score: 90
  label: {w_bit: 8, a_bit: 8, is_sparse: false, kv_cache: false}
spec:
  process:
    - type: iter_smooth
      alpha: 0.9
      include: ["*"]
      exclude: ["*down_proj*"]
    - type: linear_quant
      qconfig:
        act: {scope: per_tensor, dtype: int8, symmetric: false, method: minmax}
        weight: {scope: per_channel, dtype: int8, symmetric: true, method: minmax}
      include: ["*"]
      exclude: ["lm_head", "model.layers.0.*", "model.layers.{30..31}.mlp.down_proj"]
  save:
    - type: ascendv1_saver
      part_file_size: 4
"""


def median_time(cmd, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


work = tempfile.mkdtemp()
try:
    one = os.path.join(work, "practice.yaml")
    with open(one, "w") as f:
        f.write(PRACTICE)
    many = os.path.join(work, "many")
    os.makedirs(many)
    for k in range(500):
        with open(os.path.join(many, "p%03d.yaml" % k), "w") as f:
            f.write(PRACTICE)
    tools = {"qlint": [qlint, "--no-config"]}
    yamllint = shutil.which("yamllint")
    if yamllint:
        tools["yamllint"] = [yamllint, "-d", "relaxed"]
    else:
        print("yamllint not installed: skipped (apt-get install yamllint)")
    results = {}
    for name, cmd in tools.items():
        subprocess.run(cmd + [one], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # warm up
        t1 = median_time(cmd + [one], 15)
        t500 = median_time(cmd + [many], 3)
        results[name] = (t1, t500)
        print("%-9s 1 file %7.1f ms   500 files %7.1f ms   %5.2f ms/file" % (name, t1 * 1e3, t500 * 1e3, t500 * 2))
    if "yamllint" in results:
        q, y = results["qlint"], results["yamllint"]
        print("ratio yamllint/qlint: 1 file %.1fx, 500 files %.1fx" % (y[0] / q[0], y[1] / q[1]))
finally:
    shutil.rmtree(work)
