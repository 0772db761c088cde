# record_setter.py MODULE.py: imports a generated QconfigSetter module against the stub plugin,
# calls build_qconfig_setter(), and prints one JSON line per module-name entry:
#   {"name": ..., "dtype": "qint16", "freeze": false, "threshold": null}
# plus a first line with the march, the observer and the global dtype.
import importlib.util
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import horizon_plugin_pytorch as hpp  # noqa: E402

spec = importlib.util.spec_from_file_location("generated_setter", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
setter = mod.build_qconfig_setter()

print(json.dumps({"march": hpp.MARCH[-1], "observer": setter.reference_qconfig["observer"],
                  "global": repr(hpp.RECORDED[0][1][""])}))
for kind, mapping, freeze in hpp.RECORDED[1:]:
    if kind != "ModuleNameTemplate":
        print(json.dumps({"template": kind, "args": {k: repr(v) for k, v in mapping.items()}}))
        continue
    for name in sorted(mapping):
        v = mapping[name]
        dtype, threshold = v, None
        if isinstance(v, dict):
            dtype = v.get("dtype", v)
            threshold = v.get("threshold")
        print(json.dumps({"name": name, "dtype": repr(dtype), "freeze": freeze, "threshold": threshold}))
