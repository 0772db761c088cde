from horizon_plugin_pytorch.quantization.observer_v2 import HistogramObserver as _Hist
from horizon_plugin_pytorch.quantization.qconfig_setter import QconfigSetter  # noqa: F401


def get_qconfig(observer=_Hist, in_dtype=None, weight_dtype=None, out_dtype=None, fix_scale=False):
    return {"observer": observer.__name__, "fix_scale": fix_scale}
