# Writes a Qwen2.5-shaped inventory (name type) of N decoder layers to standard output: the
# module names msModelSlim's Qwen2.5 practices name, for reading them whole. With a second
# argument E, every layer is Qwen3-MoE's: a router mlp.gate and E experts mlp.experts.<e>.
import sys

layers = int(sys.argv[1])
experts = int(sys.argv[2]) if len(sys.argv) > 2 else 0
for i in range(layers):
    for p in ("q_proj", "k_proj", "v_proj", "o_proj"):
        print("model.layers.%d.self_attn.%s Linear" % (i, p))
    if experts:
        print("model.layers.%d.mlp.gate Linear" % i)
    for e in range(experts) if experts else [None]:
        for p in ("gate_proj", "up_proj", "down_proj"):
            mlp = "mlp" if e is None else "mlp.experts.%d" % e
            print("model.layers.%d.%s.%s Linear" % (i, mlp, p))
    print("model.layers.%d.input_layernorm RMSNorm" % i)
print("model.embed_tokens Embedding")
print("lm_head Linear")
