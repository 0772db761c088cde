#!/usr/bin/python3
"""Writes tiny.onnx: the ONNX graph of the qtune test model (tiny-model.txt) as torch.onnx.export
(TorchScript) would name it, without weights: one node per module, scoped by the module's name
("/model/layers.0/self_attn/q_proj/MatMul"), so the two-graph lowering (docs/inputs.md, "Two
graphs") finds each module's node by scope. The HMCT target of the qtune tests needs it: HMCT keys
are ONNX node names.

Usage: /usr/bin/python3 gen_tiny_onnx.py [OUT.onnx]   (Debian's python3-onnx; the checked-in file
is its output)
"""
import os
import sys

import onnx
from onnx import TensorProto, helper

LAYERS = 8


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "tiny.onnx")
    nodes, inits = [], []

    def node(op, name, inputs):
        nodes.append(helper.make_node(op, inputs, [name + "_output_0"], name=name))
        return name + "_output_0"

    def weight(name):
        inits.append(helper.make_tensor(name, TensorProto.FLOAT, [1], [0.0]))
        return name

    x = node("Gather", "/model/embed_tokens/Gather", [weight("model.embed_tokens.weight"), "input_ids"])
    for i in range(LAYERS):
        for part in ("self_attn/q_proj", "self_attn/k_proj", "mlp/down_proj"):
            x = node("MatMul", f"/model/layers.{i}/{part}/MatMul", [x, weight(f"onnx::MatMul_{len(inits)}")])
    x = node("MatMul", "/lm_head/MatMul", [x, weight(f"onnx::MatMul_{len(inits)}")])
    g = helper.make_graph(nodes, "tiny", [helper.make_tensor_value_info("input_ids", TensorProto.INT64, [1, 4])],
                          [helper.make_tensor_value_info(x, TensorProto.FLOAT, None)], inits)
    onnx.save(helper.make_model(g, producer_name="pytorch", opset_imports=[helper.make_opsetid("", 17)]), out)


if __name__ == "__main__":
    main()
