#!/bin/sh
# Adds the skeleton of a new qlint rule: the source file, the doc, the lit test and the row in
# lint/Rules.def (appended after the last row of its category).
#
#   scripts/new-lint-rule.sh CATEGORY NAME KIND SEVERITY "one-line summary"
#
#   CATEGORY  spec | msmodelslim | amct | hmct | llmc | lint
#   NAME      kebab-case without the category, e.g. group-too-large  (ID: CATEGORY-NAME)
#   KIND      QSpec | MsModelSlim | Amct | Hmct | CompressedTensors | Any   (which files it checks)
#   SEVERITY  Error | Warning | Note
set -eu

if [ $# -ne 5 ]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
category=$1 name=$2 kind=$3 severity=$4 summary=$5
root=$(cd "$(dirname "$0")/.." && pwd)

case $category in spec|msmodelslim|amct|hmct|llmc|lint) ;; *) echo "unknown category '$category'" >&2; exit 2;; esac
case $kind in QSpec|MsModelSlim|Amct|Hmct|CompressedTensors|Any) ;; *) echo "unknown kind '$kind'" >&2; exit 2;; esac
case $severity in Error|Warning|Note) ;; *) echo "unknown severity '$severity'" >&2; exit 2;; esac
if ! printf '%s' "$name" | grep -Eq '^[a-z][a-z0-9]*(-[a-z0-9]+)*$'; then
  echo "NAME must be kebab-case (lowercase words joined by '-')" >&2; exit 2
fi
case $summary in *'"'*|*'\'*) echo "the summary may not contain '\"' or '\\'" >&2; exit 2;; esac

id="$category-$name"
# Enum: CamelCase of the ID (spec-group-split -> SpecGroupSplit).
enum=$(printf '%s' "$id" | awk -F- '{ for (i = 1; i <= NF; i++) printf "%s%s", toupper(substr($i,1,1)), substr($i,2) }')
src="$root/lint/rules/$category/$enum.cpp"
doc="$root/docs/lint/$category/$name.md"
case $kind in
  QSpec) ext=qspec ;;
  *) ext=test ;;
esac
test_file="$root/test/lint/$category/$name.$ext"
# The handler's input: its kind's typed input (lint/Context.h, InputFor).
case $kind in
  QSpec) input=SpecInput what='ctx.spec, ctx.compilerDiags' ;;
  MsModelSlim) input=PracticeInput what='ctx.tree, ctx.practiceIssues' ;;
  Amct) input=AmctInput what='ctx.amctDoc, ctx.amctFindings' ;;
  Hmct) input=QuantConfigInput what='ctx.tree, ctx.hmctIssues' ;;
  CompressedTensors) input=RecipeInput what='ctx.ctIssues' ;;
  *) input=LintContext what='ctx.sm.text(ctx.file)' ;;
esac

if grep -q "\"$id\"" "$root/lint/Rules.def"; then
  echo "rule '$id' already exists" >&2; exit 1
fi
for f in "$src" "$doc" "$test_file"; do
  if [ -e "$f" ]; then echo "'$f' already exists" >&2; exit 1; fi
done
mkdir -p "$(dirname "$src")" "$(dirname "$doc")" "$(dirname "$test_file")"

cat > "$src" <<EOT
// $id: $summary.
//
// TODO: describe the check step by step.
#include "lint/Context.h"

namespace qspec::lint {

void check$enum($input &ctx) {
  // $what hold the parsed file; report with
  // ctx.report(RuleID::$enum, range, "message");
  (void)ctx;
}

} // namespace qspec::lint
EOT

cat > "$doc" <<EOT
# $id

**Category:** $category · **Default severity:** $(printf '%s' "$severity" | tr 'A-Z' 'a-z') · **Fix:** none

## What it checks

$summary.

## Why

TODO

## Example

\`\`\`
TODO: a file that triggers it
\`\`\`

## Fix

TODO
EOT

if [ "$ext" = qspec ]; then
  cat > "$test_file" <<EOT
// RUN: not %qlint --no-config --select=$id %s 2>&1 | FileCheck %s
// TODO: a spec that triggers the rule.
// CHECK: [$id]
EOT
else
  cat > "$test_file" <<EOT
# RUN: rm -rf %t && split-file %s %t
# RUN: not %qlint --no-config --select=$id %t/bad.EXT 2>&1 | FileCheck %s
# CHECK: [$id]
#--- bad.EXT
TODO: a file that triggers the rule
EOT
fi

# The table row, after the last row of the category (or at the end).
row="RULE($enum, \"$id\", \"$category\", $kind, $severity, false, \"$summary\")"
awk -v row="$row" -v cat="\"$category\"" '
  { lines[NR] = $0; if (index($0, "RULE(") == 1 && index($0, ", " cat ", ") > 0) last = NR }
  END {
    for (i = 1; i <= NR; i++) { print lines[i]; if (i == last) print row }
    if (!last) print row
  }' "$root/lint/Rules.def" > "$root/lint/Rules.def.tmp"
mv "$root/lint/Rules.def.tmp" "$root/lint/Rules.def"

echo "created:"
echo "  $src"
echo "  $doc"
echo "  $test_file"
echo "added to lint/Rules.def:"
echo "  $row"
