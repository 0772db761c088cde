#!/usr/bin/python3
"""Generates ONNX graphs of models whose output head is tied to the input embedding (docs/inputs.md,
"Output head" and "Two graphs"), for the real index layouts of test/Inputs/indexes/, as
torch.onnx.export (TorchScript) names them, without weights. A tied `lm_head` reuses the
embedding's weight, so the index lists no `lm_head.weight`; the exporter folds the transposed
weight into an initializer `onnx::MatMul_N`, and the head's MatMul is known by its scope only.

  tied.onnx                 llama-3.2-3b: `/model/embed_tokens/Gather`, the two layers'
                            projections, `/lm_head/MatMul`
  tied-language-model.onnx  medgemma-27b-it: the same under `language_model.`
                            (`/language_model/lm_head/MatMul`)
  tied-split.onnx           tied.onnx with two MatMuls in the head's scope (ambiguous)
  tied-unnamed.onnx         tied.onnx with the head's MatMul unnamed, its scope in the dynamo
                            exporter's metadata (pkg.torch.onnx.name_scopes)
  tied-gemm.onnx            tied.onnx with the head a Gemm (transB) reading the embedding's own
                            weight, so the embedding's weight reaches the head's node too

Usage: /usr/bin/python3 gen_tied.py [OUTDIR]   (Debian's python3-onnx; the checked-in files are its
output)
"""
import os
import sys

import onnx
from onnx import TensorProto, helper

LAYERS = 2
PROJ = [("self_attn", "q_proj"), ("self_attn", "k_proj"), ("self_attn", "v_proj"), ("self_attn", "o_proj"),
        ("mlp", "gate_proj"), ("mlp", "up_proj"), ("mlp", "down_proj")]


def name_scopes(node, scope):
    """NodeProto.metadata_props (field 9) is newer than python3-onnx 1.12: appended as raw bytes."""
    e = onnx.StringStringEntryProto(key="pkg.torch.onnx.name_scopes", value=repr(["", scope])).SerializeToString()
    raw = node.SerializeToString() + bytes([0x4A, len(e)]) + e
    n = onnx.NodeProto()
    n.ParseFromString(raw)
    return n


def graph(path, prefix, head="matmul"):
    nodes, inits = [], []
    base = "/" + prefix.replace(".", "/") if prefix else ""

    def node(op, name, inputs, **attrs):
        out = (name or f"{op}_{len(nodes)}") + "_output_0"
        nodes.append(helper.make_node(op, inputs, [out], name=name, **attrs))
        return out

    def init(name):
        inits.append(helper.make_tensor(name, TensorProto.FLOAT, [1], [0.0]))
        return name

    embedding = prefix + ("." if prefix else "") + "model.embed_tokens.weight"
    x = node("Gather", f"{base}/model/embed_tokens/Gather", [init(embedding), "input_ids"])
    for i in range(LAYERS):
        for a, p in PROJ:
            x = node("MatMul", f"{base}/model/layers.{i}/{a}/{p}/MatMul", [x, init(f"onnx::MatMul_{len(inits)}")])
    x = node("Mul", f"{base}/model/norm/Mul_1", [init(prefix + ("." if prefix else "") + "model.norm.weight"), x])
    if head == "gemm":
        x = node("Gemm", f"{base}/lm_head/Gemm", [x, embedding], transB=1)
    elif head == "unnamed":
        x = node("MatMul", "", [x, init(f"onnx::MatMul_{len(inits)}")])
        nodes[-1] = name_scopes(nodes[-1], "lm_head")
    else:
        x = node("MatMul", f"{base}/lm_head/MatMul", [x, init(f"onnx::MatMul_{len(inits)}")])
        if head == "split":
            x = node("MatMul", f"{base}/lm_head/MatMul_1", [x, init(f"onnx::MatMul_{len(inits)}")])
    g = helper.make_graph(nodes, "tied", [helper.make_tensor_value_info("input_ids", TensorProto.INT64, [1, 4])],
                          [helper.make_tensor_value_info(x, TensorProto.FLOAT, None)], inits)
    onnx.save(helper.make_model(g, producer_name="pytorch", opset_imports=[helper.make_opsetid("", 17)]), path)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    graph(os.path.join(out, "tied.onnx"), "")
    graph(os.path.join(out, "tied-language-model.onnx"), "language_model")
    graph(os.path.join(out, "tied-split.onnx"), "", head="split")
    graph(os.path.join(out, "tied-unnamed.onnx"), "", head="unnamed")
    graph(os.path.join(out, "tied-gemm.onnx"), "", head="gemm")


if __name__ == "__main__":
    main()
