#!/usr/bin/python3
# The round trip of `qcc import` (docs/import.md): for every real vendor file in the conformance
# corpus that the vendor accepts (qlint clean) and every emitter golden spec's output, import
# with --roundtrip and report per file whether the vendor reading of the re-emitted file equals
# the original's (and whether the bytes are identical). Prints one table row per file; exits 1
# when an accepted file's reading differs or the import fails in any way but a documented
# refusal (err_import_unsupported).
#
# usage: roundtrip.py QCC QLINT SRCROOT CONFORMANCE_DIR TMPDIR [STRIDE]
# With STRIDE (lit's %corpus_stride: 4 in the sanitizer tree), every STRIDE-th vendor file and
# golden only, and no floor check: the sanitizer pass looks for memory and undefined-behaviour
# errors on the same import code, and the normal tree checks every file and the floors.
import glob
import os
import re
import subprocess
import sys

qcc, qlint, src, conf, tmp = sys.argv[1:6]
STRIDE = int(sys.argv[6]) if len(sys.argv) > 6 else 1
os.makedirs(tmp, exist_ok=True)
INPUTS = os.path.join(src, "test", "lit", "qcc", "import", "Inputs")
LLM = os.path.join(INPUTS, "llm.txt")
LLM12 = os.path.join(src, "test", "lit", "emitters", "llm-compressor", "Inputs", "llm12.txt")


def write_inventory(rows, out):
    """Writes `rows` ("name type") to `out`, the first row of each name only."""
    seen, uniq = set(), []
    for r in rows:
        if r.split()[0] not in seen:
            seen.add(r.split()[0])
            uniq.append(r)
    with open(out, "w") as f:
        f.write("\n".join(uniq) + "\n")


def amct_inventory(path, out):
    """The layers a .cfg names (types from its layer_type entries), plus one layer per type."""
    text = open(path, encoding="utf-8", errors="replace").read()
    names = re.findall(r'(?:layer_name|skip_layers|quant_skip_layers|skip_fusion_layers)\s*:\s*["\']([^"\']*)["\']', text)
    # KV-cache quant_layers are Linear layers (AMCT's KV-cache quantizes Linear only).
    kv = re.findall(r'quant_layers\s*:\s*["\']([^"\']*)["\']', text)
    types = re.findall(r'(?:layer_type|skip_layer_types|quant_skip_types)\s*:\s*"([^"]*)"', text)
    rows = ["conv1 Conv2d", "layer1.0.conv1 Conv2d", "layer1.0.conv2 Conv2d", "fc Linear", "norm LayerNorm"]
    for n in sorted(set(kv)):
        rows.append(n + " Linear")
    for n in sorted(set(names)):
        rows.append(n + (" Linear" if re.search(r"fc|linear|dense|matmul|gemm", n, re.I) else " Conv2d"))
    for t in sorted(set(types)):
        rows.append("typed." + t + ".0 " + t)
    write_inventory(rows, out)


def hmct_inventory(path, out):
    """The nodes a quant_config names (op type from the name's last part, as ONNX exporters
    name nodes: /blocks.0/attn/MatMul_1 is a MatMul), plus one node per op_config type."""
    text = open(path, encoding="utf-8", errors="replace").read()
    names = re.findall(r'"(/[^"]*)"\s*:', text)
    types = []
    ops = re.search(r'"op_config"\s*:\s*\{(.*?)\}\s*\}', text, re.S)
    if ops:
        types = re.findall(r'"([A-Za-z]\w*)"\s*:\s*\{', ops.group(1))
    rows = ["/stem/Conv Conv", "/head/Gemm Gemm", "/blocks.0/attn/Softmax Softmax"]
    for n in sorted(set(names)):
        rows.append(n + " " + re.sub(r"_\d.*$", "", n.rsplit("/", 1)[-1]))
    for t in sorted(set(types)):
        rows.append("/typed/" + t + " " + t)
    write_inventory(rows, out)


def expand(name):
    """`a.{0..2}.{q,k}` -> every name it stands for (ranges and lists, not nested)."""
    m = re.search(r"\{([^{}]*)\}", name)
    if not m:
        return [name]
    body = m.group(1)
    r = re.fullmatch(r"(\d+)\.\.(\d+)", body)
    items = [str(i) for i in range(int(r.group(1)), int(r.group(2)) + 1)] if r else body.split(",")
    return [n for i in items for n in expand(name[:m.start()] + i + name[m.end():])]


def model_inventories():
    """Inputs/models.txt: practice file name -> its model's rows ("name type")."""
    models, rows = {}, None
    for line in open(os.path.join(INPUTS, "models.txt")):
        line = line.strip()
        if line.startswith("= "):
            rows = models.setdefault(line.split()[1], [])
        elif line and not line.startswith("#"):
            name, type_ = line.split()
            rows.extend(n + " " + type_ for n in expand(name))
    return models


MODELS = model_inventories()


def run(args):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    return p.returncode, p.stdout, p.stderr


