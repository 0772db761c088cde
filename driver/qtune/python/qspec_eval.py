"""qspec_eval: the evaluator kit's first name; the kit is the module qspec.tune
(driver/python/qspec/tune.py; docs/driver.md, "Evaluator kit").

`import qspec_eval` keeps working wherever this file is on the path: in the source tree it runs
the kit's source file, next to the package (in the wheel) it is qspec.tune. The installed
PREFIX/share/qspec/python/qspec_eval.py is the kit's file itself.
"""
import os as _os

_source = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), _os.pardir, _os.pardir,
                        "python", "qspec", "tune.py")
if _os.path.isfile(_source):
    with open(_source) as _f:
        exec(compile(_f.read(), _source, "exec"))
else:
    from qspec.tune import *  # noqa: F401,F403
    from qspec.tune import __all__, __doc__  # noqa: F401
