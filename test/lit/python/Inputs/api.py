"""The qspec API beyond the examples: specs as text, inventories from Python objects, explain,
format, spec errors as diagnostics, misuse as exceptions. Prints what it sees; api.test checks it.

usage: api.py SCRATCH
"""
import os
import sys

import qspec

scratch = sys.argv[1]

SPEC = """qspec 1
model "toy" { blocks "layers.{i}" }
defaults { tier int8; weight int8 per_channel symmetric minmax; act int8 per_tensor asymmetric minmax; }
protect type LayerNorm
override name "head" { tier float }
target msmodelslim { apiversion modelslim_v1 }
target horizon { march nash-p }
"""


# A model the way torch.nn.Module lays one out: named_modules() gives the root ("") and every
# module below it by dotted name; the class names are the types.
class Node:
    def __init__(self, **children):
        self.children = children

    def named_modules(self, prefix=""):
        yield prefix, self
        for name, child in self.children.items():
            yield from child.named_modules(prefix + "." + name if prefix else name)


class Linear(Node):
    pass


class LayerNorm(Node):
    pass


class Block(Node):
    pass


class ModuleList(Node):
    pass


class Toy(Node):
    pass


model = Toy(layers=ModuleList(**{str(i): Block(proj=Linear(), norm=LayerNorm()) for i in range(2)}),
            head=Linear())
inv = qspec.Inventory.from_module(model)
print("inventory", len(inv), inv.modules)

c = qspec.compile(SPEC, inventory=inv)
print("ok", c.ok, "files", [(f.target, f.name) for f in c.files])
r = c.resolution
for name in ("layers.0.proj", "layers.1.norm", "head"):
    print("tier", name, r[name]["tier"])
print(qspec.explain(c, "head"), end="")
out = os.path.join(scratch, "out")
print("wrote", sorted(os.path.basename(p) for p in c.write(out)))
print("on disk", sorted(os.listdir(out)))

# Only the targets asked for, by kind or by qcc's --emit kind.
c = qspec.compile(SPEC, inventory=inv, targets=["horizon-py"])
print("targets", [f.target for f in c.files])
c = qspec.compile(SPEC, inventory=inv, targets=["amct"])
print("absent target", c.ok, [d.id for d in c.diagnostics])

# An error in the spec is a diagnostic, with its location; nothing is built.
bad = SPEC.replace("tier float", "tier int9")
c = qspec.compile(bad, inventory=inv)
for d in c.diagnostics:
    print("diag", d.severity, d.id, "%s:%d:%d" % (d.file, d.line, d.column), d.message,
          [n.id for n in d.notes])
print("bad ok", c.ok, "files", len(c.files), "resolution", c.resolution)
print(repr(c))

# An inventory file, every format qcc reads goes through the same reader.
inv2 = qspec.Inventory.load(os.path.join(os.path.dirname(__file__), "..", "..", "..", "Inputs",
                                         "tiny-llm.txt"))
print("loaded", inv2.format, len(inv2))

print("format", repr(qspec.format('qspec 1\nmodel "m"{\nblocks   "b.{i}"\n}\n')))


def misuse(what, call):
    try:
        call()
    except Exception as e:  # the type and the message are the point
        print("misuse", what, type(e).__name__, str(e).splitlines()[0])
    else:
        print("misuse", what, "no exception")


misuse("spec int", lambda: qspec.compile(42))
misuse("spec bytes", lambda: qspec.compile(b"qspec 1"))
misuse("spec missing", lambda: qspec.compile(os.path.join(scratch, "missing.qspec")))
misuse("inventory missing", lambda: qspec.compile(SPEC, inventory="missing.txt"))
misuse("inventory type", lambda: qspec.compile(SPEC, inventory=3.5))
misuse("target unknown", lambda: qspec.compile(SPEC, inventory=inv, targets=["tensorrt"]))
misuse("target type", lambda: qspec.compile(SPEC, inventory=inv, targets=[1]))
misuse("explain unknown", lambda: qspec.compile(SPEC, inventory=inv).explain("nope"))
misuse("explain type", lambda: qspec.explain("not a compilation", "head"))
misuse("from_module", lambda: qspec.Inventory.from_module(object()))
misuse("load missing", lambda: qspec.Inventory.load("missing.txt"))
misuse("format bad", lambda: qspec.format("qspec 1\nmodel {"))
misuse("write bad", lambda: qspec.compile(bad, inventory=inv).write(scratch))

