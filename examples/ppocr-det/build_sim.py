#!/usr/bin/python3
"""Turns the float ONNX model into the models the example runs.

  build_sim.py tap MODEL TAP.onnx POINTS.json
      finds the quantization points and writes a copy of MODEL that also outputs every tensor
      entering one, so that calibrate.js can measure their ranges on the calibration pages;
  build_sim.py apply MODEL POINTS.json RANGES.json QTYPES.json OUT.onnx
      the model as one configuration quantizes it: QTYPES.json maps each node to its qtype
      (int8, int16, dual-int16, float16, float32), as evaluate.py reads it from a quant_config;
  build_sim.py sens MODEL POINTS.json RANGES.json SENS.onnx
      the sensitivity model: each quantized node switchable between float and int8 by a graph
      input, so that one session measures every node alone (sensitivity.js).

A quantization point is one activation input of a node whose op HMCT quantizes (QUANTIZED_OPS
below: the GEMM ops and the elementwise, pooling and resize ops of this network). Constants stay
float, and so do ops outside QUANTIZED_OPS (BatchNormalization, Relu, Clip: HMCT fuses them into
the conv before them). Per qtype, as HMCT applies it on J6:

  qtype        activation inputs                 weight (GEMM ops, per output channel)
  int8         int8 fake-quant (symmetric, max)  int8
  int16        int16 fake-quant                  int8
  dual-int16   int16 fake-quant                  int16
  float16      cast to float16 and back          float16
  float32      unchanged                         unchanged

Fake-quant is round(x / s) clamped to [-(2^(b-1) - 1), 2^(b-1) - 1], times s, with
s = max|x| over the calibration pages / (2^(b-1) - 1): HMCT's `max` calibration, per tensor.
"""
import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

QUANTIZED_OPS = {"Conv", "ConvTranspose", "MatMul", "Gemm", "Add", "Mul", "Div", "Concat",
                 "Resize", "GlobalAveragePool", "Sigmoid", "HardSigmoid"}
GEMM_OPS = {"Conv", "ConvTranspose", "MatMul", "Gemm"}
# Inputs of these ops past the first are shapes or coordinates, never activations.
FIRST_INPUT_ONLY = {"Resize"}


def constant_outputs(graph) -> set:
    return {o for n in graph.node if n.op_type == "Constant" for o in n.output}


def constant_tensors(graph) -> dict:
    """Tensors fixed in the graph: initializers and Constant nodes' values (paddle2onnx writes
    the weights as Constant nodes)."""
    out = {i.name: i for i in graph.initializer}
    for n in graph.node:
        if n.op_type == "Constant":
            for a in n.attribute:
                if a.name == "value":
                    out[n.output[0]] = a.t
    return out


def find_points(model):
    g = model.graph
    inits = set(constant_tensors(g))
    consts = constant_outputs(g)
    points, weights = [], []
    for node in g.node:
        if node.op_type not in QUANTIZED_OPS:
            continue
        if not node.name:
            sys.exit(f"build_sim.py: a {node.op_type} node has no name; HMCT names nodes, "
                     "this example needs the exported names")
        inputs = node.input[:1] if node.op_type in FIRST_INPUT_ONLY else node.input
        for i, t in enumerate(inputs):
            if t and t not in inits and t not in consts:
                points.append({"node": node.name, "op": node.op_type, "input": i, "tensor": t})
        if node.op_type in GEMM_OPS and len(node.input) > 1 and node.input[1] in inits:
            weights.append({"node": node.name, "op": node.op_type, "tensor": node.input[1]})
    return points, weights


def tap(model_path: str, tap_path: str, points_path: str) -> None:
    model = onnx.load(model_path)
    points, weights = find_points(model)
    graph_outputs = {o.name for o in model.graph.output}
    for t in sorted({p["tensor"] for p in points} - graph_outputs):
        model.graph.output.append(helper.make_tensor_value_info(t, TensorProto.FLOAT, None))
    onnx.save(model, tap_path)
    nodes = {n.name: n.op_type for n in model.graph.node if n.op_type != "Constant"}
    with open(points_path, "w") as f:
        json.dump({"points": points, "weights": weights, "nodes": nodes,
                   "output": [o.name for o in model.graph.output][0]}, f, indent=1, sort_keys=True)
        f.write("\n")


def per_channel(w: np.ndarray, axis: int, bits: int) -> np.ndarray:
    qmax = 2 ** (bits - 1) - 1
    reduce = tuple(a for a in range(w.ndim) if a != axis)
    scale = np.max(np.abs(w), axis=reduce, keepdims=True) / qmax
    scale[scale == 0] = 1.0
    return (np.clip(np.round(w / scale), -qmax, qmax) * scale).astype(np.float32)


def channel_axis(op: str) -> int:
    # Conv [O, I, kH, kW]; ConvTranspose [I, O/g, kH, kW]; MatMul/Gemm [K, N]: output is the last.
    return {"Conv": 0, "ConvTranspose": 1}.get(op, -1)


