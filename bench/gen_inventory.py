#!/usr/bin/python3
"""Writes benchmark inventories with realistic Hugging Face module names.

    gen_inventory.py MODEL OUTDIR [--modules N]

MODEL is one of qwen3-32b, qwen3-235b-a22b, deepseek-v3, stress. Writes OUTDIR/MODEL.manifest
(`NAME TYPE` lines) and OUTDIR/MODEL/model.safetensors.index.json (the weight map a Hugging Face
checkpoint ships; tensor names are module names plus `.weight`). `--modules N` cuts or sizes the
inventory to N modules (the stress inventory is 1,000,000 modules unless told otherwise; the
scaling series uses halves and doubles of it). Output is deterministic.
"""
import argparse
import json
import os
import sys


def qwen3_dense(layers=64):
    """Qwen3-32B: 64 decoder layers, dense MLP, q/k norms."""
    yield "model.embed_tokens", "Embedding"
    for n in range(layers):
        p = f"model.layers.{n}"
        yield f"{p}.input_layernorm", "RMSNorm"
        for proj in ("q_proj", "k_proj", "v_proj", "o_proj"):
            yield f"{p}.self_attn.{proj}", "Linear"
        yield f"{p}.self_attn.q_norm", "RMSNorm"
        yield f"{p}.self_attn.k_norm", "RMSNorm"
        yield f"{p}.post_attention_layernorm", "RMSNorm"
        for proj in ("gate_proj", "up_proj", "down_proj"):
            yield f"{p}.mlp.{proj}", "Linear"
    yield "model.norm", "RMSNorm"
    yield "lm_head", "Linear"


def qwen3_moe(layers=94, experts=128):
    """Qwen3-235B-A22B: 94 layers, 128 routed experts each, a Linear router `mlp.gate`."""
    yield "model.embed_tokens", "Embedding"
    for n in range(layers):
        p = f"model.layers.{n}"
        yield f"{p}.input_layernorm", "RMSNorm"
        for proj in ("q_proj", "k_proj", "v_proj", "o_proj"):
            yield f"{p}.self_attn.{proj}", "Linear"
        yield f"{p}.self_attn.q_norm", "RMSNorm"
        yield f"{p}.self_attn.k_norm", "RMSNorm"
        yield f"{p}.post_attention_layernorm", "RMSNorm"
        yield f"{p}.mlp.gate", "Linear"
        for e in range(experts):
            for proj in ("gate_proj", "up_proj", "down_proj"):
                yield f"{p}.mlp.experts.{e}.{proj}", "Linear"
    yield "model.norm", "RMSNorm"
    yield "lm_head", "Linear"


def deepseek_v3(layers=61, dense=3, experts=256):
    """DeepSeek-V3: MLA attention, 3 dense layers, then MoE layers with a router `mlp.gate`,
    one shared expert and 256 routed experts."""
    yield "model.embed_tokens", "Embedding"
    for n in range(layers):
        p = f"model.layers.{n}"
        yield f"{p}.input_layernorm", "RMSNorm"
        yield f"{p}.self_attn.q_a_proj", "Linear"
        yield f"{p}.self_attn.q_a_layernorm", "RMSNorm"
        yield f"{p}.self_attn.q_b_proj", "Linear"
        yield f"{p}.self_attn.kv_a_proj_with_mqa", "Linear"
        yield f"{p}.self_attn.kv_a_layernorm", "RMSNorm"
        yield f"{p}.self_attn.kv_b_proj", "Linear"
        yield f"{p}.self_attn.o_proj", "Linear"
        yield f"{p}.post_attention_layernorm", "RMSNorm"
        if n < dense:
            for proj in ("gate_proj", "up_proj", "down_proj"):
                yield f"{p}.mlp.{proj}", "Linear"
            continue
        yield f"{p}.mlp.gate", "MoEGate"
        for proj in ("gate_proj", "up_proj", "down_proj"):
            yield f"{p}.mlp.shared_experts.{proj}", "Linear"
        for e in range(experts):
            for proj in ("gate_proj", "up_proj", "down_proj"):
                yield f"{p}.mlp.experts.{e}.{proj}", "Linear"
    yield "model.norm", "RMSNorm"
    yield "lm_head", "Linear"


STRESS_EXPERTS = 1024
# Modules per stress layer: two norms, four attention projections, the router, 3 per expert.
STRESS_LAYER = 2 + 4 + 1 + 3 * STRESS_EXPERTS


def stress(modules):
    """A synthetic inventory of exactly `modules` Linear-heavy modules: an embedding, layers of
    1,024 experts (the last one cut short to make the count), a final norm and `lm_head`."""
    body = max(0, modules - 3)
    if modules >= 1:
        yield "model.embed_tokens", "Embedding"
    count = 0
    n = 0
    while count < body:
        p = f"model.layers.{n}"
        names = [(f"{p}.input_layernorm", "RMSNorm")]
        names += [(f"{p}.self_attn.{x}", "Linear") for x in ("q_proj", "k_proj", "v_proj", "o_proj")]
        names.append((f"{p}.post_attention_layernorm", "RMSNorm"))
        names.append((f"{p}.mlp.gate", "Linear"))
        for e in range(STRESS_EXPERTS):
            for proj in ("gate_proj", "up_proj", "down_proj"):
                names.append((f"{p}.mlp.experts.{e}.{proj}", "Linear"))
        for item in names:
            if count == body:
                break
            yield item
            count += 1
        n += 1
    if modules >= 2:
        yield "model.norm", "RMSNorm"
    if modules >= 3:
        yield "lm_head", "Linear"


def modules_of(model, limit):
    if model == "qwen3-32b":
        gen = qwen3_dense()
    elif model == "qwen3-235b-a22b":
        gen = qwen3_moe()
    elif model == "deepseek-v3":
        gen = deepseek_v3()
    elif model == "stress":
        return list(stress(limit or 1_000_000))
    else:
        sys.exit(f"gen_inventory.py: unknown model '{model}'")
    mods = list(gen)
    return mods[:limit] if limit else mods


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("outdir")
    ap.add_argument("--modules", type=int, default=0, help="number of modules (0 = the model's)")
    ap.add_argument("--name", default="", help="output base name (default: MODEL)")
    args = ap.parse_args()
    mods = modules_of(args.model, args.modules)
    base = args.name or args.model
    os.makedirs(os.path.join(args.outdir, base), exist_ok=True)
    with open(os.path.join(args.outdir, base + ".manifest"), "w") as f:
        f.write(f"# {base}: {len(mods)} modules, generated by bench/gen_inventory.py\n")
        for name, typ in mods:
            f.write(f"{name} {typ}\n")
    # The index maps tensors to shard files; 5 GB-ish shards of about 300 tensors.
    shards = max(1, (len(mods) + 299) // 300)
    weight_map = {}
    for i, (name, _typ) in enumerate(mods):
        shard = i // 300 + 1
        weight_map[name + ".weight"] = f"model-{shard:05d}-of-{shards:05d}.safetensors"
    index = {"metadata": {"total_size": len(mods) * 1 << 20}, "weight_map": weight_map}
    with open(os.path.join(args.outdir, base, "model.safetensors.index.json"), "w") as f:
        json.dump(index, f, indent=2)
        f.write("\n")
    print(f"{base}: {len(mods)} modules")


if __name__ == "__main__":
    main()