# Per target, its expected reading: msModelSlim quantizes only Linear modules, so an Embedding
# reads float there (a vendor skip), while Horizon applies the general resolution.
inv3 = qspec.Inventory.from_modules([("layers.0.proj", "Linear"), ("layers.0.emb", "Embedding"),
                                     ("layers.0.norm", "LayerNorm"),
                                     ("head", "Linear")])
c = qspec.compile(SPEC, inventory=inv3)
rd = c.readings
print("readings", sorted(rd))
for target in ("msmodelslim", "horizon"):
    m = rd[target]["layers.0.emb"]
    print("reading", target, m["tier"], m["tier_from"]["rule"])
changed = {n for t in c.ir()["targets"] for e in t["expected"] for n in e["modules"]}
print("changed", sorted(changed), "same elsewhere",
      all(rd[t][n] == c.resolution[n] for t in rd for n in c.resolution if n not in changed))
print("readings after an error", qspec.compile(bad, inventory=inv).readings)

# Lint: findings as objects, in qlint's order.
lint_dir = os.path.join(scratch, "lint")
os.makedirs(lint_dir)
with open(os.path.join(lint_dir, "a.qspec"), "w") as f:
    f.write(SPEC.replace('protect type LayerNorm\n', 'protect type LayerNorm\nprotect type LayerNorm\n'))
for d in qspec.lint(lint_dir, inventory=None, select="ALL"):
    print("finding", type(d).__name__, d.rule, d.severity, os.path.basename(d.file), d.line,
          d.column, d.kind, len(d.fixes))
print("selected", [d.rule for d in qspec.lint(lint_dir, select=["spec-duplicate-protect"])])

# Import: the spec qcc import writes, and errors as diagnostics.
cfg = os.path.join(os.path.dirname(__file__), "..", "..", "qcc", "import", "Inputs", "ptq.cfg")
im = qspec.import_file(cfg)
print("import", im.ok, im.text.splitlines()[0], im.data == im.text.encode(), repr(im)[:14])
unknown = os.path.join(os.path.dirname(__file__), "..", "..", "qcc", "import", "Inputs", "unknown.txt")
im = qspec.import_file(unknown)
print("import bad", im.ok, im.data, [d.id for d in im.diagnostics])

bad_config = os.path.join(scratch, "badconfig")
os.makedirs(bad_config)
with open(os.path.join(bad_config, ".qlint.yaml"), "w") as f:
    f.write("select: [nonsense-rule]\n")
with open(os.path.join(bad_config, "a.qspec"), "w") as f:
    f.write(SPEC)

misuse("lint type", lambda: qspec.lint(42))
misuse("lint missing", lambda: qspec.lint(os.path.join(scratch, "missing")))
misuse("lint empty", lambda: qspec.lint([]))
misuse("lint select", lambda: qspec.lint(lint_dir, select="nonsense-rule"))
misuse("lint select type", lambda: qspec.lint(lint_dir, select=[3]))
misuse("lint jobs", lambda: qspec.lint(lint_dir, jobs=0))
misuse("lint framework", lambda: qspec.lint(lint_dir, amct_framework="keras"))
misuse("lint inventory", lambda: qspec.lint(lint_dir, inventory="missing.txt"))
misuse("lint config", lambda: qspec.lint(bad_config))
misuse("import missing", lambda: qspec.import_file("missing.cfg"))
misuse("import kind", lambda: qspec.import_file(cfg, kind="tensorrt"))
misuse("import roundtrip", lambda: qspec.import_file(cfg, roundtrip=True))
misuse("import write bad", lambda: qspec.import_file(unknown).write(os.path.join(scratch, "x")))
misuse("import write nowhere", lambda: qspec.import_file(cfg).write())
