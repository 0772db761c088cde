#!/usr/bin/env bash
# Builds an example's cache for the simulator, once: its inputs, the quantization points, the
# calibrated ranges, the float reference and HMCT's node sensitivity. Rebuilt when the stamp
# changes: a digest of the example's lock file and scripts and of the simulator's own files.
#
#   build-cache.sh EXAMPLE_DIR MODEL.onnx MAKE_INPUTS.py
#
# MAKE_INPUTS.py OUT writes OUT/calib.f32, OUT/eval.f32 and OUT/meta.json ({"calib": shape,
# "eval": shape}, each [N, C, H, W]). The example's node_modules has onnxruntime-node.
set -euo pipefail
sim=$(cd "$(dirname "$0")" && pwd)
example=$(cd "$1" && pwd)
model=$2
inputs=$3
cd "$example"
stamp=$(cat package-lock.json "$inputs" "$sim"/onnx_sim.py "$sim"/*.js "$0" | sha256sum | cut -c1-16)
if [ -f cache/stamp ] && [ "$(cat cache/stamp)" = "$stamp" ]; then
  exit 0
fi
rm -rf cache.new && mkdir cache.new
export QSIM_CACHE=$example/cache.new NODE_PATH=$example/node_modules
echo "setup: $(basename "$example"): inputs, calibration and node sensitivity"
/usr/bin/python3 "$inputs" cache.new
/usr/bin/python3 "$sim/onnx_sim.py" tap "$model" cache.new/tap.onnx cache.new/points.json
node "$sim/calibrate.js" "$model"
/usr/bin/python3 "$sim/onnx_sim.py" sens "$model" cache.new/points.json cache.new/ranges.json cache.new/sens.onnx
node "$sim/sensitivity.js" cache.new/node_sensitivity.json
rm -f cache.new/tap.onnx
echo "$stamp" > cache.new/stamp
rm -rf cache && mv cache.new cache
