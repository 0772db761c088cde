# Writes a spec and a manifest whose module names and strings are hostile: quotes, backslashes,
# control characters, a terminal escape sequence, invalid UTF-8, glob metacharacters, attempted
# injections into YAML / JSON / Python / protobuf text, and a 3000-byte name.
# make-hostile.py DIR  ->  DIR/spec.qspec, DIR/modules.txt, DIR/names.txt (one repr per line)
import sys

d = sys.argv[1]
base = open(sys.argv[2]).read().splitlines() if len(sys.argv) > 2 else []
hostile = [
    b'model.layers.0.mlp.q"uote',
    b"model.layers.0.mlp.s'ingle",
    b"model.layers.0.mlp.back\\slash",
    b'model.layers.0.mlp.json","INJECTED":"x',
    b"model.layers.0.mlp.yaml',INJECTED:'x",
    b'model.layers.0.mlp.py");INJECTED("x',
    b"model.layers.0.mlp.py2'];INJECTED(['x",
    b'model.layers.0.mlp.pb"}INJECTED{"x',
    b"model.layers.0.mlp.hash#comment",
    b"model.layers.0.mlp.glob*?[x]{a,b}",
    b"model.layers.0.mlp.pct%s%n%25",
    b"model.layers.0.mlp.long" + b"x" * 3000,
]
# Names an inventory must refuse (control bytes, invalid UTF-8): a clean error, shown escaped.
refused = [
    b"model.layers.0.mlp.esc\x1b[31mred\x1b[0m",
    b"model.layers.0.mlp.bell\x07\x08\x7f",
    b"model.layers.0.mlp.bad\xff\xfeutf8",
    b"model.layers.0.mlp.c1\xc2\x9bcsi",
]
for i, n in enumerate(refused):
    with open(d + "/refused-%d.txt" % i, "wb") as f:
        f.write(b"model.layers.0.mlp.up_proj Linear\n" + n + b" Linear\n")
with open(d + "/modules.txt", "wb") as f:
    f.write(b"# hostile module names\n")
    for line in base:
        if line and not line.startswith("#"):
            f.write(line.encode() + b"\n")
    for n in hostile:
        f.write(n + b" Linear\n")


def qstr(b):
    out = '"'
    for c in b:
        if c == 0x22:
            out += '\\"'
        elif c == 0x5C:
            out += "\\\\\\\\"  # a glob escape of the backslash, each backslash .qspec-escaped
        elif c < 0x20 or c >= 0x7F:
            out += "\\x%02x" % c
        elif chr(c) in "*?[]{}":
            out += "\\\\" + chr(c)  # a glob escape, then the .qspec escape of the backslash
        else:
            out += chr(c)
    return out + '"'


names = ", ".join(qstr(n) for n in hostile)
spec = """qspec 1
model %s { inventory "modules.txt"; blocks "model.layers.{i}" }
tiers int8 < int16 < float
defaults { tier int8; weight int8 per_channel symmetric minmax; act int8 per_tensor asymmetric minmax }
protect "lm_head", type Embedding, type RMSNorm
override name %s { tier float }
target amct ptq { batch_num 2; act_algo ifmr }
target horizon { march nash-p }
""" % (qstr(b'hostile "model" \\ \x1b[2J\xff\n'), names)
open(d + "/spec.qspec", "w").write(spec)
# No hmct target: HMCT matches ONNX node names, which a module inventory does not give
# (err_target_needs_onnx_graph); emitters/hmct/hostile-names.test covers hostile node names.
# msModelSlim refuses names outside its character whitelist (a clean error, tested below), so
# its target gets a spec of its own.
open(d + "/spec-msmodelslim.qspec", "w").write(spec.replace(
    "target amct ptq { batch_num 2; act_algo ifmr }", "target msmodelslim { apiversion modelslim_v1; save ascendv1_saver }"))
with open(d + "/names.txt", "w") as f:
    for n in hostile:
        f.write(repr(n) + "\n")
