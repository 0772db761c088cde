#!/usr/bin/python3
"""Compiles every example and checks each key of every HMCT quant_config it writes against the
example's ONNX graph: node_config keys must be node names of the graph, op_config keys op types
its nodes have. The graph is the model block's `onnx` (two graphs) or the ONNX inventory; an
HMCT file from a module inventory is a failure (HMCT would match none of its names).

usage: hmct-keys.py QCC EXAMPLES_DIR SCRATCH_DIR

Prints one line per example: "NAME: no hmct target", or "NAME: N node_config, M op_config keys
in GRAPH", or "NAME: FAIL ..." lines; exits 1 on a failure.
"""
import glob
import json
import os
import subprocess
import sys

import onnx


def graph_of(ir, spec_dir):
    """The ONNX file HMCT's names come from, or None (a module inventory without a graph)."""
    if ir.get("onnx"):
        path = ir["onnx"]["path"]
    elif ir.get("inventory") and ir["inventory"]["format"] == "onnx":
        path = ir["inventory"]["path"]
    else:
        return None
    return path if os.path.isabs(path) or os.path.exists(path) else os.path.join(spec_dir, path)


def main():
    qcc, examples, scratch = sys.argv[1:4]
    failed = False
    for spec in sorted(glob.glob(os.path.join(examples, "*", "*.qspec"))):
        name = os.path.basename(os.path.dirname(spec))
        out = os.path.join(scratch, name)
        os.makedirs(out, exist_ok=True)
        ir_path = os.path.join(out, "ir.json")
        if subprocess.run([qcc, spec, "--emit=ir", "-o", ir_path]).returncode != 0:
            sys.exit(f"{name}: qcc refused the example (above); if an input is missing, run the "
                     f"example's setup (examples/{name}/setup.sh, or its gen_inputs.py)")
        with open(ir_path) as f:
            ir = json.load(f)
        if not any(t["kind"] == "hmct" for t in ir["targets"]):
            print(f"{name}: no hmct target")
            continue
        files = os.path.join(out, "files")
        subprocess.run([qcc, spec, "--emit=all", "-o", files], check=True)
        stem = os.path.splitext(os.path.basename(spec))[0]
        with open(os.path.join(files, stem + ".json")) as f:
            config = json.load(f)
        graph_path = graph_of(ir, os.path.dirname(spec))
        if graph_path is None:
            print(f"{name}: FAIL an HMCT file from the module inventory {ir['inventory']['path']}")
            failed = True
            continue
        if not os.path.exists(graph_path):
            sys.exit(f"{name}: the ONNX graph {graph_path} is missing; run the example's setup "
                     f"(examples/{name}/setup.sh, or its gen_inputs.py)")
        graph = onnx.load(graph_path, load_external_data=False).graph
        nodes = {n.name for n in graph.node}
        ops = {n.op_type for n in graph.node}
        node_keys = list(config.get("node_config", {}))
        op_keys = list(config.get("op_config", {}))
        bad = [k for k in node_keys if k not in nodes] + [k for k in op_keys if k not in ops]
        for k in bad:
            print(f"{name}: FAIL key '{k}' is not in {os.path.basename(graph_path)}")
        failed |= bool(bad)
        if not bad:
            print(f"{name}: {len(node_keys)} node_config, {len(op_keys)} op_config keys in "
                  f"{os.path.basename(graph_path)}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
