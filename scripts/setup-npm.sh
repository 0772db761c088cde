#!/usr/bin/env bash
# Installs the npm packages of the VS Code extension (editors/vscode: its runtime dependency
# vscode-languageclient, and the tools the tests and `make vsix` use: vscode-languageserver-protocol,
# vscode-textmate, vscode-oniguruma, @vscode/vsce) into the git-ignored editors/vscode/node_modules,
# exactly as package-lock.json pins them, when they are missing or older than the lock file; and
# the PyTorch-exported ONNX models of test/Inputs/pytorch-onnx the same way.
# Install scripts are not run (--ignore-scripts). Node.js and npm come from Debian when absent.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ext="$root/editors/vscode"
stamp="$ext/node_modules/.package-lock.json"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "setup: installing Node.js and npm from Debian"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends nodejs npm
fi

if ! { [ -f "$stamp" ] && [ "$stamp" -nt "$ext/package-lock.json" ]; }; then
  echo "setup: installing the npm packages of editors/vscode (npm ci --ignore-scripts)"
  (cd "$ext" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi

# Real PyTorch-exported ONNX graphs for the two-graph mapping tests (test/lit/readers/real-exports):
# openwakeword-js ships openWakeWord's classifiers as torch.onnx.export wrote them. Same rule.
models="$root/test/Inputs/pytorch-onnx"
mstamp="$models/node_modules/.package-lock.json"
if ! { [ -f "$mstamp" ] && [ "$mstamp" -nt "$models/package-lock.json" ]; }; then
  echo "setup: installing the npm packages of test/Inputs/pytorch-onnx (npm ci --ignore-scripts)"
  (cd "$models" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi
