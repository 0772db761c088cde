#!/usr/bin/python3
"""A generic fake-quantization simulator for ONNX models, for tuning on CPU (examples/onnx-sim).

  onnx_sim.py tap MODEL TAP.onnx POINTS.json
      finds the quantization points and writes a copy of MODEL that also outputs every float
      tensor entering one, so that calibrate.js can measure their ranges on calibration inputs;
  onnx_sim.py apply MODEL POINTS.json RANGES.json QTYPES.json OUT.onnx
      the model as one configuration quantizes it: QTYPES.json maps each node to its qtype
      (QTYPES below: HMCT's int8, int16, dual-int16, float16, float32; AMCT's A8W8, A16W8,
      A8W4, ...), as an evaluator reads it from a vendor config (hmct_config.py for HMCT);
  onnx_sim.py sens MODEL POINTS.json RANGES.json SENS.onnx
      the sensitivity model: each quantized node switchable between float and int8 by a graph
      input, so that one session measures every node alone (sensitivity.js).

Any model and opset (from 7, the oldest onnxruntime runs; the ops it adds are chosen by the
model's opset):

* A quantization point is one activation input of a node whose op is quantized (QUANTIZED_OPS:
  the GEMM ops, the elementwise, pooling, resize and activation ops). An activation is a float
  tensor (float32, float16, double; bfloat16 is tapped but `apply` refuses it) that is not
  fixed in the graph: ONNX shape inference gives every tensor's element type, and integer, bool
  and shape tensors (a Reshape's shape, a Concat of Shape outputs, a Slice's starts) are never
  tapped nor quantized. A tensor
  whose type inference cannot give is left alone too (counted in POINTS.json's "untyped").
* Ops outside QUANTIZED_OPS stay float (BatchNormalization, Relu, Clip: HMCT fuses them into the
  op before them; shape ops move data and do not compute).

Per qtype, with s = max|x| over the calibration inputs / (2^(b-1) - 1) (`max` calibration, per
tensor) and a GEMM's constant weight quantized per output channel:

  qtype          activation inputs                 weight
  int8  / A8W8   int8 fake-quant (symmetric, max)  int8
  int16 / A16W8  int16 fake-quant                  int8
  dual-int16     int16 fake-quant                  int16
  A8W4 A8W6 A8W7 int8 fake-quant                   4, 6, 7 bits
  float16        cast to float16 and back          float16
  float32        unchanged                         unchanged

Fake-quant is round(x / s) clamped to [-(2^(b-1) - 1), 2^(b-1) - 1], times s. From opset 11 it
is Mul, Round, Clip (min and max as inputs), Mul; before opset 11, where ONNX has no Round, the
rounding is Floor(x / s + 0.5) (which differs from Round's half-to-even only on exact halves)
and the clamp is Clip with min/max attributes (opsets 6 to 10).
"""
import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper, shape_inference

QUANTIZED_OPS = {"Conv", "ConvTranspose", "MatMul", "Gemm", "Add", "Sub", "Mul", "Div", "Concat",
                 "Resize", "Upsample", "GlobalAveragePool", "AveragePool", "MaxPool", "Sigmoid",
                 "HardSigmoid", "Softmax", "ReduceMean"}
GEMM_OPS = {"Conv", "ConvTranspose", "MatMul", "Gemm"}
# Inputs of these ops past the first are shapes, scales or coordinates, never activations.
FIRST_INPUT_ONLY = {"Resize", "Upsample"}
FLOAT_TYPES = {TensorProto.FLOAT: np.float32, TensorProto.FLOAT16: np.float16,
               TensorProto.DOUBLE: np.float64, TensorProto.BFLOAT16: np.float32}

# Each qtype as (activation, weight): bits, "fp16", or None (unchanged). HMCT's names
# (horizon_nn quant_config) and AMCT's activation/weight pairs (A<act bits>W<weight bits>).
QTYPES = {"int8": (8, 8), "int16": (16, 8), "dual-int16": (16, 16), "float16": ("fp16", "fp16"),
          "float32": (None, None),
          "A8W8": (8, 8), "A16W8": (16, 8), "A8W4": (8, 4), "A8W6": (8, 6), "A8W7": (8, 7)}


def fail(msg: str):
    sys.exit(f"onnx_sim.py: {msg}")


def opset(model) -> int:
    for o in model.opset_import:
        if o.domain in ("", "ai.onnx"):
            return o.version
    fail("the model imports no default-domain opset")


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


