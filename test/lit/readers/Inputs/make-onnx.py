# Writes a small ONNX model whose second node has no name (it becomes `<op_type>_<index>`) and
# whose MatMul weight comes from an unnamed Constant node, as paddle2onnx writes weights.
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

nodes = [
    helper.make_node("Conv", ["x", "w"], ["c"], name="/stem/Conv"),
    helper.make_node("Relu", ["c"], ["r"]),
    helper.make_node("Constant", [], ["m"], value=numpy_helper.from_array(np.ones((6, 6), np.float32))),
    helper.make_node("MatMul", ["r", "m"], ["y"], name="/head/MatMul"),
]
graph = helper.make_graph(
    nodes, "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8]),
     helper.make_tensor_value_info("w", TensorProto.FLOAT, [4, 3, 3, 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
with open(sys.argv[1], "wb") as f:
    f.write(model.SerializeToString())
