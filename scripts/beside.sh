#!/usr/bin/env bash
# Runs two commands side by side: BACKGROUND (a shell command line, its output kept in LOG) while
# FOREGROUND runs with the terminal; then waits for both and prints LOG. `make test` builds the
# Release tree beside the examples' set-up, which uses one core of the two for most of a minute.
#
#   beside.sh LOG 'BACKGROUND' FOREGROUND...
# Exits 0 when both succeed; otherwise non-zero, naming the background command if it failed.
set -uo pipefail

if [ $# -lt 3 ]; then
  echo "usage: beside.sh LOG 'BACKGROUND' FOREGROUND..." >&2
  exit 2
fi
log=$1
background=$2
shift 2

bash -c "$background" >"$log" 2>&1 &
pid=$!
"$@"
foreground_rc=$?
wait "$pid"
background_rc=$?
cat "$log"
if [ "$background_rc" -ne 0 ]; then
  echo "beside.sh: '$background' failed with exit status $background_rc (output above)" >&2
fi
[ "$foreground_rc" -eq 0 ] && [ "$background_rc" -eq 0 ]
