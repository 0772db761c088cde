#!/usr/bin/env bash
# Runs libFuzzer targets built with -DQSPEC_FUZZ=ON (see `make fuzz`, `make fuzz-smoke`).
#
#   run-fuzz.sh BUILD_DIR TARGET SECONDS     one target for SECONDS (its seed corpus first)
#   run-fuzz.sh --smoke BUILD_DIR SECONDS    every target for SECONDS each (CI)
#
# New corpus entries go to BUILD_DIR/fuzz/work/<target>/ (the seed folder in the source tree is
# only read); a crash is written to BUILD_DIR/fuzz/artifacts/<target>-crash-* and fails the run.
# Copy a crash into test/fuzz/corpus/<target>/ once fixed: it is then replayed by every build.
# The smoke run uses a fixed seed (FUZZ_SEED, default 1), so CI explores a prefix of the same
# mutation sequence a longer local run with that seed has explored; `make fuzz` seeds at random.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# The targets the binary holds, one per line (Targets.cpp); nothing if it is not built.
list_targets() {
  "$1/fuzz/qspec_fuzz" --list 2>/dev/null
}

run_one() {
  local build=$1 target=$2 seconds=$3 seed=${4:-}
  local exe=$build/fuzz/qspec_fuzz
  if ! list_targets "$build" | grep -qxF "$target"; then
    echo "fuzz: no such target '$target' (built: $(list_targets "$build" | tr '\n' ' '))" >&2
    return 2
  fi
  local work=$build/fuzz/work/$target arts=$build/fuzz/artifacts
  mkdir -p "$work" "$arts"
  local log=$build/fuzz/$target.log
  echo "fuzz: $target for ${seconds}s (log: $log)"
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "$exe" --target="$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
      -malloc_limit_mb=1024 -max_len=65536 ${seed:+-seed=$seed} -print_final_stats=1 -artifact_prefix="$arts/$target-" \
      "$work" "$here/corpus/$target" >"$log" 2>&1
  local rc=$?
  local execs
  execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1)
  if [ $rc -ne 0 ]; then
    echo "fuzz: $target FAILED (exit $rc); last lines of $log:" >&2
    grep -E 'ERROR|runtime error|SUMMARY|Test unit written|==[0-9]+==' "$log" | head -20 >&2
    tail -5 "$log" >&2
    return 1
  fi
  echo "fuzz: $target ok, ${execs:-?} executions in ${seconds}s"
  return 0
}

if [ "${1:-}" = "--smoke" ]; then
  # A fuzzer uses one core: FUZZ_JOBS targets (default: one per core) run at once, each still for
  # SECONDS, so the stage takes about targets x SECONDS / cores.
  build=$2 seconds=$3 n=0 bad=0
  jobs=${FUZZ_JOBS:-$(nproc)}
  status=$build/fuzz/smoke-status
  rm -rf "$status" && mkdir -p "$status"
  while read -r t; do
    [ -n "$t" ] || continue
    n=$((n + 1))
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    (run_one "$build" "$t" "$seconds" "${FUZZ_SEED:-1}"; echo $? >"$status/$t") &
  done < <(list_targets "$build")
  if [ $n -eq 0 ]; then
    echo "fuzz-smoke: no targets in $build/fuzz/qspec_fuzz (is it built?)" >&2
    exit 1
  fi
  wait
  for f in "$status"/*; do
    [ -e "$f" ] || continue
    [ "$(cat "$f")" = 0 ] || bad=$((bad + 1))
  done
  # A target whose run left no status (killed) counts as failed too.
  bad=$((bad + n - $(find "$status" -type f | wc -l)))
  echo "fuzz-smoke: $n targets, $bad failed (${seconds}s each, $jobs at once)" | tee "$build/fuzz/smoke.log"
  [ $bad -eq 0 ]
  exit $?
fi
[ $# -eq 3 ] || { echo "usage: run-fuzz.sh BUILD_DIR TARGET SECONDS | --smoke BUILD_DIR SECONDS" >&2; exit 2; }
run_one "$1" "$2" "$3"
