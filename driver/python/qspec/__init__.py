"""qspec from Python: compile a .qspec spec into vendor configs in the calling process.

    import qspec
    c = qspec.compile("model.qspec", inventory=qspec.Inventory.from_module(model))
    for d in c.diagnostics:
        print(d)
    c.write("out")

The compile is qcc's own (the same libraries): ``c.files`` holds the bytes
``qcc --emit=all`` writes, ``c.diagnostics`` what it reports, ``c.readings`` what each target's
vendor will apply. ``qspec.lint`` gives qlint's findings, ``qspec.import_file`` the spec
``qcc import`` writes, ``qspec.format`` ``qcc fmt``'s layout; ``qspec.tune`` is qtune's evaluator
kit. Errors in the inputs are diagnostics or findings, not exceptions; misuse of the API raises
TypeError, ValueError or FileNotFoundError. See docs/python.md.
"""

import json as _json
import os as _os

from . import _core
from . import tune

__all__ = ["compile", "explain", "format", "lint", "import_file", "Compilation", "Diagnostic",
           "File", "Finding", "Fix", "Import", "Inventory", "tune", "__version__"]

Diagnostic = _core.Diagnostic
Finding = _core.Finding
Fix = _core.Fix
# "qspec (qspec) 0.1.0 (git REV)", the tools' --version line
__version__ = _core.version.split()[2]


class File:
    """One vendor file of a compilation: the target it is for, its file name and its bytes."""

    __slots__ = ("target", "name", "data")

    def __init__(self, target, name, data):
        self.target = target
        self.name = name
        self.data = data

    def __repr__(self):
        return "<File %s (%s, %d bytes)>" % (self.name, self.target, len(self.data))


class Inventory:
    """The modules of a model: name and type of each, in order."""

    def __init__(self, core):
        self._core = core

    @classmethod
    def load(cls, path):
        """Reads an inventory file as ``qcc --inventory`` does (.safetensors, .index.json,
        .onnx or a manifest). FileNotFoundError if it does not exist, ValueError (with qcc's
        diagnostics) if it is not an inventory."""
        path = _path_arg(path, "path")
        if not _os.path.isfile(path):
            raise FileNotFoundError("no inventory file '%s'" % path)
        return cls(_core._load_inventory(path))

    @classmethod
    def from_modules(cls, modules, name="<python>"):
        """An inventory of ``(name, type)`` pairs, in order."""
        pairs = []
        for item in modules:
            if not (isinstance(item, tuple) and len(item) == 2
                    and all(isinstance(x, str) for x in item)):
                raise TypeError("an inventory module is a (name, type) pair of str, not %r"
                                % (item,))
            pairs.append(item)
        return cls(_core._inventory_from_pairs(pairs, name))

    @classmethod
    def from_module(cls, module):
        """The leaf modules of ``module`` (any object with ``named_modules()``, such as a
        ``torch.nn.Module``): each module without children of its own, by its dotted name,
        with its class name as its type (``Linear``, ``Conv2d``, ``LayerNorm``...)."""
        named = getattr(module, "named_modules", None)
        if not callable(named):
            raise TypeError("Inventory.from_module needs an object with named_modules() "
                            "(a torch.nn.Module), not %s" % type(module).__name__)
        items = [(n, type(m).__name__) for n, m in named() if n]
        for n, _ in items:
            if not isinstance(n, str):
                raise TypeError("named_modules() gave a name that is not a str: %r" % (n,))
        parents = set()
        for n, _ in items:
            parts = n.split(".")
            for k in range(1, len(parts)):
                parents.add(".".join(parts[:k]))
        leaves = [(n, t) for n, t in items if n not in parents]
        return cls(_core._inventory_from_pairs(leaves, "<%s>" % type(module).__name__))

    @property
    def path(self):
        return self._core.path

    @property
    def format(self):
        return self._core.format

    @property
    def modules(self):
        """``[(name, type), ...]`` in inventory order."""
        return self._core.modules()

    def __len__(self):
        return len(self._core)

    def __repr__(self):
        return "<Inventory %s: %d modules>" % (self.path, len(self))


class _Reported:
    """What every result of a call reports: whether it succeeded, and its diagnostics."""

    @property
    def ok(self):
        """True when there is no error (warnings may remain)."""
        return not self._core.has_errors

    @property
    def diagnostics(self):
        """Every diagnostic, in the order the command line reports them (``Diagnostic``
        objects)."""
        return self._core.diagnostics

    @property
    def diagnostics_text(self):
        """The diagnostics as the command line prints them on standard error."""
        return self._core.diagnostics_text


