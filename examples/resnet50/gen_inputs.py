#!/usr/bin/python3
"""Writes the inputs of the ResNet-50 example (no downloads, deterministic).

  resnet50.onnx           the ResNet-50 graph as torch.onnx.export names it (BatchNorm folded
                          into Conv): /conv1/Conv, /layer1/layer1.0/conv1/Conv, ..., /fc/Gemm.
                          Weights are graph inputs named as the exporter names a module's
                          parameters (layer1.0.conv1.weight), with shapes but no data, so the
                          file stays a few tens of kilobytes.
  node_sensitivity.json   what HMCT's get_sensitivity_of_nodes returns for the Conv and Gemm
                          nodes: {node: {"cosine-similarity": "0.99xxx"}}, most sensitive first
                          (made-up values, 5 decimals as HMCT prints them, so some tie)
  resnet50.modules.txt    the same network as PyTorch-side tools see it (AMCT for PyTorch, the
                          Horizon plugin): torchvision's leaf modules in named_modules() order,
                          NAME TYPE per line (conv1 Conv2d, layer1.0.bn1 BatchNorm2d, fc Linear)

usage: gen_inputs.py [OUT_DIR]   (default: the directory of this script)
"""
import json
import os
import sys

import onnx
from onnx import TensorProto, helper

STAGES = [(1, 3, 64), (2, 4, 128), (3, 6, 256), (4, 3, 512)]  # layer, blocks, width


def module_of(scope):
    """The module a TorchScript scope names: /layer1/layer1.0/conv1 -> layer1.0.conv1 (a called
    container's component repeats in its child's, which replaces it)."""
    parts = scope.strip("/").split("/")
    keep = [p for i, p in enumerate(parts) if not (i + 1 < len(parts) and parts[i + 1].startswith(p + "."))]
    return ".".join(keep)


class Builder:
    def __init__(self):
        self.nodes, self.inputs = [], []

    def weight(self, name, shape):
        self.inputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, list(shape)))
        return name

    def conv(self, scope, x, cin, cout, k, stride):
        w = self.weight(module_of(scope) + ".weight", (cout, cin, k, k))
        b = self.weight(module_of(scope) + ".bias", (cout,))
        out = scope + "/Conv_output_0"
        self.nodes.append(helper.make_node(
            "Conv", [x, w, b], [out], name=scope + "/Conv", kernel_shape=[k, k],
            strides=[stride, stride], pads=[k // 2] * 4))
        return out

    def op(self, op_type, name, inputs, **attrs):
        out = name + "_output_0"
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=name, **attrs))
        return out


def build():
    b = Builder()
    x = "input"
    x = b.conv("/conv1", x, 3, 64, 7, 2)
    x = b.op("Relu", "/relu/Relu", [x])
    x = b.op("MaxPool", "/maxpool/MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    cin = 64
    for layer, blocks, width in STAGES:
        for i in range(blocks):
            s = "/layer%d/layer%d.%d" % (layer, layer, i)
            stride = 2 if (i == 0 and layer > 1) else 1
            identity = x
            y = b.conv(s + "/conv1", x, cin, width, 1, 1)
            y = b.op("Relu", s + "/relu/Relu", [y])
            y = b.conv(s + "/conv2", y, width, width, 3, stride)
            y = b.op("Relu", s + "/relu_1/Relu", [y])
            y = b.conv(s + "/conv3", y, width, width * 4, 1, 1)
            if i == 0:
                identity = b.conv(s + "/downsample/downsample.0", x, cin, width * 4, 1, stride)
            y = b.op("Add", s + "/Add", [y, identity])
            x = b.op("Relu", s + "/relu_2/Relu", [y])
            cin = width * 4
    x = b.op("GlobalAveragePool", "/avgpool/GlobalAveragePool", [x])
    x = b.op("Flatten", "/Flatten", [x], axis=1)
    w = b.weight("fc.weight", (1000, 2048))
    bias = b.weight("fc.bias", (1000,))
    b.nodes.append(helper.make_node("Gemm", [x, w, bias], ["output"], name="/fc/Gemm", transB=1))
    graph = helper.make_graph(
        b.nodes, "main_graph",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 224, 224])] + b.inputs,
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 1000])])
    model = helper.make_model(graph, producer_name="pytorch", producer_version="2.1.0",
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def sensitivity(model):
    """Conv/Gemm nodes with a cosine similarity; lower = more sensitive."""
    nodes = [n.name for n in model.graph.node if n.op_type in ("Conv", "Gemm")]
    values = {}
    for i, name in enumerate(nodes):
        base = 0.99995 - ((i * 37) % 23) * 0.00004
        if name in ("/conv1/Conv", "/fc/Gemm"):
            base -= 0.0052 if name == "/conv1/Conv" else 0.0031
        if "downsample" in name:
            base -= 0.0009
        values[name] = round(base, 5)
    ordered = sorted(nodes, key=lambda n: (values[n], nodes.index(n)))
    doc = {n: {"cosine-similarity": "%.5f" % values[n]} for n in ordered}
    return json.dumps(doc, indent=4) + "\n"


def modules():
    """torchvision resnet50's leaf modules, in named_modules() order, as a manifest."""
    rows = [("conv1", "Conv2d"), ("bn1", "BatchNorm2d"), ("relu", "ReLU"), ("maxpool", "MaxPool2d")]
    for layer, blocks, _ in STAGES:
        for i in range(blocks):
            s = "layer%d.%d." % (layer, i)
            for k in (1, 2, 3):
                rows += [(s + "conv%d" % k, "Conv2d"), (s + "bn%d" % k, "BatchNorm2d")]
            rows.append((s + "relu", "ReLU"))
            if i == 0:
                rows += [(s + "downsample.0", "Conv2d"), (s + "downsample.1", "BatchNorm2d")]
    rows += [("avgpool", "AdaptiveAvgPool2d"), ("fc", "Linear")]
    header = "# torchvision.models.resnet50(): leaf modules of named_modules(), NAME TYPE\n"
    return header + "".join("%s %s\n" % r for r in rows)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)
    model = build()
    with open(os.path.join(out, "resnet50.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    with open(os.path.join(out, "node_sensitivity.json"), "w", newline="\n") as f:
        f.write(sensitivity(model))
    with open(os.path.join(out, "resnet50.modules.txt"), "w", newline="\n") as f:
        f.write(modules())


if __name__ == "__main__":
    main()
