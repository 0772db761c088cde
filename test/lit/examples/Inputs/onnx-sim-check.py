# Checks examples/onnx-sim/onnx_sim.py on small models built here, at opsets 7, 9 and 13 (the
# oldest onnxruntime runs, the recognizer's, and one with Round): a MatMul, an Add and a shape
# computation (Shape, then a Concat of int64 tensors feeding a Reshape). For each opset:
#  (a) the points are the float activations only: the Concat of int64 shapes is no point;
#  (b) the tap model loads and runs in onnxruntime-node and outputs the tapped tensors;
#  (c) `apply` (MatMul int8, Add int16, Concat int8) computes what NumPy computes for the same
#      fake quantization, and float16 is a cast to float16 and back.
# usage: onnx-sim-check.py EXAMPLES_DIR NODE_MODULES WORKDIR
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

examples, node_modules, work = sys.argv[1:4]
sys.path.insert(0, os.path.join(examples, "onnx-sim"))
import onnx_sim  # noqa: E402

RUN = r"""
const ort = require('onnxruntime-node');
const fs = require('fs');
(async () => {
  const [model, input] = process.argv.slice(1);
  const x = JSON.parse(fs.readFileSync(input, 'utf8'));
  const s = await ort.InferenceSession.create(model, { intraOpNumThreads: 1 });
  const r = await s.run({ x: new ort.Tensor('float32', Float32Array.from(x.data), x.dims) });
  const out = {};
  for (const n of s.outputNames) out[n] = Array.from(r[n].data, Number);
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { console.error(e.message); process.exit(1); });
"""

rng = np.random.default_rng(7)
X = rng.normal(0, 1, (2, 8)).astype(np.float32)
W = rng.normal(0, 0.5, (8, 4)).astype(np.float32)
B = rng.normal(0, 0.1, (4,)).astype(np.float32)


def model(version: int):
    nodes = [
        helper.make_node("Constant", [], ["w"], name="w", value=numpy_helper.from_array(W, "w")),
        helper.make_node("Constant", [], ["b"], name="b", value=numpy_helper.from_array(B, "b")),
        helper.make_node("Constant", [], ["one"], name="one",
                         value=numpy_helper.from_array(np.array([1], dtype=np.int64), "one")),
        helper.make_node("MatMul", ["x", "w"], ["y"], name="mm"),
        helper.make_node("Add", ["y", "b"], ["z"], name="add"),
        helper.make_node("Shape", ["z"], ["s"], name="shape"),
        helper.make_node("Concat", ["s", "one"], ["s3"], name="concat", axis=0),
        helper.make_node("Reshape", ["z", "s3"], ["out"], name="reshape"),
    ]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
                          [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", version)], ir_version=7)


def run(path: str) -> dict:
    inp = os.path.join(work, "x.json")
    with open(inp, "w") as f:
        json.dump({"data": X.ravel().tolist(), "dims": list(X.shape)}, f)
    out = subprocess.run(["node", "-e", RUN, path, inp], capture_output=True, text=True,
                         env=dict(os.environ, NODE_PATH=node_modules))
    if out.returncode != 0:
        print(f"FAIL: onnxruntime-node refused {os.path.basename(path)}: {out.stderr.strip()[:300]}")
        sys.exit(1)
    return {k: np.array(v, dtype=np.float32) for k, v in json.loads(out.stdout).items()}


def fake_quant(x, scale, bits, version):
    qmax = 2 ** (bits - 1) - 1
    y = (x * np.float32(1.0 / scale)).astype(np.float32)
    q = np.round(y) if version >= 11 else np.floor(y + np.float32(0.5))
    return (np.clip(q, -qmax, qmax) * np.float32(scale)).astype(np.float32)


def check(version: int) -> None:
    base = os.path.join(work, f"opset{version}")
    onnx.save(model(version), base + ".onnx")
    onnx_sim.tap(base + ".onnx", base + ".tap.onnx", base + ".points.json")
    with open(base + ".points.json") as f:
        points = json.load(f)
    got = sorted((p["node"], p["tensor"]) for p in points["points"])
    if got != [("add", "y"), ("mm", "x")] or [w["node"] for w in points["weights"]] != ["mm"]:
        print(f"FAIL: opset {version}: points {got}, weights {points['weights']}")
        sys.exit(1)
    taps = run(base + ".tap.onnx")
    y = X @ W
    ranges = {"x": float(np.abs(taps["x"]).max()), "y": float(np.abs(taps["y"]).max())}
    if abs(ranges["y"] - float(np.abs(y).max())) > 1e-5:
        print(f"FAIL: opset {version}: tapped y is not MatMul's output")
        sys.exit(1)
    with open(base + ".ranges.json", "w") as f:
        json.dump(ranges, f)
    for qtypes, want in (
            ({"mm": "int8", "add": "int16", "concat": "int8"},
             lambda: fake_quant(fake_quant(X, ranges["x"] / 127, 8, version)
                                @ onnx_sim.per_channel(W, -1, 8).astype(np.float32),
                                ranges["y"] / 32767, 16, version) + B),
            ({"mm": "float16", "add": "float32"},
             lambda: X.astype(np.float16).astype(np.float32) @ W.astype(np.float16).astype(np.float32) + B)):
        with open(base + ".qtypes.json", "w") as f:
            json.dump(qtypes, f)
        onnx_sim.apply(base + ".onnx", base + ".points.json", base + ".ranges.json",
                       base + ".qtypes.json", base + ".sim.onnx")
        out = run(base + ".sim.onnx")["out"]
        diff = float(np.abs(out - want().ravel()).max())
        if diff > 1e-5:
            print(f"FAIL: opset {version} {qtypes}: off by {diff} from NumPy")
            sys.exit(1)
    print(f"opset {version}: points x, y; tap runs; int8/int16 and float16 match NumPy "
          f"({'Round' if version >= 11 else 'Floor'}): ok")


os.makedirs(work, exist_ok=True)
for v in (7, 9, 13):
    check(v)