class Compilation(_Reported):
    """The result of ``qspec.compile``: diagnostics, vendor files and the resolution."""

    def __init__(self, core):
        self._core = core
        self._resolution = None
        self._readings = None

    @property
    def files(self):
        """The vendor files (``File``: target, name, data), the bytes ``qcc --emit=all``
        writes; empty when there is an error."""
        return [File(t, n, d) for t, n, d in self._core.files]

    @property
    def resolution(self):
        """Per module (by name): its tier, weight and activation recipe and, for each setting,
        the rule that decided it: the ``modules`` of ``qcc --emit=ir``. None after an error."""
        if not self._core.resolved:
            return None
        if self._resolution is None:
            doc = _json.loads(self._core.ir_json())
            self._resolution = {m["name"]: m for m in doc["modules"]}
        return self._resolution

    def ir(self):
        """The whole ``qcc --emit=ir`` document, parsed. ValueError after an error."""
        return _json.loads(self._core.ir_json())

    @property
    def readings(self):
        """Per target (by kind: ``amct``, ``horizon``...), its expected reading: per module (by
        name), what that vendor will apply, in the words of ``resolution``: the general
        resolution with the target's own changes (its scope, the deciding rule's vendor block,
        the types it never quantizes), each with the setting that decided it. This is the
        ``target-readings`` pass, the ``expected`` of each target in ``qcc --emit=ir``, applied
        to every module. None after an error."""
        if not self._core.resolved:
            return None
        if self._readings is None:
            doc = _json.loads(self._core.ir_json())
            self._readings = {t["kind"]: _reading(doc["modules"], t["expected"])
                              for t in doc["targets"]}
        return self._readings

    def explain(self, name):
        """What ``qcc --explain NAME`` prints: every setting of module ``name`` and the rule
        that decided it. KeyError for a module the inventory lacks."""
        if not isinstance(name, str):
            raise TypeError("a module name is a str, not %s" % type(name).__name__)
        return self._core.explain(name)

    def write(self, directory):
        """Writes every vendor file into ``directory`` (created if missing), each atomically;
        returns their paths. ValueError when the compilation has errors (nothing is written)."""
        directory = _path_arg(directory, "directory")
        if not self.ok:
            raise ValueError("the compilation has errors; nothing to write")
        _os.makedirs(directory, exist_ok=True)
        paths = []
        for f in self.files:
            path = _os.path.join(directory, f.name)
            tmp = path + ".tmp"
            with open(tmp, "wb") as out:
                out.write(f.data)
            _os.replace(tmp, path)
            paths.append(path)
        return paths

    def __repr__(self):
        errors = sum(1 for d in self.diagnostics if d.severity in ("error", "fatal error"))
        return "<Compilation: %d files, %d errors>" % (len(self._core.files), errors)


def _reading(modules, expected):
    """The modules of ``--emit=ir`` with one target's ``expected`` changes applied."""
    out = {m["name"]: _json.loads(_json.dumps(m)) for m in modules}
    for change in expected:
        for name in change["modules"]:
            m = out[name]
            if "tier" in change:
                m["tier"] = change["tier"]["value"]
                m["tier_from"] = change["tier"]["from"]
            for role in ("weight", "act"):
                for field in ("dtype", "scope", "symmetric", "method"):
                    key = "%s_%s" % (role, field)
                    if key in change:
                        if m.get(role) is None:
                            m[role] = {}
                        m[role][field] = change[key]
    return out


def _path_arg(value, what):
    if isinstance(value, _os.PathLike):
        value = _os.fspath(value)
    if not isinstance(value, str):
        raise TypeError("%s must be a str or os.PathLike, not %s" % (what, type(value).__name__))
    return value


def _looks_like_text(spec):
    return "\n" in spec or "{" in spec or ";" in spec


