# The board build's QconfigSetter, written by hand.
from horizon_plugin_pytorch.dtype import qint16, qint8
from horizon_plugin_pytorch.march import set_march
from horizon_plugin_pytorch.quantization import get_qconfig
from horizon_plugin_pytorch.quantization.observer_v2 import MinMaxObserver
from horizon_plugin_pytorch.quantization.qconfig_setter import (
    ConvDtypeTemplate,
    MatmulDtypeTemplate,
    ModuleNameTemplate,
    QconfigSetter,
)
import torch

MARCH = "nash-e"


def build_qconfig_setter():
    set_march(MARCH)
    return QconfigSetter(
        reference_qconfig=get_qconfig(observer=MinMaxObserver, fix_scale=True),
        templates=[
            ModuleNameTemplate({"": qint8}),
            ConvDtypeTemplate(input_dtype=qint8, weight_dtype=qint8),
            MatmulDtypeTemplate(input_dtypes=[qint16, qint16]),
            # the first block is sensitive: a prefix key covers layer1.0.conv1 and layer1.0.conv2
            ModuleNameTemplate({"layer1.0": qint16, "fc": {"dtype": qint8, "threshold": 6.4}}),
            ModuleNameTemplate({"lm_head": torch.float32}, freeze=True),
        ],
        enable_optimize=False,
    )
