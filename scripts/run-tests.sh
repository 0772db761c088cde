#!/usr/bin/env bash
# Runs every test registered with ctest (gtest units and the lit suite) and prints a summary.
set -uo pipefail
build=${1:-build}
jobs=$(nproc)
cd "$build"
ctest --output-on-failure -j "$jobs" 2>&1 | tee ctest.log
rc=${PIPESTATUS[0]}
# The lit suite is one ctest entry; report its own counts too.
passed=$(grep -cE '^PASS: ' ctest.log || true)
failed=$(grep -cE '^(FAIL|XPASS|UNRESOLVED): ' ctest.log || true)
echo "lit: ${passed} passed, ${failed} failed"
exit "$rc"