class Builder:
    """Adds nodes in front of the node being rewritten; names never collide with the model's."""

    def __init__(self, graph):
        self.graph = graph
        self.nodes = []
        self.count = 0

    def name(self, stem: str) -> str:
        self.count += 1
        return f"qsim.{stem}.{self.count}"

    def const(self, value) -> str:
        name = self.name("c")
        self.graph.initializer.append(numpy_helper.from_array(np.asarray(value, dtype=np.float32), name))
        return name

    def op(self, op_type: str, inputs, **attrs) -> str:
        out = self.name(op_type)
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=out, **attrs))
        return out

    def fake_quant(self, x: str, scale: float, bits: int) -> str:
        qmax = 2 ** (bits - 1) - 1
        q = self.op("Round", [self.op("Mul", [x, self.const(1.0 / scale)])])
        q = self.op("Clip", [q, self.const(-qmax), self.const(qmax)])
        return self.op("Mul", [q, self.const(scale)])

    def fp16(self, x: str) -> str:
        return self.op("Cast", [self.op("Cast", [x], to=TensorProto.FLOAT16)], to=TensorProto.FLOAT)

    def gated(self, x: str, quantized: str, gate: str) -> str:
        # x + gate * (quantized - x): gate 0 keeps the float value, 1 takes the quantized one.
        return self.op("Add", [x, self.op("Mul", [gate, self.op("Sub", [quantized, x])])])


# What each qtype does to a node's activation inputs (bits, or "fp16") and to its weight.
ACTIVATION = {"int8": 8, "int16": 16, "dual-int16": 16, "float16": "fp16"}
WEIGHT_BITS = {"int8": 8, "int16": 8, "dual-int16": 16, "float16": "fp16"}


def scale_of(ranges: dict, tensor: str, bits: int) -> float:
    if tensor not in ranges:
        sys.exit(f"build_sim.py: no calibrated range for '{tensor}'; run calibrate.js again")
    return max(ranges[tensor], 1e-12) / (2 ** (bits - 1) - 1)


def rewrite(model, points_path: str, rewrite_node) -> None:
    """Checks POINTS.json against the model, then lets `rewrite_node(builder, node, points,
    weight)` replace the inputs of every quantized node; the new nodes go in front of it."""
    points, weights = find_points(model)
    with open(points_path) as f:
        recorded = json.load(f)
    if recorded["points"] != points or recorded["weights"] != weights:
        sys.exit("build_sim.py: POINTS.json does not describe MODEL; run `tap` again")
    g = model.graph
    by_node = {}
    for p in points:
        by_node.setdefault(p["node"], []).append(p)
    weight_of = {w["node"]: w for w in weights}
    b = Builder(g)
    out = []
    for node in g.node:
        if node.name in by_node or node.name in weight_of:
            rewrite_node(b, node, by_node.get(node.name, []), weight_of.get(node.name))
        out.extend(b.nodes)
        b.nodes = []
        out.append(node)
    del g.node[:]
    g.node.extend(out)


def weight_version(b: Builder, node, tensors: dict, how) -> str:
    value = numpy_helper.to_array(tensors[node.input[1]]).astype(np.float32)
    if how == "fp16":
        v = value.astype(np.float16).astype(np.float32)
    else:
        v = per_channel(value, channel_axis(node.op_type), how)
    return b.const(v)


def apply(model_path: str, points_path: str, ranges_path: str, qtypes_path: str, out_path: str) -> None:
    """The model as one configuration runs it: {node: qtype} decides every quantized node."""
    model = onnx.load(model_path)
    tensors = constant_tensors(model.graph)
    with open(ranges_path) as f:
        ranges = json.load(f)
    with open(qtypes_path) as f:
        qtypes = json.load(f)

    def node_rewrite(b, node, points, weight):
        qtype = qtypes.get(node.name, "float32")
        if qtype == "float32":
            return
        how = ACTIVATION[qtype]
        for p in points:
            x = node.input[p["input"]]
            node.input[p["input"]] = b.fp16(x) if how == "fp16" else \
                b.fake_quant(x, scale_of(ranges, p["tensor"], how), how)
        if weight:
            node.input[1] = weight_version(b, node, tensors, WEIGHT_BITS[qtype])

    rewrite(model, points_path, node_rewrite)
    onnx.save(model, out_path)


def sens(model_path: str, points_path: str, ranges_path: str, out_path: str) -> None:
    """The sensitivity model: every quantized node k switchable between float and int8 by a
    graph input `g<k>` (one float, 0 or 1), so one session measures every node alone."""
    model = onnx.load(model_path)
    tensors = constant_tensors(model.graph)
    with open(ranges_path) as f:
        ranges = json.load(f)
    gates = {}

    def node_rewrite(b, node, points, weight):
        gate = f"g{len(gates)}"
        gates[gate] = node.name
        b.graph.input.append(helper.make_tensor_value_info(gate, TensorProto.FLOAT, [1]))
        for p in points:
            x = node.input[p["input"]]
            node.input[p["input"]] = b.gated(x, b.fake_quant(x, scale_of(ranges, p["tensor"], 8), 8), gate)
        if weight:
            w = node.input[1]
            node.input[1] = b.gated(w, weight_version(b, node, tensors, 8), gate)

    rewrite(model, points_path, node_rewrite)
    onnx.save(model, out_path)
    with open(out_path + ".gates.json", "w") as f:
        json.dump(gates, f, indent=1)
        f.write("\n")


def main() -> None:
    modes = {"tap": (tap, 3), "apply": (apply, 5), "sens": (sens, 4)}
    mode = modes.get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not mode or len(sys.argv) != 2 + mode[1]:
        sys.exit(__doc__)
    mode[0](*sys.argv[2:])


if __name__ == "__main__":
    main()
