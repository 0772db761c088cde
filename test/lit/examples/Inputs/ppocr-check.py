# Checks a qtune run of examples/ppocr-det or ppocr-rec against the evaluator and against HMCT's own
# procedure (the examples' READMEs):
#  (a) the all-int8 baseline: qtune's first probe measured what an independent evaluation of the
#      baseline config measures, and judged it the same way (pass or fail);
#  (b) qtune's answer, re-evaluated independently from its emitted quant_config, meets the target
#      and measures what qtune recorded;
#  (c) the answer raises no more nodes above int8 than HMCT's procedure does on the same
#      evaluator (hmct_reference.py's report).
# usage: ppocr-check.py EXAMPLE_DIR TUNE_DIR BASE.json REFERENCE.json
import glob
import json
import os
import subprocess
import sys

example, tune, base, reference = sys.argv[1:5]
TARGET = 0.99


def evaluate(config):
    out = subprocess.run(["/usr/bin/python3", os.path.join(example, "evaluate.py"), config],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["cosine"]


def raised(config_file):
    with open(config_file) as f:
        c = json.load(f)
    if c["model_config"].get("all_node_type", "int8") != "int8":
        return 10 ** 9  # a uniform answer raises every node
    return sum(1 for e in c.get("node_config", {}).values() if e.get("qtype") not in ("int8", "float32"))


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


with open(os.path.join(tune, "state.json")) as f:
    state = json.load(f)
first = state["rounds"][0]["probes"][0]
base_cos = evaluate(base)
if abs(first["metric"] - base_cos) > 1e-9 or first["pass"] != (base_cos >= TARGET):
    fail(f"qtune's first probe measured {first['metric']} (pass={first['pass']}), the baseline measures {base_cos}")
print(f"baseline: all int8 {'passes' if base_cos >= TARGET else 'fails'} (cosine {base_cos:.4f})")

if state["verdict"] != "found" or not state.get("best"):
    fail(f"qtune found no answer: {state.get('message')}")
best_configs = glob.glob(os.path.join(tune, "best", "config", "*.json"))
if len(best_configs) != 1:
    fail(f"expected one quant_config in {tune}/best/config, found {len(best_configs)}")
best_cos = evaluate(best_configs[0])
if best_cos < TARGET or abs(best_cos - state["best"]["metric"]) > 1e-9:
    fail(f"the answer re-evaluates to {best_cos}, qtune recorded {state['best']['metric']}")
print(f"answer: re-evaluated cosine {best_cos:.4f} >= {TARGET}")

with open(reference) as f:
    ref = json.load(f)
mine = raised(best_configs[0])
if mine > ref["raised"]:
    fail(f"qtune raises {mine} nodes, HMCT's procedure {ref['raised']}")
print(f"size: qtune raises {mine} nodes, HMCT's procedure {ref['raised']} "
      f"({len(ref['phases'])} evaluations, qtune {state['evaluations']})")
