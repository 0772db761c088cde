#!/usr/bin/env bash
# Sets up an example on the simulator, installing only what is missing:
#   - Debian packages through the project's helper (dpkg -s first, one apt-get update):
#     Pillow and the DejaVu fonts for the rendered inputs, ONNX and NumPy for the simulator;
#   - the npm packages of the example's package-lock.json into its node_modules (git-ignored):
#     onnxruntime-node and the models. --ignore-scripts: onnxruntime-node's install script would
#     fetch CUDA binaries over the network, which the examples do not need; the CPU binaries are
#     in the package. Examples with the same lock share npm's cache, so a second install is local;
#   - the example's cache (git-ignored), by build-cache.sh: its inputs, the quantization points,
#     the calibrated ranges, the float reference and HMCT's node sensitivity. Rebuilt when a
#     script, the simulator or the lock file changes.
#
#   setup-example.sh EXAMPLE_DIR MODEL.onnx MAKE_INPUTS.py    (paths in EXAMPLE_DIR)
set -euo pipefail
if [ $# -ne 3 ] || [ ! -f "$1/package-lock.json" ]; then
  echo "usage: setup-example.sh EXAMPLE_DIR MODEL.onnx MAKE_INPUTS.py (EXAMPLE_DIR holds a package-lock.json)" >&2
  exit 2
fi
sim=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$sim/../.." && pwd)
example=$(cd "$1" && pwd)
cd "$example"
# One set-up at a time: two tests start the set-up at once on a fresh tree, and two `npm ci`
# into one node_modules, or two builds of cache.new, would undo each other. The lock is the
# example's lock file (nothing to create); the second caller then finds everything done.
exec 9<"$example/package-lock.json"
flock 9

QSPEC_EXTRA_PACKAGES="python3-pil fonts-dejavu-core python3-onnx python3-numpy" bash "$root/scripts/setup-deps.sh"
command -v node >/dev/null || { echo "setup: node and npm are needed (Node.js 18 or later)" >&2; exit 1; }

if [ ! -f node_modules/.package-lock.json ] || ! cmp -s package-lock.json node_modules/.qspec-lock; then
  echo "setup: installing the npm packages of examples/$(basename "$example")"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.qspec-lock
fi

bash "$sim/build-cache.sh" "$example" "$2" "$3"