def element_types(model) -> dict:
    """Every tensor's element type (TensorProto enum) that the graph or ONNX shape inference
    gives; tensors it cannot type are absent."""
    inferred = shape_inference.infer_shapes(model)
    g = inferred.graph
    types = {}
    for v in list(g.input) + list(g.output) + list(g.value_info):
        if v.type.HasField("tensor_type") and v.type.tensor_type.elem_type:
            types[v.name] = v.type.tensor_type.elem_type
    for name, t in constant_tensors(model.graph).items():
        types[name] = t.data_type
    return types


def find_points(model, types=None):
    """The quantization points, the GEMM weights and the inputs left alone for want of a type."""
    g = model.graph
    types = element_types(model) if types is None else types
    fixed = set(constant_tensors(g))
    points, weights, untyped = [], [], []
    for node in g.node:
        if node.op_type not in QUANTIZED_OPS:
            continue
        if not node.name:
            fail(f"a {node.op_type} node has no name; vendor configs name nodes, the simulator "
                 "needs the exported names")
        inputs = node.input[:1] if node.op_type in FIRST_INPUT_ONLY else node.input
        for i, t in enumerate(inputs):
            if not t or t in fixed:
                continue
            if t not in types:
                untyped.append(t)
            elif types[t] in FLOAT_TYPES:
                points.append({"node": node.name, "op": node.op_type, "input": i, "tensor": t})
        if node.op_type in GEMM_OPS and len(node.input) > 1 and node.input[1] in fixed \
                and types.get(node.input[1]) in FLOAT_TYPES:
            weights.append({"node": node.name, "op": node.op_type, "tensor": node.input[1]})
    return points, weights, sorted(set(untyped))


def tap(model_path: str, tap_path: str, points_path: str) -> None:
    """A copy of the model that also outputs every tensor entering a point, as float32 (a
    tensor of another float type through a Cast), and POINTS.json."""
    model = onnx.load(model_path)
    types = element_types(model)
    points, weights, untyped = find_points(model, types)
    graph_outputs = {o.name for o in model.graph.output}
    taps = {}
    for t in sorted({p["tensor"] for p in points}):
        if types[t] == TensorProto.FLOAT:
            taps[t] = t
            if t not in graph_outputs:
                model.graph.output.append(helper.make_tensor_value_info(t, TensorProto.FLOAT, None))
        else:
            taps[t] = f"qsim.tap.{len(taps)}"
            model.graph.node.append(helper.make_node("Cast", [t], [taps[t]], name=taps[t],
                                                     to=TensorProto.FLOAT))
            model.graph.output.append(helper.make_tensor_value_info(taps[t], TensorProto.FLOAT, None))
    onnx.save(model, tap_path)
    nodes = {n.name: n.op_type for n in model.graph.node if n.op_type != "Constant" and n.name not in taps.values()}
    with open(points_path, "w") as f:
        json.dump({"points": points, "weights": weights, "nodes": nodes, "taps": taps,
                   "untyped": untyped, "opset": opset(model),
                   "input": [i.name for i in model.graph.input if i.name not in constant_tensors(model.graph)][0],
                   "output": [o.name for o in model.graph.output][0]}, f, indent=1, sort_keys=True)
        f.write("\n")


def per_channel(w: np.ndarray, axis: int, bits: int) -> np.ndarray:
    qmax = 2 ** (bits - 1) - 1
    reduce = tuple(a for a in range(w.ndim) if a != axis % w.ndim)
    scale = np.max(np.abs(w), axis=reduce, keepdims=True) / qmax
    scale[scale == 0] = 1.0
    return np.clip(np.round(w / scale), -qmax, qmax) * scale


def channel_axis(op: str) -> int:
    # Conv [O, I, kH, kW]; ConvTranspose [I, O/g, kH, kW]; MatMul/Gemm [K, N]: output is the last.
    return {"Conv": 0, "ConvTranspose": 1}.get(op, -1)


