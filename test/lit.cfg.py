# lit configuration for qspec: every user-visible behaviour is a .qspec (or .test) file whose
# RUN lines call the tools and FileCheck their output.
import os
import lit.formats

config.name = "qspec"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".qspec", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.qspec_obj_root, "test")
config.excludes = ["Inputs", "unit", "fuzz", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]

# Tests must not depend on the caller's environment.
config.environment["LC_ALL"] = "C.UTF-8"
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"
for var in ["HOME", "TMPDIR", "PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.environment["PATH"] = os.pathsep.join(
    [config.qspec_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])

config.substitutions.append(("%qcc", os.path.join(config.qspec_tools_dir, "qcc")))
config.substitutions.append(("%qlint", os.path.join(config.qspec_tools_dir, "qlint")))
config.substitutions.append(("%qtune", os.path.join(config.qspec_tools_dir, "qtune")))
config.substitutions.append(("%qspec-lsp", os.path.join(config.qspec_tools_dir, "qspec-lsp")))
config.substitutions.append(("%python", "/usr/bin/python3"))
config.substitutions.append(("%srcroot", config.qspec_src_root))
config.substitutions.append(("%builddir", config.qspec_obj_root))
config.substitutions.append(("%examples", os.path.join(config.qspec_src_root, "examples")))
# Real vendor files, copied into the repository with their provenance (Inputs/conformance/PROVENANCE.md).
config.substitutions.append(("%conformance", os.path.join(config.qspec_src_root, "test", "Inputs", "conformance")))
config.substitutions.append(("%inputs", os.path.join(config.qspec_src_root, "test", "Inputs")))
# How the tools link the third-party libraries and libstdc++ (cmake/ThirdParty.cmake).
config.substitutions.append(("%deps", "static" if config.qspec_static_deps in ("ON", "1", "TRUE") else "shared"))

for tool in ["qlint", "qtune"]:
    if os.path.exists(os.path.join(config.qspec_tools_dir, tool)):
        config.available_features.add(tool)
# Address-space limits (`ulimit -v`) cannot be used with AddressSanitizer, whose shadow memory is
# reserved up front: tests that need one say `UNSUPPORTED: asan`.
_qcc = os.path.join(config.qspec_tools_dir, "qcc")
if os.path.exists(_qcc):
    with open(_qcc, "rb") as _f:
        if b"__asan_init" in _f.read():
            config.available_features.add("asan")
# The fuzz binary (build/fuzz/qspec_fuzz) links libFuzzer in a QSPEC_FUZZ tree and the corpus
# replay driver otherwise.
config.substitutions.append(("%qspec_fuzz", os.path.join(config.qspec_obj_root, "fuzz", "qspec_fuzz")))
if config.qspec_fuzz in ("ON", "1", "TRUE"):
    config.available_features.add("libfuzzer")
# The corpus tests (every .qspec of the repository; the docs' code blocks by document) take every
# fourth spec under the sanitizers:
# there they look for memory and undefined-behaviour errors, which a quarter of the corpus reaches
# through the same code at a quarter of the cost (a sanitized qcc is about twenty times slower);
# the normal tree checks every spec.
config.substitutions.append(("%corpus_stride", "4" if "asan" in config.available_features else "1"))
# The Python module (driver/python): built when pybind11 was found (QSPEC_PYTHON).
import glob
if glob.glob(os.path.join(config.qspec_obj_root, "python", "qspec", "_core*.so")):
    config.available_features.add("python-module")
# Debian's python3-torch (`make test` installs it): docs/python.md's example builds its inventory
# from a real torch.nn.Module. Found without importing it (an import takes seconds).
import subprocess
if subprocess.run(["/usr/bin/python3", "-c", "import importlib.util, sys; "
                   "sys.exit(importlib.util.find_spec('torch') is None)"]).returncode == 0:
    config.available_features.add("torch")
