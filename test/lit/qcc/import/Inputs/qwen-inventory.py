# Writes a Qwen2.5-shaped inventory (name type) of N decoder layers to standard output: the
# module names msModelSlim's Qwen2.5 practices name, for reading them whole.
import sys

layers = int(sys.argv[1])
for i in range(layers):
    for p in ("q_proj", "k_proj", "v_proj", "o_proj"):
        print("model.layers.%d.self_attn.%s Linear" % (i, p))
    for p in ("gate_proj", "up_proj", "down_proj"):
        print("model.layers.%d.mlp.%s Linear" % (i, p))
    print("model.layers.%d.input_layernorm RMSNorm" % i)
print("model.embed_tokens Embedding")
print("lm_head Linear")
