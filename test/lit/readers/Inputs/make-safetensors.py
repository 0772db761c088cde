# Writes a small .safetensors file: 8-byte little-endian header length, JSON header, some data.
import json
import struct
import sys

header = {
    "__metadata__": {"format": "pt"},
    "vision.patch_embed.proj.weight": {"dtype": "F16", "shape": [1024, 3, 14, 14], "data_offsets": [0, 1204224]},
    "vision.patch_embed.proj.bias": {"dtype": "F16", "shape": [1024], "data_offsets": [1204224, 1206272]},
    "audio.conv1.weight": {"dtype": "F16", "shape": [384, 80, 3], "data_offsets": [1206272, 1390592]},
    "model.embed_tokens.weight": {"dtype": "BF16", "shape": [151936, 1024], "data_offsets": [1390592, 312541184]},
    "model.layers.0.mlp.down_proj.weight": {"dtype": "BF16", "shape": [1024, 3072], "data_offsets": [312541184, 318832640]},
    "model.layers.0.post_attention_layernorm.weight": {"dtype": "BF16", "shape": [1024], "data_offsets": [318832640, 318834688]},
    "model.rotary_emb.inv_freq": {"dtype": "F32", "shape": [64], "data_offsets": [318834688, 318834944]},
}
text = json.dumps(header).encode()
text += b" " * (-len(text) % 8)  # the format pads the header with spaces to 8 bytes
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<Q", len(text)) + text + bytes(64))
