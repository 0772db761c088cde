#!/usr/bin/python3
"""Scaling benchmarks: each case at an input size and its double, with the floor.

    scaling.py BUILD_DIR [--runs 3] [--only CASE,...] [--qcc PATH] [--data DIR] [--big] [--sizes N,...]

Every case runs `qcc` (BUILD_DIR/bin/qcc, or --qcc: an older binary for before/after numbers)
RUNS times per size and prints the medians of wall time, CPU time and peak RSS, and the growth
exponent log2(t(2n) / t(n)) of the CPU time (1.0 = linear; the goal is <= 1.15). Inputs are
generated into BUILD_DIR/bench-data (bench/gen_inventory.py) and BUILD_DIR/bench-data/scaling.
Cases (--only):

  hmct-glob     `protect "*.down_proj"` on the stress inventory, --emit=hmct-json (1/3 of the
                modules become node_config entries)
  hmct-names    10k / 20k literal `protect` names on DeepSeek-V3, --emit=hmct-json
                (HMCT keys are ONNX node names: these two read the generated manifest with every
                entry typed MatMul, an ONNX-node manifest with the same names)
  hmct-onnx     an ONNX-style manifest of 50k / 100k nodes (`/blocks.N/op_M/MatMul`) with
                `override name "*" { tier int16 }`: every node a node_config entry, read back
  onnx-file     a real .onnx graph of 100k / 200k nodes (blocks of MatMul, Add, Softmax under
                exporter scopes), `protect type Softmax` and `override name "/blocks.1*" { tier
                int16 }`, --emit=hmct-json: as the ONNX inventory, and as the exported graph
                beside a module manifest (two graphs, one Linear module per MatMul)
  emit-ir       --emit=ir of the stress inventory (always up to 1M modules: the issue's goal is
                stated there); floor: copying the output file (writing its bytes), and the
                file's size beside the peak RSS
  scores        --scores analysis_result.yaml (45k, 90k, 1M entries) minus the same compile
                without it; floor: PyYAML's C loader (yaml.CSafeLoader) in-process
  braces        10 long brace alternations (40 layers x 100 experts x 3 projections listed) on
                the stress inventory, --emit=all; floor: the same compile without them
  parser        specs of 10k / 20k name overrides, no inventory, --emit=ir
                (--time-report's parse phase)
  stars         100 many-star patterns (`*a*b*c*`) on DeepSeek-V3, --emit=all and one practice
                YAML; floor: the Python reference (bench/reference_qcc.py: brace expansion, fnmatch,
                PyYAML), --ref-runs runs alternating with its runs of the typical spec
                (bench/specs/deepseek-v3.qspec, one practice YAML), whose ratio is the one to meet

By default the stress sizes are 250k and 500k modules; --big adds 1M. Nothing here is a test.
"""
import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run_bench import timed  # noqa: E402

HEADER = """qspec 1
defaults { tier int8 }
tiers int8 < float
"""
# The backends that match module names: an hmct target needs the model's ONNX graph, which the
# generated inventories are not (the hmct-* and onnx-file cases measure HMCT).
TARGETS = """target msmodelslim {}
target amct ptq {}
target horizon { march nash-p }
"""


def median_run(cmd, runs):
    walls, cpus, rss = [], [], []
    for _ in range(runs):
        w, c, r, rc, err = timed(cmd)
        if rc != 0:
            sys.exit(f"failed (exit {rc}): {' '.join(cmd)}\n{err[:400]}")
        walls.append(w)
        cpus.append(c)
        rss.append(r)
    return statistics.median(walls), statistics.median(cpus), statistics.median(rss)


def inventory(data, modules):
    name = f"stress-{modules // 1000}k" if modules < 1_000_000 else f"stress-{modules // 1_000_000}m"
    manifest = os.path.join(data, name + ".manifest")
    if not os.path.exists(manifest):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_inventory.py"), "stress", data, "--name", name,
                        "--modules", str(modules)], check=True, stdout=subprocess.DEVNULL)
    return manifest


def deepseek(data):
    manifest = os.path.join(data, "deepseek-v3.manifest")
    if not os.path.exists(manifest):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_inventory.py"), "deepseek-v3", data, "--name",
                        "deepseek-v3"], check=True, stdout=subprocess.DEVNULL)
    return manifest