def compile(spec, *, inventory=None, targets=None, scores=None, filename=None):
    """Compiles a spec as ``qcc SPEC --emit=all`` does, without writing anything.

    spec: a path (str or os.PathLike) or the text of a spec (a str with a newline, ``{`` or
    ``;``), read as if it were the file ``filename`` (default ``spec.qspec``) in the current
    directory: diagnostics point into it, its relative paths are taken from the current
    directory, and its files are named after it as qcc names them.
    inventory: an ``Inventory`` or an inventory file's path (overrides the spec's, as
    ``--inventory``). targets: names of targets to build (``amct`` or ``amct-cfg``...); None
    builds every target of the spec. scores: a scores file (as ``--scores``).
    """
    if isinstance(spec, _os.PathLike):
        spec = _os.fspath(spec)
    if isinstance(spec, bytes):
        raise TypeError("spec must be a str (a path or the spec's text), not bytes")
    if not isinstance(spec, str):
        raise TypeError("spec must be a path or the text of a spec, not %s"
                        % type(spec).__name__)
    is_text = _looks_like_text(spec)
    if not is_text and not _os.path.isfile(spec):
        raise FileNotFoundError("no spec file '%s'" % spec)
    if filename is not None and not is_text:
        raise ValueError("filename names a spec given as text; this spec is the file '%s'" % spec)
    text_name = "spec.qspec" if filename is None else _path_arg(filename, "filename")
    inventory_path, held = "", None
    if isinstance(inventory, Inventory):
        held = inventory._core
    elif inventory is not None:
        inventory_path = _path_arg(inventory, "inventory")
        if not _os.path.isfile(inventory_path):
            raise FileNotFoundError("no inventory file '%s'" % inventory_path)
    scores_path = ""
    if scores is not None:
        scores_path = _path_arg(scores, "scores")
        if not _os.path.isfile(scores_path):
            raise FileNotFoundError("no scores file '%s'" % scores_path)
    if targets is not None:
        if isinstance(targets, str):
            targets = [targets]
        targets = list(targets)
        for t in targets:
            if not isinstance(t, str):
                raise TypeError("a target name is a str, not %s" % type(t).__name__)
    return Compilation(_core._compile(spec, is_text, text_name, inventory_path, held, scores_path,
                                      targets))


def explain(compilation, name):
    """``compilation.explain(name)``: what ``qcc --explain NAME`` prints."""
    if not isinstance(compilation, Compilation):
        raise TypeError("explain needs a Compilation, not %s" % type(compilation).__name__)
    return compilation.explain(name)


def format(text):
    """The spec ``text`` in ``qcc fmt``'s canonical layout. ValueError if it does not parse."""
    if not isinstance(text, str):
        raise TypeError("format needs the text of a spec (str), not %s" % type(text).__name__)
    return _core._format(text)


def _selectors(value, what):
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    try:
        items = list(value)
    except TypeError:
        raise TypeError("%s takes a rule selector (str) or a list of them, not %s"
                        % (what, type(value).__name__)) from None
    for item in items:
        if not isinstance(item, str):
            raise TypeError("a %s selector is a str, not %s" % (what, type(item).__name__))
    return items


def _paths_arg(paths, what):
    if isinstance(paths, (str, _os.PathLike)):
        paths = [paths]
    elif isinstance(paths, bytes) or not hasattr(paths, "__iter__"):
        raise TypeError("%s takes a path (str or os.PathLike) or a list of them, not %s"
                        % (what, type(paths).__name__))
    out = [_path_arg(p, "a path") for p in paths]
    if not out:
        raise ValueError("%s needs at least one path" % what)
    return out


def _existing(path, what, folder=False):
    if path is None:
        return ""
    path = _path_arg(path, what)
    if not (_os.path.isfile(path) or (folder and _os.path.isdir(path))):
        raise FileNotFoundError("no %s '%s'" % (what.replace("_", " "), path))
    return path


def lint(paths, *, select=None, ignore=None, werror=False, inventory=None, scores=None,
         onnx=None, amct_hardware=None, amct_framework=None, root=None, config=True,
         against=None, anchor=None, baseline=None, jobs=None):
    """Lints files and folders as ``qlint PATHS...`` does; returns the findings (``Finding``:
    ``file``, ``line``, ``column``, ``rule``, ``severity``, ``message``, ``notes``, ``fixes``,
    ``path`` and ``kind`` of the linted file), in qlint's order: the ones
    ``qlint --format=json`` prints.

    paths: a path or a list of them (folders are searched as qlint searches them). select,
    ignore: rule selectors (IDs, categories, prefixes, ALL), as ``--select`` / ``--ignore``.
    werror: True turns every warning into an error (``-Werror``), selectors only theirs
    (``-Werror=SEL``). inventory, scores, onnx, amct_hardware, amct_framework, root, against,
    anchor, baseline: as qlint's options of those names; config=False is ``--no-config``;
    jobs: files linted at a time (``-j``). Findings are never exceptions; a path that does not
    exist is FileNotFoundError, a bad option value or a file qlint cannot lint (an invalid
    .qlint.yaml) ValueError.
    """
    paths = _paths_arg(paths, "lint")
    for p in paths:
        _existing(p, "file or folder", folder=True)
    select = _selectors(select, "select")
    ignore = _selectors(ignore, "ignore")
    werror_rules = []
    if not isinstance(werror, bool):
        werror_rules, werror = _selectors(werror, "werror"), False
    if not isinstance(config, bool):
        raise TypeError("config is a bool, not %s" % type(config).__name__)
    if jobs is None:
        jobs = 0
    elif isinstance(jobs, bool) or not isinstance(jobs, int):
        raise TypeError("jobs is an int, not %s" % type(jobs).__name__)
    elif not 1 <= jobs <= 64:
        raise ValueError("jobs takes a number from 1 to 64, not %d" % jobs)
    values = {"inventory": _existing(inventory, "inventory file"),
              "scores": _existing(scores, "scores file"),
              "onnx": _existing(onnx, "onnx file"),
              "anchor": _existing(anchor, "anchor file"),
              "baseline": _existing(baseline, "baseline file")}
    for key, value in (("amct_hardware", amct_hardware), ("amct_framework", amct_framework),
                       ("against", against)):
        if value is not None:
            if not isinstance(value, str):
                raise TypeError("%s is a str, not %s" % (key, type(value).__name__))
            values[key] = value
    if root is not None:
        values["root"] = _existing(root, "root folder", folder=True)
        if not _os.path.isdir(values["root"]):
            raise NotADirectoryError("root is not a folder: '%s'" % values["root"])
    values = {k: v for k, v in values.items() if v}
    return _core._lint(paths, select, ignore, werror, werror_rules, config, values, jobs)


