#!/usr/bin/env bash
# Installs the Debian packages qspec needs, and only those that are missing.
# `dpkg -s` decides what is missing; `apt-get update` runs once, before the first install.
set -euo pipefail

packages=(
  cmake g++ make ninja-build
  antlr4 libantlr4-runtime-dev
  libyaml-cpp-dev libyaml-dev libprotobuf-dev protobuf-compiler
  nlohmann-json3-dev libfmt-dev
  llvm-14-tools libgtest-dev libgmock-dev libbenchmark-dev
  libonnx-dev python3-onnx python3-protobuf python3-yaml python3-numpy
  python3-jsonschema pybind11-dev python3-dev python3-venv
  pre-commit git time vim neovim
  clang-14 libclang-rt-14-dev llvm-14 clang-format-14
  slurm-wlm munge
  ${QSPEC_EXTRA_PACKAGES:-}
)

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing missing Debian packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