def as_onnx_nodes(manifest):
    """The manifest with every entry typed MatMul: an inventory of ONNX nodes (docs/inputs.md,
    "Which names each backend matches") with the same names, for the HMCT cases."""
    path = manifest[:-len(".manifest")] + ".onnx-nodes.manifest"
    if not os.path.exists(path):
        with open(manifest) as src, open(path, "w") as f:
            for l in src:
                if l.strip() and not l.startswith("#"):
                    f.write(l.split()[0] + " MatMul\n")
    return path


def names_of(manifest):
    return [l.split()[0] for l in open(manifest) if l.strip() and not l.startswith("#")]


def write(path, text):
    """Writes text to path unless the file already holds it (a spec left by an older version is
    rewritten)."""
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as f:
            f.write(text)
    return path


def row(case, size, wall, cpu, rss, note=""):
    print(f"| {case} | {size} | {wall:.3f} | {cpu:.3f} | {rss:.0f} | {note} |")
    sys.stdout.flush()


def exponent(a, b):
    return math.log2(b / a) if a > 0 and b > 0 else float("nan")


def series(case, sizes, make_cmd, runs, floor=None):
    """Runs make_cmd(size) for each size; prints rows and the exponent between consecutive sizes."""
    prev = None
    for size in sizes:
        cmd = make_cmd(size)
        wall, cpu, rss = median_run(cmd, runs)
        note = ""
        if floor:
            note = floor(size, wall, cpu, rss)
        if prev:
            note = (note + "; " if note else "") + f"exponent {exponent(prev, cpu):.2f}"
        row(case, size, wall, cpu, rss, note)
        prev = cpu


def case_hmct_glob(a, sizes):
    spec = write(os.path.join(a.scratch, "hmct-glob.qspec"),
                 HEADER + 'protect "*.down_proj"\ntarget hmct { march nash-p }\n')
    out = os.path.join(a.scratch, "hmct-glob.json")
    series("hmct-glob", sizes, lambda n: [a.qcc, spec, "--inventory", as_onnx_nodes(inventory(a.data, n)),
                                          "--emit=hmct-json", "-o", out], a.runs)


def case_hmct_names(a, _sizes):
    manifest = as_onnx_nodes(deepseek(a.data))
    names = [n for n in names_of(manifest) if ".experts." in n]
    for k in (10_000, 20_000):
        spec = write(os.path.join(a.scratch, f"hmct-names-{k}.qspec"),
                     HEADER + "".join(f'protect "{n}"\n' for n in names[:k]) + "target hmct { march nash-p }\n")
    out = os.path.join(a.scratch, "hmct-names.json")
    series("hmct-names", [10_000, 20_000],
           lambda k: [a.qcc, os.path.join(a.scratch, f"hmct-names-{k}.qspec"), "--inventory", manifest,
                      "--emit=hmct-json", "-o", out], a.runs)


def case_hmct_onnx(a, _sizes):
    spec = write(os.path.join(a.scratch, "hmct-onnx.qspec"),
                 HEADER.replace("tiers int8 < float", "tiers int8 < int16 < float") +
                 'override name "*" { tier int16 }\ntarget hmct { march nash-p }\n')
    out = os.path.join(a.scratch, "hmct-onnx.json")

    def manifest(n):
        return write(os.path.join(a.scratch, f"onnx-{n // 1000}k.manifest"),
                     "".join(f"/blocks.{i // 100}/op_{i % 100}/MatMul MatMul\n" for i in range(n)))
    series("hmct-onnx", [50_000, 100_000], lambda n: [a.qcc, spec, "--inventory", manifest(n), "--emit=hmct-json",
                                                     "-o", out], a.runs)


