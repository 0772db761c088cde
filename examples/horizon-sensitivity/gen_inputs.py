#!/usr/bin/python3
"""Writes the sensitivity table of the Horizon example (no downloads, deterministic).

  sensitive_ops.txt   what horizon_plugin_pytorch's QuantAnalysis.sensitivity() prints (and
                      saves as output_<name>_case_<n>_<metric>_sensitive_ops.txt next to the
                      .pt that SensitivityTemplate loads) for ResNet-50: one activation and one
                      weight row per Conv2d and Linear of ../resnet50/resnet50.modules.txt,
                      most sensitive (highest ATOL) first, with the qint8 dtype and the FLOPs
                      column; made-up values shaped like a real run (the stem, the last stage
                      and the downsample convs hurt most)

usage: gen_inputs.py [OUT_DIR]   (default: the directory of this script)
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MODULES = os.path.join(HERE, "..", "resnet50", "resnet50.modules.txt")


def ops():
    for line in open(MODULES, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        name, kind = line.split()
        if kind in ("Conv2d", "Linear"):
            yield name, kind


def rows():
    out = []
    for i, (name, kind) in enumerate(ops()):
        atol = 0.02 + ((i * 29) % 31) * 0.004
        if name == "conv1":
            atol += 0.61
        elif name == "fc":
            atol += 0.35
        elif name.startswith("layer4."):
            atol += 0.09
        if "downsample" in name:
            atol += 0.12
        flops = 2 + (i * 13) % 97
        for role, scale in (("activation", 1.0), ("weight", 0.37)):
            out.append((round(atol * scale, 4), i, name, role, kind, flops))
    out.sort(key=lambda r: (-r[0], r[1], r[3]))
    total = sum(r[5] for r in out if r[3] == "activation")
    lines = ["%-24s %-15s %-8s %-7s %-6s %s" % ("op_name", "sensitive_type", "op_type", "ATOL", "dtype", "flops")]
    for atol, _, name, role, kind, flops in out:
        lines.append("%-24s %-15s %-8s %-7.4f %-6s %s" % (
            name, role, kind, atol, "qint8", "%d.%dM(%d%%)" % (flops // 10, flops % 10, 100 * flops // total)))
    return "\n".join(lines) + "\n"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else HERE
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "sensitive_ops.txt"), "w", newline="\n") as f:
        f.write(rows())


if __name__ == "__main__":
    main()
