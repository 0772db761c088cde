#!/usr/bin/python3
"""HMCT's reading of a quant_config, and an evaluator built on it and on onnx_sim.py.

An example's evaluator names its model, its cache folder and its node_modules and calls
`main(...)`: it reads the round's HMCT quant_config, builds the model as HMCT would quantize it
(onnx_sim.apply) and measures HMCT's metric, the cosine similarity of the output against the
float model on the evaluation inputs (run.js).

    evaluate.py [QUANT_CONFIG.json]

Without an argument it is a qtune evaluator: the quant_config is the one .json file in
$QSPEC_CONFIG_DIR and {"cosine": C, "nodes": {qtype: count}, ...} goes to $QSPEC_RESULT. With
an argument it prints the same JSON. It reads the vendor file, never qtune's IR, so a config
that does not mean what the spec says is measured as what it does say.
"""
import json
import os
import subprocess
import sys
import tempfile

import onnx_sim

HERE = os.path.dirname(os.path.abspath(__file__))

# HMCT's reading of a quant_config, as horizon_nn applies it (../shared/reference/horizon.md
# §1): node_config > op_config > model_config.all_node_type > int8. A node entry gives `qtype`,
# or per-input types (`input0`/`input1`; both int16 is dual-int16). Keys the simulator does not
# model are refused, so a config is never measured as something it does not say.
QTYPES = {"int8", "int16", "dual-int16", "float16", "float32", "float"}
ENTRY_KEYS = {"qtype", "input0", "input1"}
MODEL_KEYS = {"all_node_type", "activation", "model_output_type", "weight"}


class ConfigError(Exception):
    pass


def entry_qtype(entry, where: str) -> str:
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: an entry must be an object")
    unknown = set(entry) - ENTRY_KEYS
    if unknown:
        raise ConfigError(f"{where}: key '{sorted(unknown)[0]}' is not simulated by this example")
    if "qtype" in entry:
        q = entry["qtype"]
        if q not in QTYPES:
            raise ConfigError(f"{where}: unknown qtype '{q}'")
        return "float32" if q == "float" else q
    a, b = entry.get("input0"), entry.get("input1")
    if a == "int16" and b == "int16":
        return "dual-int16"
    if a in QTYPES:
        return a
    raise ConfigError(f"{where}: an entry without a qtype")


def hmct_reading(config: dict, points: dict) -> dict:
    """{node: qtype} for every node the simulator quantizes (onnx_sim.py's POINTS.json)."""
    unknown = set(config) - {"model_config", "op_config", "node_config"}
    if unknown:
        raise ConfigError(f"top-level key '{sorted(unknown)[0]}' is not simulated by this example")
    model = config.get("model_config", {})
    if set(model) - MODEL_KEYS:
        raise ConfigError(f"model_config key '{sorted(set(model) - MODEL_KEYS)[0]}' is not simulated")
    act = model.get("activation", {})
    if act.get("calibration_type", "max") not in ("max", ["max"]):
        raise ConfigError("only calibration_type 'max' is simulated (the ranges are max |x|)")
    for key in ("per_channel", "asymmetric"):
        if act.get(key, False) not in (False, [False]):
            raise ConfigError(f"activation {key} is not simulated (activations are per tensor, symmetric)")
    default = entry_qtype({"qtype": model["all_node_type"]}, "model_config") if "all_node_type" in model else "int8"
    ops, nodes = config.get("op_config", {}), config.get("node_config", {})
    op_of = {p["node"]: p["op"] for p in points["points"]}
    op_of.update({w["node"]: w["op"] for w in points["weights"]})
    # HMCT fuses BatchNormalization, Relu and Clip into the conv before them, and shape ops
    # compute nothing, so an entry for one of those does nothing; a name the graph does not
    # have is an error.
    for name in nodes:
        if name not in points["nodes"]:
            raise ConfigError(f"node_config: the model has no node '{name}'")
    qtypes = {}
    for node, op in sorted(op_of.items()):
        if node in nodes:
            qtypes[node] = entry_qtype(nodes[node], f"node_config.{node}")
        elif op in ops:
            qtypes[node] = entry_qtype(ops[op], f"op_config.{op}")
        else:
            qtypes[node] = default
    return qtypes


def config_path() -> str:
    if len(sys.argv) > 1:
        return sys.argv[1]
    folder = os.environ.get("QSPEC_CONFIG_DIR")
    if not folder:
        raise ConfigError("give a quant_config file, or run under qtune ($QSPEC_CONFIG_DIR)")
    files = sorted(f for f in os.listdir(folder) if f.endswith(".json"))
    if len(files) != 1:
        raise ConfigError(f"expected one quant_config .json in {folder}, found {len(files)}")
    return os.path.join(folder, files[0])


def run_model(model: str, cache: str, node_modules: str, run_args=()) -> dict:
    """run.js on MODEL with the example's cache and onnxruntime-node: its JSON metrics."""
    env = dict(os.environ, QSIM_CACHE=cache, NODE_PATH=node_modules)
    run = subprocess.run(["node", os.path.join(HERE, "run.js"), model, *run_args],
                         capture_output=True, text=True, env=env)
    if run.returncode != 0:
        raise RuntimeError(run.stderr.strip() or "run.js failed")
    return json.loads(run.stdout)


def evaluate(config_file: str, model: str, cache: str, node_modules: str, run_args=()) -> dict:
    points_path = os.path.join(cache, "points.json")
    with open(points_path) as f:
        points = json.load(f)
    with open(config_file) as f:
        qtypes = hmct_reading(json.load(f), points)
    with tempfile.TemporaryDirectory() as tmp:
        qpath, mpath = os.path.join(tmp, "qtypes.json"), os.path.join(tmp, "model.onnx")
        with open(qpath, "w") as f:
            json.dump(qtypes, f)
        onnx_sim.apply(model, points_path, os.path.join(cache, "ranges.json"), qpath, mpath)
        result = run_model(mpath, cache, node_modules, run_args)
    counts = {}
    for q in qtypes.values():
        counts[q] = counts.get(q, 0) + 1
    result["nodes"] = dict(sorted(counts.items()))
    return result


def main(model: str, cache: str, node_modules: str, run_args=(), name: str = "evaluate.py") -> None:
    try:
        result = evaluate(config_path(), model, cache, node_modules, run_args)
    except (ConfigError, OSError, ValueError, RuntimeError) as e:
        sys.exit(f"{name}: {e}")
    text = json.dumps(result, sort_keys=True) + "\n"
    if len(sys.argv) == 1 and os.environ.get("QSPEC_RESULT"):
        with open(os.environ["QSPEC_RESULT"], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