def import_row(label, path, kind, inv, rows):
    """One row: `yes` (everything the vendor reads is equal), `no` (the import works but the
    row lists the settings not carried, each at file:line:col), `not imported` (a documented
    refusal) or `NO` (an error; allowed only for the files of KNOWN)."""
    rc, out, err = run([qcc, "import", path, "--kind", kind, "--inventory", inv, "--roundtrip"])
    if rc == 0 and "\treading " in out:
        bytes_ = "yes" if "bytes identical" in out else "no"
        m = re.search(r"\tnot carried: (.*)$", out.strip())
        if "\treading equal" in out:
            rows.append((label, kind, "yes", bytes_, "-"))
        else:
            where = (m.group(1) if m else "a module reads differently").replace(path, os.path.basename(path))
            rows.append((label, kind, "no", bytes_, where))
        if label in KNOWN:
            rows.append((label, kind, "listed as known difference but imports", "-", "update the list"))
            return False
        return True
    m = re.search(r"error: (.*?) \[(err_import_unsupported)\]", err)
    if m:
        rows.append((label, kind, "not imported", "-", m.group(1).replace(path, os.path.basename(path))))
        return True
    errors = [l for l in err.splitlines() if ": error: " in l] or err.strip().splitlines() or ["?"]
    first = re.sub(r"^\S*?(\d+:\d+: )?error: ", "", errors[0])
    rows.append((label, kind, "NO", "-", first))
    return label in KNOWN


# Files whose round trip is known to differ (docs/import.md says why); the test fails when one of
# them starts to round-trip, so the list stays current.
KNOWN = set(l.strip() for l in open(os.path.join(INPUTS, "roundtrip-known-differences.txt"))
            if l.strip() and not l.startswith("#"))
rows, ok = [], True
for path in sorted(glob.glob(os.path.join(conf, "amct", "*.cfg")) + glob.glob(os.path.join(conf, "msmodelslim", "*.yaml")) +
                   glob.glob(os.path.join(conf, "hmct", "*.json*")) +
                   glob.glob(os.path.join(conf, "compressed-tensors", "*.yaml")))[::STRIDE]:
    kind = ("amct" if path.endswith(".cfg") else "hmct" if "/hmct/" in path else
            "llm-compressor" if "/compressed-tensors/" in path else "msmodelslim")
    rc, out, err = run([qlint, path])
    if rc != 0:
        continue  # the vendor refuses it (or qlint finds a problem): not part of the round trip
    if kind in ("amct", "hmct"):
        inv = os.path.join(tmp, os.path.basename(path) + ".txt")
        (amct_inventory if kind == "amct" else hmct_inventory)(path, inv)
    elif os.path.basename(path) in MODELS:
        inv = os.path.join(tmp, os.path.basename(path) + ".txt")
        write_inventory(MODELS[os.path.basename(path)], inv)
    else:
        inv = LLM12 if kind == "llm-compressor" else LLM
    ok = import_row(os.path.basename(path), path, kind, inv, rows) and ok

# The emitters' golden specs: emit, then import the emitted file.
EMIT = {"amct": ("amct-cfg", "cfg", "net.txt"), "msmodelslim": ("msmodelslim-yaml", "yaml", None),
        "hmct": ("hmct-json", "json", "vit.txt"), "horizon": ("horizon-py", "py", "net.txt"),
        "llm-compressor": ("llm-compressor-yaml", "yaml", "llm12.txt")}
for spec in sorted(sum((glob.glob(os.path.join(src, "test", "lit", "emitters", k, "*.qspec")) for k in sorted(EMIT)), []))[::STRIDE]:
    kind = spec.split("/")[-2]
    emit, ext, default_inv = EMIT[kind]
    text = open(spec, encoding="utf-8").read()
    m = re.search(r"--inventory %S/(\S+)", text)
    inv = os.path.join(os.path.dirname(spec), m.group(1)) if m else (
        os.path.join(src, "test", "lit", "emitters", kind, "Inputs", default_inv) if default_inv else LLM)
    out = os.path.join(tmp, os.path.basename(spec) + "." + ext)
    args = [qcc, spec, "--emit=" + emit, "-o", out] + (["--inventory", inv] if m else [])
    rc, _, _ = run(args)
    if rc != 0:
        continue  # a golden spec that needs its own options (errors tests) has no file to import
    label = os.path.relpath(spec, src) + " (emitted)"
    if not m and kind == "amct":
        # Emitted without an inventory, so its layers are the spec's names: read it back on a
        # model that has them (AMCT refuses a layer the graph does not have).
        inv = os.path.join(tmp, os.path.basename(out) + ".txt")
        amct_inventory(out, inv)
    ok = import_row(label, out, kind, inv, rows) and ok

print("| file | kind | reading equal | byte-identical | not carried |")
print("|---|---|---|---|---|")
for r in rows:
    print("| " + " | ".join(x.replace("|", "\\|") for x in r) + " |")

# The rate per kind of the vendors' own files (not the goldens): files whose whole reading comes
# back equal, of all the files the vendor accepts. The test fails when a kind's count drops below
# the floor measured (roundtrip-floor.txt: "kind equal total").
print()
print("| kind | vendor files | reading equal | rate |")
print("|---|---|---|---|")
FLOOR = {}
for line in open(os.path.join(INPUTS, "roundtrip-floor.txt")):
    if line.strip() and not line.startswith("#"):
        k, eq, total = line.split()
        FLOOR[k] = (int(eq), int(total))
for k in sorted(set(r[1] for r in rows if "(emitted)" not in r[0])):
    mine = [r for r in rows if r[1] == k and "(emitted)" not in r[0]]
    eq = sum(1 for r in mine if r[2] == "yes")
    print("| %s | %d | %d | %.0f%% |" % (k, len(mine), eq, 100.0 * eq / len(mine)))
    floor = FLOOR.get(k, (0, 0))[0]
    if eq < floor and STRIDE == 1:
        print("rate dropped: %s %d files read equal, the floor is %d" % (k, eq, floor))
        ok = False
for r in rows:
    if "(emitted)" in r[0] and r[2] != "yes":
        print("golden does not read equal: " + r[0])
        ok = False
sys.exit(0 if ok else 1)
