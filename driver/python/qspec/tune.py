"""qspec.tune: the evaluator side of `qtune run` (docs/driver.md, "Evaluator kit").

qtune starts the evaluator once per probe, without a shell, with the probe's files in its
environment. This module reads them and writes the answer back:

    from qspec import tune as qspec_eval      # or, by its first name: import qspec_eval

    with qspec_eval.guard():                  # MemoryError -> transient, anything else -> failed
        ev = qspec_eval.current()
        cfg = ev.vendor_file(".json")         # the HMCT quant_config of this probe
        cosine = run_my_model(cfg, device=ev.device)
        ev.write_metrics(cosine=cosine)

Failures say what qtune should do with them:

    qspec_eval.transient("device 3 lost")     # run the probe again (on another slot)
    qspec_eval.fatal("calibration data missing")  # stop the whole run with this message

The contract (what qtune reads) is plain files and exit codes, so evaluators in other languages
can follow it without this module:
  * QSPEC_RESULT: a JSON object, one finite number per metric of the tune block;
  * a failure: {"qspec_status": "transient" | "fatal", "message": TEXT} in QSPEC_RESULT, and
    exit code 75 (transient) or 78 (fatal); any other non-zero exit is an ordinary failure
    (retried --retries times, then the probe's level is unknown).
Standard library only; Python 3.6 or newer. The same file is installed on its own as
PREFIX/share/qspec/python/qspec_eval.py, for evaluators run by a Python without the package.
"""
import contextlib
import json
import os
import sys

EXIT_TRANSIENT = 75  # sysexits.h EX_TEMPFAIL: try again later
EXIT_FATAL = 78  # sysexits.h EX_CONFIG: the set-up is wrong; stop

__all__ = ["Evaluation", "current", "transient", "fatal", "guard", "EXIT_TRANSIENT", "EXIT_FATAL"]


class Evaluation(object):
    """One probe as qtune hands it to the evaluator (read from the environment)."""

    def __init__(self, environ=None):
        env = os.environ if environ is None else environ
        missing = [n for n in ("QSPEC_CONFIG_DIR", "QSPEC_RESULT") if not env.get(n)]
        if missing:
            raise RuntimeError("not started by qtune run: %s unset" % ", ".join(missing))
        self.config_dir = env["QSPEC_CONFIG_DIR"]
        self.result_path = env["QSPEC_RESULT"]
        self.ir_path = env.get("QSPEC_IR") or None  # set only with `qtune run --write-ir`
        self.round = int(env.get("QSPEC_ROUND", "0") or 0)
        self.key = env.get("QSPEC_KEY", "")
        self.device = env.get("QSPEC_DEVICE", "")
        self.anti_outlier = env.get("QSPEC_ANTI_OUTLIER", "")

    def vendor_files(self):
        """Paths of this probe's emitted vendor files (one per target of the spec), sorted."""
        return sorted(os.path.join(self.config_dir, n) for n in os.listdir(self.config_dir)
                      if os.path.isfile(os.path.join(self.config_dir, n)))

    def vendor_file(self, suffix):
        """The one vendor file whose name ends with `suffix` (".json", ".yaml", ".cfg", ".py")."""
        found = [p for p in self.vendor_files() if p.endswith(suffix)]
        if len(found) != 1:
            raise LookupError("%d vendor files end with %r in %s" % (len(found), suffix, self.config_dir))
        return found[0]

    def read_vendor_file(self, suffix):
        with open(self.vendor_file(suffix)) as f:
            return f.read()

    def ir(self):
        """The resolved spec as JSON (every module's tier), or None without --write-ir."""
        if not self.ir_path:
            return None
        with open(self.ir_path) as f:
            return json.load(f)

    def module_tiers(self):
        """{module name: tier} from the IR; raises when qtune wrote no IR (run with --write-ir)."""
        ir = self.ir()
        if ir is None:
            raise RuntimeError("QSPEC_IR is unset: run qtune with --write-ir, or read vendor_files()")
        return {m["name"]: m["tier"] for m in ir["modules"]}

    def write_metrics(self, metrics=None, **named):
        """Writes the result: every metric the tune block names, as a finite number."""
        out = dict(metrics or {})
        out.update(named)
        for k, v in out.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or v in (float("inf"), float("-inf")):
                raise ValueError("metric %r is not a finite number: %r" % (k, v))
        _write_json(self.result_path, out)


def current():
    """The probe this process evaluates."""
    return Evaluation()


def _write_json(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _fail(kind, code, message):
    sys.stderr.write("qspec_eval: %s failure: %s\n" % (kind, message))
    sys.stderr.flush()
    path = os.environ.get("QSPEC_RESULT")
    if path:
        try:
            _write_json(path, {"qspec_status": kind, "message": str(message)})
        except OSError:
            pass  # the exit code says it too
    sys.exit(code)


def transient(message):
    """Ends the evaluator: a failure worth another try (out of memory, a lost device)."""
    _fail("transient", EXIT_TRANSIENT, message)


def fatal(message):
    """Ends the evaluator and the whole run: retrying cannot help (missing data, bad set-up)."""
    _fail("fatal", EXIT_FATAL, message)


@contextlib.contextmanager
def guard(transient_errors=(MemoryError,)):
    """Maps exceptions to the contract: `transient_errors` are transient, others propagate
    (an ordinary failure with the traceback on stderr, which qtune shows)."""
    try:
        yield
    except transient_errors as e:
        transient("%s: %s" % (type(e).__name__, e))
