#!/usr/bin/env bash
# Installs the Debian packages qspec needs, and only those that are missing.
#
#   setup-deps.sh run     what building the four tools needs (`make run`, `make install`,
#                         `make package`): the compilers, CMake and Ninja, ANTLR 4 and the
#                         libraries the tools link. Nothing else, nothing from outside Debian.
#   setup-deps.sh test    the run set, plus what only the tests need (`make test`): FileCheck and
#                         lit, GoogleTest and Google Benchmark, clang-14 and lld-14 for the
#                         sanitizer and fuzz tree, clang-format and universal-ctags, Python's
#                         onnx/protobuf/yaml/numpy/jsonschema and torch (docs/python.md's example
#                         builds a torch.nn.Module), Slurm and munge, Vim and Neovim, zsh,
#                         pre-commit, git, GNU time, Node.js; and Pillow and the DejaVu fonts for
#                         the examples on the ONNX simulator, whose set-up then installs nothing.
#
# QSPEC_EXTRA_PACKAGES adds more. `dpkg -s` decides what is missing; `apt-get update` runs once,
# before the first install. docs/contributing.md lists both sets.
set -euo pipefail

set_name=${1:-run}

run_packages=(
  cmake g++ make ninja-build python3
  antlr4 libantlr4-runtime-dev
  libyaml-cpp-dev libyaml-dev libprotobuf-dev protobuf-compiler
  nlohmann-json3-dev libfmt-dev libonnx-dev libssl-dev
)

test_packages=(
  llvm-14-tools libgtest-dev libgmock-dev libbenchmark-dev
  python3-onnx python3-protobuf python3-yaml python3-numpy python3-jsonschema pybind11-dev python3-dev python3-venv
  python3-torch
  pre-commit git time vim neovim zsh
  clang-14 libclang-rt-14-dev llvm-14 lld-14 clang-format-14 universal-ctags
  slurm-wlm munge
  python3-pil fonts-dejavu-core
)

case "$set_name" in
run) packages=("${run_packages[@]}") ;;
test) packages=("${run_packages[@]}" "${test_packages[@]}") ;;
*)
  echo "usage: setup-deps.sh run|test" >&2
  exit 2
  ;;
esac
# shellcheck disable=SC2206 # a space-separated list of package names
packages+=(${QSPEC_EXTRA_PACKAGES:-})

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# Node.js and npm (scripts/setup-npm.sh): by command, since a Node.js from elsewhere carries its
# own npm (and conflicts with Debian's npm package).
if [ "$set_name" = test ]; then
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
fi

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing missing Debian packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
