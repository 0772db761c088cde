#!/usr/bin/env bash
# Regenerates the measured parts of the simulator examples' READMEs: runs their lit tests in
# BUILD (which write what they measured into their lit output folders), then puts each
# measured table into its README's generated block and ppocr-det's chart into its report.svg.
#
#   bash examples/onnx-sim/regenerate.sh BUILD      (e.g. build; the tools must be built)
set -uo pipefail
build=${1:?usage: regenerate.sh BUILD}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$build/test/lit/examples/Output
/usr/bin/python3 /usr/lib/llvm-14/build/utils/lit/lit.py -q "$build/test" --filter 'lit/examples/ppocr-(det|rec)\.test' || true
for name in ppocr-det ppocr-rec; do
  tables=$out/$name.test.tmp/tables.md
  [ -f "$tables" ] || { echo "regenerate.sh: $name.test measured nothing ($tables)" >&2; exit 1; }
  /usr/bin/python3 "$root/examples/onnx-sim/readme_tables.py" write "$root/examples/$name/README.md" "$tables"
done
cp "$out/ppocr-det.test.tmp/tune/report.svg" "$root/examples/ppocr-det/report.svg"
echo "regenerate.sh: examples/ppocr-det/README.md, report.svg and examples/ppocr-rec/README.md written"