class Builder:
    """Adds nodes in front of the node being rewritten, with the ops the model's opset has;
    names never collide with the model's."""

    def __init__(self, graph, version: int, types: dict):
        self.graph, self.version, self.types = graph, version, types
        self.nodes = []
        self.count = 0

    def name(self, stem: str) -> str:
        self.count += 1
        return f"qsim.{stem}.{self.count}"

    def const(self, value, elem: int) -> str:
        if elem == TensorProto.BFLOAT16:
            fail("bfloat16 activations are not simulated")
        name = self.name("c")
        self.graph.initializer.append(numpy_helper.from_array(np.asarray(value, dtype=FLOAT_TYPES[elem]), name))
        self.types[name] = elem
        return name

    def op(self, op_type: str, inputs, elem: int, **attrs) -> str:
        if op_type in ("Add", "Sub", "Mul") and self.version < 7:
            attrs["broadcast"] = 1  # before opset 7 a binary op broadcasts only when told
        out = self.name(op_type)
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=out, **attrs))
        self.types[out] = elem
        return out

    def fake_quant(self, x: str, scale: float, bits: int) -> str:
        elem = self.types[x]
        qmax = float(2 ** (bits - 1) - 1)
        y = self.op("Mul", [x, self.const(1.0 / scale, elem)], elem)
        if self.version >= 11:
            q = self.op("Round", [y], elem)
            q = self.op("Clip", [q, self.const(-qmax, elem), self.const(qmax, elem)], elem)
        else:
            q = self.op("Floor", [self.op("Add", [y, self.const(0.5, elem)], elem)], elem)
            q = self.op("Clip", [q], elem, min=-qmax, max=qmax)
        return self.op("Mul", [q, self.const(scale, elem)], elem)

    def fp16(self, x: str) -> str:
        elem = self.types[x]
        to16, back = (TensorProto.FLOAT16, elem) if self.version >= 6 else ("FLOAT16", TensorProto.DataType.Name(elem))
        return self.op("Cast", [self.op("Cast", [x], TensorProto.FLOAT16, to=to16)], elem, to=back)

    def gated(self, x: str, quantized: str, gate: str) -> str:
        # x + gate * (quantized - x): gate 0 keeps the float value, 1 takes the quantized one.
        elem = self.types[x]
        return self.op("Add", [x, self.op("Mul", [gate, self.op("Sub", [quantized, x], elem)], elem)], elem)


def scale_of(ranges: dict, tensor: str, bits: int) -> float:
    if tensor not in ranges:
        fail(f"no calibrated range for '{tensor}'; run calibrate.js again")
    return max(ranges[tensor], 1e-12) / (2 ** (bits - 1) - 1)


def rewrite(model, points_path: str, rewrite_node) -> None:
    """Checks POINTS.json against the model, then lets `rewrite_node(builder, node, points,
    weight)` replace the inputs of every quantized node; the new nodes go in front of it."""
    types = element_types(model)
    points, weights, _ = find_points(model, types)
    with open(points_path) as f:
        recorded = json.load(f)
    if recorded["points"] != points or recorded["weights"] != weights:
        fail("POINTS.json does not describe MODEL; run `tap` again")
    g = model.graph
    by_node = {}
    for p in points:
        by_node.setdefault(p["node"], []).append(p)
    weight_of = {w["node"]: w for w in weights}
    b = Builder(g, opset(model), types)
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
    t = tensors[node.input[1]]
    value = numpy_helper.to_array(t)
    if how == "fp16":
        v = value.astype(np.float16)
    else:
        v = per_channel(value.astype(np.float64 if value.dtype == np.float64 else np.float32),
                        channel_axis(node.op_type), how)
    return b.const(v.astype(value.dtype), t.data_type)


def load_json(path: str):
    with open(path) as f:
        return json.load(f)


def apply(model_path: str, points_path: str, ranges_path: str, qtypes_path: str, out_path: str) -> None:
    """The model as one configuration runs it: {node: qtype} decides every quantized node."""
    model = onnx.load(model_path)
    tensors = constant_tensors(model.graph)
    ranges, qtypes = load_json(ranges_path), load_json(qtypes_path)
    unknown = sorted(set(qtypes.values()) - set(QTYPES))
    if unknown:
        fail(f"unknown qtype '{unknown[0]}' (one of {', '.join(sorted(QTYPES))})")

    def node_rewrite(b, node, points, weight):
        act, wbits = QTYPES[qtypes.get(node.name, "float32")]
        if act is not None:
            for p in points:
                x = node.input[p["input"]]
                node.input[p["input"]] = b.fp16(x) if act == "fp16" else \
                    b.fake_quant(x, scale_of(ranges, p["tensor"], act), act)
        if weight and wbits is not None:
            node.input[1] = weight_version(b, node, tensors, wbits)

    rewrite(model, points_path, node_rewrite)
    onnx.save(model, out_path)


def sens(model_path: str, points_path: str, ranges_path: str, out_path: str) -> None:
    """The sensitivity model: every quantized node k switchable between float and int8 by a
    graph input `g<k>` (one float, 0 or 1), so one session measures every node alone."""
    model = onnx.load(model_path)
    tensors = constant_tensors(model.graph)
    ranges = load_json(ranges_path)
    gates = {}

    def node_rewrite(b, node, points, weight):
        gate = f"g{len(gates)}"
        gates[gate] = node.name
        b.graph.input.append(helper.make_tensor_value_info(gate, TensorProto.FLOAT, [1]))
        b.types[gate] = TensorProto.FLOAT
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
