#!/usr/bin/python3
"""Generates the two-graph test pair (docs/inputs.md, "Two graphs"): a Hugging Face index of a
two-layer Qwen3-style model and the ONNX graphs its exporters would write, without weights.

  pair.index.json   the module inventory (weight_map only)
  torchscript.onnx  torch.onnx.export (TorchScript): scoped names "/model/layers.0/mlp/down_proj/MatMul",
                    Linear weights folded into transposed initializers "onnx::MatMul_N" (so the
                    scope maps them), norms and the embedding consuming their own weights, "_N"
                    suffixes; layer 1's down_proj has two MatMuls (ambiguous without onnx_map)
  dynamo.onnx       torch.onnx.export(dynamo=True): names "node_MatMul_N", the module in the
                    metadata_props pkg.torch.onnx.name_scopes (layer 0) or namespace (layer 1)
  unnamed.onnx      torchscript.onnx with lm_head's MatMul left unnamed (consuming lm_head.weight)
  map.json          onnx_map for torchscript.onnx: layer 1's down_proj -> its first MatMul

Usage: /usr/bin/python3 gen_pair.py OUTDIR   (Debian's python3-onnx; the checked-in files are its output)
"""
import json
import os
import sys

import onnx
from onnx import TensorProto, helper

LAYERS = 2
PROJ = [("self_attn", "q_proj"), ("self_attn", "k_proj"), ("self_attn", "v_proj"), ("self_attn", "o_proj"),
        ("mlp", "gate_proj"), ("mlp", "up_proj"), ("mlp", "down_proj")]
NORMS = ["input_layernorm", "post_attention_layernorm"]


def modules():
    names = ["model.embed_tokens"]
    for i in range(LAYERS):
        names += [f"model.layers.{i}.{n}" for n in NORMS]
        names += [f"model.layers.{i}.{a}.{p}" for a, p in PROJ]
    return names + ["model.norm", "lm_head"]


def write_index(out):
    wm = {m + ".weight": "model-00001-of-00001.safetensors" for m in sorted(modules())}
    with open(os.path.join(out, "pair.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": 0}, "weight_map": wm}, f, indent=2, sort_keys=True)
        f.write("\n")


def tensor(name):
    return helper.make_tensor(name, TensorProto.FLOAT, [1], [0.0])


class Graph:
    def __init__(self):
        self.nodes, self.inits, self.count = [], [], 0

    def node(self, op, name, inputs, meta=None):
        out = (name or f"{op}_{len(self.nodes)}") + "_output_0"
        n = helper.make_node(op, inputs, [out], name=name)
        if meta:
            n = with_metadata(n, meta)
        self.nodes.append(n)
        return out

    def init(self, name):
        self.inits.append(tensor(name))
        return name

    def save(self, path, last):
        g = helper.make_graph(self.nodes, "g", [helper.make_tensor_value_info("input_ids", TensorProto.INT64, [1, 4])],
                              [helper.make_tensor_value_info(last, TensorProto.FLOAT, None)], self.inits)
        m = helper.make_model(g, producer_name="pytorch", opset_imports=[helper.make_opsetid("", 17)])
        onnx.save(m, path)


def with_metadata(node, props):
    """NodeProto.metadata_props (field 9) is newer than python3-onnx 1.12: appended as raw bytes."""
    raw = node.SerializeToString()
    for k, v in props.items():
        e = onnx.StringStringEntryProto(key=k, value=v).SerializeToString()
        raw += bytes([0x4A]) + varint(len(e)) + e
    n = onnx.NodeProto()
    n.ParseFromString(raw)
    return n


def varint(v):
    out = b""
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def torchscript(path, unnamed_head=False, split_down=True):
    g = Graph()
    x = g.node("Gather", "/model/embed_tokens/Gather", [g.init("model.embed_tokens.weight"), "input_ids"])
    for i in range(LAYERS):
        for norm in NORMS:
            s = f"/model/layers.{i}/{norm}"
            p = g.node("Pow", f"{s}/Pow", [x])
            r = g.node("ReduceMean", f"{s}/ReduceMean", [p])
            y = g.node("Mul", f"{s}/Mul", [x, r])
            x = g.node("Mul", f"{s}/Mul_1", [g.init(f"model.layers.{i}.{norm}.weight"), y])
            if norm == "input_layernorm":
                for a, proj in PROJ[:4]:
                    w = g.init(f"onnx::MatMul_{100 * i + len(g.inits)}")
                    x = g.node("MatMul", f"/model/layers.{i}/{a}/{proj}/MatMul", [x, w])
                x = g.node("MatMul", f"/model/layers.{i}/self_attn/MatMul", [x, x])
                x = g.node("Softmax", f"/model/layers.{i}/self_attn/Softmax", [x])
                x = g.node("MatMul", f"/model/layers.{i}/self_attn/MatMul_1", [x, x])
        for a, proj in PROJ[4:]:
            w = g.init(f"onnx::MatMul_{100 * i + len(g.inits)}")
            x = g.node("MatMul", f"/model/layers.{i}/{a}/{proj}/MatMul", [x, w])
            if split_down and i == 1 and proj == "down_proj":
                w = g.init(f"onnx::MatMul_{100 * i + len(g.inits)}")
                x = g.node("MatMul", f"/model/layers.{i}/{a}/{proj}/MatMul_1", [x, w])
        g.nodes.append(helper.make_node("Constant", [], [f"/model/layers.{i}/Constant_output_0"],
                                        name=f"/model/layers.{i}/Constant", value=tensor("c")))
    x = g.node("Mul", "/model/norm/Mul_1", [g.init("model.norm.weight"), x])
    # An unnamed node has no scope: the unnamed head is reached through its weight instead.
    head_weight = "lm_head.weight" if unnamed_head else "onnx::MatMul_999"
    x = g.node("MatMul", "" if unnamed_head else "/lm_head/MatMul", [x, g.init(head_weight)])
    g.save(path, x)


def dynamo(path):
    g = Graph()
    k = [0]

    def meta(scope, i):
        parts = scope.split(".")
        cumulative = [""] + [".".join(parts[:j + 1]) for j in range(len(parts))]
        if i == 0:
            return {"pkg.torch.onnx.name_scopes": repr(cumulative)}
        ns = "/".join(f"{c}: Module" for c in cumulative)
        return {"namespace": ns}

    def node(op, inputs, scope, i=0):
        k[0] += 1
        return g.node(op, f"node_{op}_{k[0]}", inputs, meta(scope, i))

    x = node("Gather", [g.init("model.embed_tokens.weight"), "input_ids"], "model.embed_tokens")
    for i in range(LAYERS):
        for norm in NORMS:
            x = node("Mul", [x, g.init(f"model.layers.{i}.{norm}.weight")], f"model.layers.{i}.{norm}", i)
        for a, proj in PROJ:
            scope = f"model.layers.{i}.{a}.{proj}"
            t = node("Transpose", [g.init(scope + ".weight")], scope, i)
            x = node("MatMul", [x, t], scope, i)
    x = node("Mul", [x, g.init("model.norm.weight")], "model.norm")
    x = node("MatMul", [x, g.init("lm_head.weight")], "lm_head")
    g.save(path, x)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    write_index(out)
    torchscript(os.path.join(out, "torchscript.onnx"))
    torchscript(os.path.join(out, "unnamed.onnx"), unnamed_head=True, split_down=False)
    dynamo(os.path.join(out, "dynamo.onnx"))
    with open(os.path.join(out, "map.json"), "w") as f:
        json.dump({"model.layers.1.mlp.down_proj": "/model/layers.1/mlp/down_proj/MatMul"}, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
