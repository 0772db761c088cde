#!/usr/bin/env bash
# Compiles the bundled example spec into every target it names and says where the files went.
set -euo pipefail
build=${1:-build}
spec=${2:-examples/qwen3-32b/qwen3-32b.qspec}
out=${3:-out}
qcc="$build/bin/qcc"
mkdir -p "$out"
echo "qcc: compiling $spec"
"$qcc" "$spec" --emit=ir -o "$out/$(basename "${spec%.qspec}").ir.json"
"$qcc" "$spec" --emit=all -o "$out"
echo "outputs are in $out/:"
ls -1 "$out"
