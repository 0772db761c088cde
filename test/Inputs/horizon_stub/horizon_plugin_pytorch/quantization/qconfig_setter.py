# Template stubs: each checks its arguments the way Horizon's guides require and records them.
import horizon_plugin_pytorch as _hpp
from horizon_plugin_pytorch.dtype import QuantDType

import torch


def _is_dtype(d):
    return isinstance(d, QuantDType) or d in (torch.float16, torch.float32)


def _check_value(v):
    if _is_dtype(v):
        return
    if isinstance(v, dict):
        for k, x in v.items():
            if k not in ("dtype", "threshold", "input", "weight", "output"):
                raise TypeError("unknown port %r" % (k,))
            xs = x if isinstance(x, list) else [x]
            for y in xs:
                if not (_is_dtype(y) or isinstance(y, float) or isinstance(y, dict)):
                    raise TypeError("bad value %r" % (y,))
        return
    raise TypeError("a dtype must be a dtype object, not %r" % (v,))


class ModuleNameTemplate:
    def __init__(self, mapping, freeze=False):
        if not isinstance(mapping, dict):
            raise TypeError("mapping must be a dict")
        for k, v in mapping.items():
            if not isinstance(k, str):
                raise TypeError("module names are strings")
            _check_value(v)
        _hpp.RECORDED.append(("ModuleNameTemplate", dict(mapping), freeze))


class ConvDtypeTemplate:
    def __init__(self, input_dtype, weight_dtype, prefix=None):
        assert _is_dtype(input_dtype) and _is_dtype(weight_dtype)
        _hpp.RECORDED.append(("ConvDtypeTemplate", {"input": input_dtype, "weight": weight_dtype}, False))


class MatmulDtypeTemplate:
    def __init__(self, input_dtypes, prefix=None):
        ds = input_dtypes if isinstance(input_dtypes, list) else [input_dtypes]
        assert all(_is_dtype(d) for d in ds)
        _hpp.RECORDED.append(("MatmulDtypeTemplate", {"input": ds}, False))


class SensitivityTemplate:
    def __init__(self, sensitive_table, topk_or_ratio, sensitive_type, low_precision_dtype, high_precision_dtype):
        assert sensitive_type in ("activation", "weight", "both")
        assert _is_dtype(low_precision_dtype) and _is_dtype(high_precision_dtype)
        _hpp.RECORDED.append(("SensitivityTemplate", {"table": sensitive_table, "k": topk_or_ratio}, False))


class QconfigSetter:
    def __init__(self, reference_qconfig, templates, enable_optimize=None, save_dir=None,
                 custom_qconfig_mapping=None):
        if not _hpp.MARCH:
            raise RuntimeError("set_march must be called before building the setter")
        if not templates or templates[0] is None:
            raise ValueError("templates must not be empty")
        first = _hpp.RECORDED[0] if _hpp.RECORDED else None
        if not first or first[0] != "ModuleNameTemplate" or "" not in first[1]:
            raise ValueError("ModuleNameTemplate({'': dtype}) must come first")
        self.reference_qconfig = reference_qconfig
        self.templates = templates
