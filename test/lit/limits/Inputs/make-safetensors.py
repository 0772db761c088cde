# Writes hostile .safetensors files into DIR: make-safetensors.py DIR
import json
import struct
import sys

d = sys.argv[1]
good = json.dumps({"model.layers.0.mlp.up_proj.weight":
                   {"dtype": "F16", "shape": [2, 2], "data_offsets": [0, 8]}}).encode()


def write(name, data):
    with open(d + "/" + name, "wb") as f:
        f.write(data)


write("longer-than-file.safetensors", struct.pack("<Q", 4096) + good)
write("absurd.safetensors", struct.pack("<Q", 1 << 63) + good)
write("all-ones.safetensors", struct.pack("<Q", (1 << 64) - 1) + good)
write("zero.safetensors", struct.pack("<Q", 0) + good)
write("short.safetensors", b"\x05\x00\x00")
write("truncated-json.safetensors", struct.pack("<Q", len(good)) + good[: len(good) // 2])
write("over-limit.safetensors", struct.pack("<Q", 200 << 20) + good)
write("not-json.safetensors", struct.pack("<Q", 8) + b"\xff\xfe\x00\x01garb")