def onnx_graph(a, n):
    """An exported-looking graph of n nodes (4 per unit: MatMul, Add, Softmax, Mul) and the module
    manifest of its MatMuls (two graphs: the weight input names the module)."""
    path = os.path.join(a.scratch, f"graph-{n // 1000}k.onnx")
    modules = os.path.join(a.scratch, f"graph-{n // 1000}k.modules.txt")
    if os.path.exists(path):
        return path, modules
    from onnx import TensorProto, helper
    nodes, inputs, names = [], [helper.make_tensor_value_info("x", TensorProto.FLOAT, None)], []
    x = "x"
    for u in range(n // 4):
        scope, module = f"/blocks.{u // 10}/unit_{u % 10}", f"blocks.{u // 10}.unit_{u % 10}"
        w = module + ".weight"
        inputs.append(helper.make_tensor_value_info(w, TensorProto.FLOAT, None))
        names.append(module)
        for op, ins in (("MatMul", [x, w]), ("Add", None), ("Softmax", None), ("Mul", None)):
            out = f"{scope}/{op}_output_0"
            nodes.append(helper.make_node(op, ins or ([x, x] if op != "Softmax" else [x]), [out],
                                          name=f"{scope}/{op}"))
            x = out
    graph = helper.make_graph(nodes, "scale", inputs, [helper.make_tensor_value_info(x, TensorProto.FLOAT, None)])
    model = helper.make_model(graph, producer_name="pytorch", opset_imports=[helper.make_opsetid("", 17)])
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    with open(modules, "w") as f:
        f.write("".join(f"{m} Linear\n" for m in names))
    return path, modules


def case_onnx_file(a, _sizes):
    rules = 'protect type Softmax\noverride name "/blocks.1*" { tier int16 }\ntarget hmct { march nash-p }\n'
    one = write(os.path.join(a.scratch, "onnx-file.qspec"),
                HEADER.replace("tiers int8 < float", "tiers int8 < int16 < float") + rules)
    out = os.path.join(a.scratch, "onnx-file.json")
    series("onnx-file", [100_000, 200_000], lambda n: [a.qcc, one, "--inventory", onnx_graph(a, n)[0],
                                                       "--emit=hmct-json", "-o", out], a.runs)
    for n in (100_000, 200_000):
        graph, modules = onnx_graph(a, n)
        write(os.path.join(a.scratch, f"onnx-two-{n // 1000}k.qspec"),
              f'qspec 1\nmodel "m" {{\n  inventory "{modules}"\n  onnx "{graph}"\n}}\n' +
              HEADER.replace("qspec 1\n", "").replace("tiers int8 < float", "tiers int8 < int16 < float") +
              'protect "blocks.0.*"\noverride name "blocks.1*" { tier int16 }\ntarget hmct { march nash-p }\n')
    series("onnx-two-graphs", [100_000, 200_000],
           lambda n: [a.qcc, os.path.join(a.scratch, f"onnx-two-{n // 1000}k.qspec"), "--emit=hmct-json", "-o",
                      out], a.runs)


def case_emit_ir(a, sizes):
    spec = write(os.path.join(a.scratch, "ir.qspec"), HEADER + 'protect "*.down_proj"\n' + TARGETS)
    out = os.path.join(a.scratch, "ir.json")

    def floor(n, wall, cpu, rss):
        size_mb = os.path.getsize(out) / 2 ** 20
        cw, cc, _ = median_run(["cp", out, out + ".copy"], a.runs)
        # qcc writes a temporary file, flushes it and renames it: the durable write of the same bytes.
        dw, _, _ = median_run(["dd", "if=" + out, "of=" + out + ".copy", "bs=1M", "conv=fsync", "status=none"],
                              a.runs)
        os.unlink(out + ".copy")
        return (f"file {size_mb:.0f} MB (RSS {rss / size_mb:.2f}x); cp {cw:.3f} s wall / {cc:.3f} s CPU "
                f"(qcc {wall / cw:.1f}x wall, {cpu / max(cc, 1e-3):.1f}x CPU); dd conv=fsync {dw:.3f} s wall "
                f"(qcc {wall / dw:.1f}x wall)")
    sizes = sorted(set(sizes) | {500_000, 1_000_000}) if not a.sizes else sizes
    series("emit-ir", sizes, lambda n: [a.qcc, spec, "--inventory", inventory(a.data, n), "--emit=ir", "-o", out],
           a.runs, floor)


def scores_file(a, names, k):
    path = os.path.join(a.scratch, f"analysis_result-{k}.yaml")
    if not os.path.exists(path):
        rng = random.Random(k)
        with open(path, "w") as f:
            f.write("method: std\nlayer_scores:\n")
            for n in names[:k]:
                f.write(f"- name: {n}\n  score: {rng.random() * 10:.6e}\n")
    return path


def case_scores(a, _sizes):
    import yaml
    big = inventory(a.data, 1_000_000)
    names = names_of(big)
    spec = write(os.path.join(a.scratch, "scores.qspec"), HEADER + "target horizon { march nash-p }\n")
    out = os.path.join(a.scratch, "scores.ir.json")
    small = write(os.path.join(a.scratch, "tiny.manifest"), "lm_head Linear\n")
    base = median_run([a.qcc, spec, "--inventory", small, "--emit=ir", "-o", out], a.runs)
    prev = None
    for k in (45_000, 90_000, 1_000_000):
        path = scores_file(a, names, k)
        wall, cpu, rss = median_run([a.qcc, spec, "--inventory", small, "--scores", path, "--emit=ir", "-o", out],
                                    a.runs)
        loads = []
        for _ in range(a.runs if k < 1_000_000 else int(a.big)):  # PyYAML on 1M: minutes
            start = time.process_time()
            with open(path) as f:
                yaml.load(f, Loader=yaml.CSafeLoader)
            loads.append(time.process_time() - start)
        py = statistics.median(loads) if loads else float("nan")
        note = (f"reading {cpu - base[1]:.3f} s CPU (qcc without scores {base[1]:.3f} s CPU); PyYAML "
                f"CSafeLoader {py:.3f} s CPU ({py / max(cpu - base[1], 1e-3):.1f}x qcc)")
        if prev:
            note += f"; exponent {exponent(prev, cpu - base[1]):.2f}"
        row("scores", k, wall, cpu, rss, note)
        prev = cpu - base[1] if k == 45_000 else None


def brace_specs(a, n):
    layers = max(1, (n - 3) // 3078)  # bench/gen_inventory.py stress: 3,078 modules per layer
    rng = random.Random(19)
    pats = []
    for _ in range(10):
        ls = sorted(rng.sample(range(layers), min(40, layers)))
        es = sorted(rng.sample(range(1024), 100))
        pats.append("model.layers.{%s}.mlp.experts.{%s}.{gate,up,down}_proj" % (",".join(map(str, ls)),
                                                                              ",".join(map(str, es))))
    body = "".join(f'override name "{p}" priority {i + 1} {{ tier float }}\n' for i, p in enumerate(pats))
    with_braces = write(os.path.join(a.scratch, f"braces-{n}.qspec"), HEADER + body + TARGETS)
    without = write(os.path.join(a.scratch, "braces-none.qspec"), HEADER + TARGETS)
    return with_braces, without


def case_braces(a, sizes):
    out = os.path.join(a.scratch, "braces-out")

    def floor(n, wall, cpu, rss):
        _, without = brace_specs(a, n)
        w, c, r = median_run([a.qcc, without, "--inventory", inventory(a.data, n), "--emit=all", "-o", out], a.runs)
        return f"without the 10 patterns {w:.3f} s wall / {c:.3f} s CPU ({wall / w:.2f}x)"
    series("braces", sizes, lambda n: [a.qcc, brace_specs(a, n)[0], "--inventory", inventory(a.data, n),
                                       "--emit=all", "-o", out], a.runs, floor)


def case_parser(a, _sizes):
    prev = None
    for k in (10_000, 20_000):
        path = os.path.join(a.scratch, f"parser-{k}.qspec")
        if not os.path.exists(path):
            subprocess.run([sys.executable, os.path.join(HERE, "gen_specs.py"), "stress", str(k), path], check=True,
                           stdout=subprocess.DEVNULL)
        cmd = [a.qcc, path, "--emit=ir", "-o", os.path.join(a.scratch, "parser.json"), "--time-report"]
        wall, cpu, rss = median_run(cmd, a.runs)
        parses = []
        for _ in range(a.runs):
            err = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True).stderr
            for line in err.splitlines():
                if line.strip().startswith("parse"):
                    parses.append(float(line.split()[-2] if line.split()[-1] == "ms" else line.split()[-1]))
                    break
        size = os.path.getsize(path)
        parse = statistics.median(parses) / 1000 if parses else float("nan")
        note = f"{size / 1024:.0f} KB; parse {parse * 1000:.0f} ms = {size / 2 ** 20 / parse:.1f} MB/s"
        if prev:
            note += f"; exponent {exponent(prev, parse):.2f}"
        row("parser", k, wall, cpu, rss, note)
        prev = parse


def case_stars(a, _sizes):
    """100 many-star patterns (`*a*b*c*`) over DeepSeek-V3 against the Python reference
    (bench/reference_qcc.py: brace expansion, fnmatch.fnmatchcase, PyYAML), and the typical ratio
    beside it. The reference's runs alternate between the two specs, so that both see the same
    minutes of a host whose speed moves."""
    manifest = deepseek(a.data)
    pieces = ["layers", "mlp", "experts", "proj", "self_attn", "down", "up", "gate", "kv", "q_", "1", "2", "3",
              "4", "5", "0", ".", "_"]
    rng = random.Random(6)
    pats = ["*" + "*".join(rng.choice(pieces) for _ in range(3 + i % 3)) + "*" for i in range(100)]
    body = "".join(f'override name "{p}" priority {i + 1} {{ weight int8 }}\n' for i, p in enumerate(pats))
    spec = write(os.path.join(a.scratch, "stars.qspec"), HEADER + body + "target msmodelslim {}\n")
    # The typical ratio: the 100 patterns of bench/specs/deepseek-v3.qspec, as run_bench.py --quick
    # measures it.
    typical = os.path.join(HERE, "specs", "deepseek-v3.qspec")
    ref = {spec: [], typical: []}
    for r in range(a.ref_runs):
        for s in ([spec, typical] if r % 2 == 0 else [typical, spec]):
            ref[s].append(median_run([sys.executable, os.path.join(HERE, "reference_qcc.py"), s, manifest,
                                      os.path.join(a.scratch, "reference.yaml")], 1)[1])
    rs, rt = statistics.median(ref[spec]), statistics.median(ref[typical])
    note = f"reference {rs:.2f} s CPU (median of {a.ref_runs}; typical spec {rt:.2f} s)"
    wall, cpu, rss = median_run([a.qcc, spec, "--inventory", manifest, "--emit=all", "-o",
                                 os.path.join(a.scratch, "stars.d")], a.runs)
    row("stars", 45337, wall, cpu, rss, f"--emit=all; {note}: {rs / cpu:.0f}x qcc (CPU)")
    # The reference's own job, one practice YAML, for both specs.
    wall, cpu, rss = median_run([a.qcc, spec, "--inventory", manifest, "--emit=msmodelslim-yaml", "-o",
                                 os.path.join(a.scratch, "stars.yaml")], a.runs)
    row("stars: one YAML", 45337, wall, cpu, rss, f"--emit=msmodelslim-yaml; {rs / cpu:.0f}x")
    wall, cpu, rss = median_run([a.qcc, typical, "--inventory", manifest, "--emit=msmodelslim-yaml", "-o",
                                 os.path.join(a.scratch, "typical.yaml")], a.runs)
    row("stars: typical", 45337, wall, cpu, rss,
        f"bench/specs/deepseek-v3.qspec --emit=msmodelslim-yaml; reference {rt:.2f} s CPU: {rt / cpu:.0f}x")


CASES = {"hmct-glob": case_hmct_glob, "hmct-names": case_hmct_names, "hmct-onnx": case_hmct_onnx,
         "onnx-file": case_onnx_file, "emit-ir": case_emit_ir,
         "scores": case_scores, "braces": case_braces, "parser": case_parser, "stars": case_stars}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--ref-runs", type=int, default=3, help="stars: runs of the Python reference per spec")
    ap.add_argument("--only", default="")
    ap.add_argument("--qcc", default="")
    ap.add_argument("--data", default="")
    ap.add_argument("--big", action="store_true", help="add the 1M-module size")
    ap.add_argument("--sizes", default="", help="comma-separated stress sizes instead (e.g. 50000,100000)")
    a = ap.parse_args()
    if a.runs < 1 or a.ref_runs < 1:
        ap.error("--runs and --ref-runs must be at least 1")
    a.qcc = a.qcc or os.path.join(a.build, "bin", "qcc")
    a.data = a.data or os.path.join(a.build, "bench-data")
    a.scratch = os.path.join(a.data, "scaling")
    os.makedirs(a.scratch, exist_ok=True)
    sizes = [250_000, 500_000] + ([1_000_000] if a.big else [])
    if a.sizes:
        sizes = [int(n) for n in a.sizes.split(",")]
    print("| case | size | wall s | CPU s | peak RSS MB | notes |")
    print("|---|---:|---:|---:|---:|---|")
    for name, fn in CASES.items():
        if not a.only or name in a.only.split(","):
            fn(a, sizes)


if __name__ == "__main__":
    main()
