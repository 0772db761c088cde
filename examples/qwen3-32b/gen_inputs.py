#!/usr/bin/python3
"""Writes the inputs of the Qwen3-32B example (no downloads, deterministic).

  model.safetensors.index.json  Hugging Face index with Qwen3-32B's tensor names, the real
                                shapes' byte total in metadata.total_size and 17 shards
  analysis_result.yaml          per-block sensitivity in the msModelSlim analysis_result form
                                (mse_layer_wise), made up but shaped like a real run: the first
                                and last blocks are the most sensitive
  model.onnx                    the graph torch.onnx.export (TorchScript) writes for it, without
                                weights: scoped names (/model/layers.0/mlp/down_proj/MatMul),
                                Linear weights folded into transposed "onnx::MatMul_N" inputs, norms
                                and the embedding consuming their own weights (HMCT's name space)

usage: gen_inputs.py [OUT_DIR]   (default: the directory of this script)
"""
import json
import math
import os
import sys

LAYERS = 64
HIDDEN = 5120
INTERMEDIATE = 25600
HEADS, KV_HEADS, HEAD_DIM = 64, 8, 128
VOCAB = 151936
SHARDS = 17
BYTES = 2  # bfloat16


def tensors():
    """(name, shape) in model order."""
    yield "model.embed_tokens.weight", (VOCAB, HIDDEN)
    for i in range(LAYERS):
        p = "model.layers.%d." % i
        yield p + "input_layernorm.weight", (HIDDEN,)
        yield p + "self_attn.q_proj.weight", (HEADS * HEAD_DIM, HIDDEN)
        yield p + "self_attn.k_proj.weight", (KV_HEADS * HEAD_DIM, HIDDEN)
        yield p + "self_attn.v_proj.weight", (KV_HEADS * HEAD_DIM, HIDDEN)
        yield p + "self_attn.o_proj.weight", (HIDDEN, HEADS * HEAD_DIM)
        yield p + "self_attn.q_norm.weight", (HEAD_DIM,)
        yield p + "self_attn.k_norm.weight", (HEAD_DIM,)
        yield p + "post_attention_layernorm.weight", (HIDDEN,)
        yield p + "mlp.gate_proj.weight", (INTERMEDIATE, HIDDEN)
        yield p + "mlp.up_proj.weight", (INTERMEDIATE, HIDDEN)
        yield p + "mlp.down_proj.weight", (HIDDEN, INTERMEDIATE)
    yield "model.norm.weight", (HIDDEN,)
    yield "lm_head.weight", (VOCAB, HIDDEN)


def index():
    items = [(n, math.prod(s) * BYTES) for n, s in tensors()]
    total = sum(b for _, b in items)
    per_shard = total / SHARDS
    weight_map, acc = {}, 0
    for name, size in items:
        shard = min(SHARDS, int(acc // per_shard) + 1)
        weight_map[name] = "model-%05d-of-%05d.safetensors" % (shard, SHARDS)
        acc += size
    # transformers writes the index with sorted keys and an indent of 2.
    doc = {"metadata": {"total_size": total}, "weight_map": weight_map}
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"


def scores():
    rows = []
    for i in range(LAYERS):
        head = 2400.0 * math.exp(-i / 2.5)
        tail = 850.0 * math.exp(-(LAYERS - 1 - i) / 1.5)
        wobble = ((i * 7919) % 97) / 97.0 * 6.0
        rows.append(("model.layers.%d" % i, float("%.4e" % (head + tail + 12.0 + wobble))))
    rows.sort(key=lambda r: (-r[1], int(r[0].rsplit(".", 1)[1])))
    out = ["# msmodelslim analyze layer --model_type Qwen3-32B (mse_layer_wise); made-up values",
           "layer_scores:"]
    for name, score in rows:
        out.append("  - name: %s\n    score: %s" % (name, repr(score)))
    out.append("method: mse_layer_wise")
    out.append("patterns:\n  - '*'")
    return "\n".join(out) + "\n"


def onnx_graph():
    """The exported graph's node names, op types and weight inputs (no data: weights are inputs)."""
    import onnx
    from onnx import TensorProto, helper

    nodes, weights = [], []

    def node(op, name, *inputs):
        nodes.append(helper.make_node(op, list(inputs), [name + "_output_0"], name=name))
        return name + "_output_0"

    def weight(name):
        weights.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, None))
        return name

    def norm(scope, tensor, x):
        r = node("ReduceMean", scope + "/ReduceMean", node("Pow", scope + "/Pow", x))
        return node("Mul", scope + "/Mul_1", weight(tensor), node("Mul", scope + "/Mul", x, r))

    def linear(scope, x):
        return node("MatMul", scope + "/MatMul", x, weight("onnx::MatMul_%d" % (len(weights) + 1000)))

    x = node("Gather", "/model/embed_tokens/Gather", weight("model.embed_tokens.weight"), "input_ids")
    for i in range(LAYERS):
        s, t = "/model/layers.%d" % i, "model.layers.%d." % i
        h = norm(s + "/input_layernorm", t + "input_layernorm.weight", x)
        q = norm(s + "/self_attn/q_norm", t + "self_attn.q_norm.weight", linear(s + "/self_attn/q_proj", h))
        k = norm(s + "/self_attn/k_norm", t + "self_attn.k_norm.weight", linear(s + "/self_attn/k_proj", h))
        v = linear(s + "/self_attn/v_proj", h)
        a = node("Softmax", s + "/self_attn/Softmax", node("MatMul", s + "/self_attn/MatMul", q, k))
        a = linear(s + "/self_attn/o_proj", node("MatMul", s + "/self_attn/MatMul_1", a, v))
        x = node("Add", s + "/Add", x, a)
        h = norm(s + "/post_attention_layernorm", t + "post_attention_layernorm.weight", x)
        g = node("Mul", s + "/mlp/Mul", linear(s + "/mlp/gate_proj", h), linear(s + "/mlp/up_proj", h))
        x = node("Add", s + "/Add_1", x, linear(s + "/mlp/down_proj", g))
    x = linear("/lm_head", norm("/model/norm", "model.norm.weight", x))
    graph = helper.make_graph(nodes, "qwen3", [helper.make_tensor_value_info("input_ids", TensorProto.INT64, [1, None])]
                              + weights, [helper.make_tensor_value_info(x, TensorProto.FLOAT, None)])
    model = helper.make_model(graph, producer_name="pytorch", opset_imports=[helper.make_opsetid("", 17)])
    return model.SerializeToString()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "model.safetensors.index.json"), "w", newline="\n") as f:
        f.write(index())
    with open(os.path.join(out, "analysis_result.yaml"), "w", newline="\n") as f:
        f.write(scores())
    with open(os.path.join(out, "model.onnx"), "wb") as f:
        f.write(onnx_graph())


if __name__ == "__main__":
    main()