class Import(_Reported):
    """The result of ``qspec.import_file``: the spec ``qcc import`` writes, and its
    diagnostics."""

    def __init__(self, core, output):
        self._core = core
        self._output = output

    @property
    def data(self):
        """The spec's bytes, as ``qcc import`` prints or writes them; b"" after an error."""
        return self._core.text

    @property
    def text(self):
        """The spec's text (``data`` decoded as UTF-8); "" after an error."""
        return self._core.text.decode("utf-8", "replace")

    @property
    def roundtrip(self):
        """The ``--roundtrip`` rows (with roundtrip=True): per file, whether the vendor's
        reading of the re-emitted file equals its reading of the file."""
        return self._core.roundtrip

    def write(self, path=None):
        """Writes the spec to ``path`` (default: the ``output`` it was imported for),
        atomically; returns the path. ValueError when the import has errors."""
        if path is None:
            path = self._output
        if path is None:
            raise ValueError("write needs a path (the import was made without output=)")
        path = _path_arg(path, "path")
        if not self.ok:
            raise ValueError("the import has errors; nothing to write")
        tmp = path + ".tmp"
        with open(tmp, "wb") as out:
            out.write(self.data)
        _os.replace(tmp, path)
        return path

    def __repr__(self):
        errors = sum(1 for d in self.diagnostics if d.severity in ("error", "fatal error"))
        return "<Import: %d bytes, %d errors>" % (len(self.data), errors)


_IMPORT_KINDS = ("msmodelslim", "amct", "hmct", "horizon")


def import_file(path, *, inventory=None, kind=None, output=None, roundtrip=False):
    """Imports vendor files into one spec as ``qcc import PATH... [-o OUTPUT]`` does, without
    printing or writing: returns an ``Import`` (``data``/``text``: the spec ``qcc import``
    writes, ``diagnostics``, ``write()``).

    path: an msModelSlim practice (.yaml), an AMCT config (.cfg), an HMCT quant_config (.json)
    or a Horizon QconfigSetter module (.py), or a list of them (one model's files, merged; the
    first file's rules stand). inventory: the model's inventory file, as ``--inventory``
    (verifies the import on every module). kind: msmodelslim, amct, hmct or horizon (default:
    detected per file). output: where the spec will be written, as ``-o`` (its inventory path
    is made relative to it); ``Import.write()`` writes there. roundtrip: the ``--roundtrip``
    rows (needs inventory). Errors in the files are diagnostics in the result; a missing file
    is FileNotFoundError, a bad kind or roundtrip without inventory ValueError.
    """
    files = _paths_arg(path, "import_file")
    for f in files:
        _existing(f, "vendor file")
    inventory = _existing(inventory, "inventory file")
    if kind is not None and kind not in _IMPORT_KINDS:
        raise ValueError("kind must be msmodelslim, amct, hmct or horizon, not %r" % (kind,))
    if not isinstance(roundtrip, bool):
        raise TypeError("roundtrip is a bool, not %s" % type(roundtrip).__name__)
    if roundtrip and not inventory:
        raise ValueError("roundtrip needs an inventory")
    out = "" if output is None else _path_arg(output, "output")
    return Import(_core._import(files, inventory, kind or "", out, roundtrip),
                  None if output is None else out)
