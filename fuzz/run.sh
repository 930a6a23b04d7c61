#!/usr/bin/env bash
# Runs every libFuzzer target of build/fuzz for FUZZ_SECONDS seconds each (default 60), starting
# from the committed corpus fuzz/corpus/<target>/. New inputs go to build/fuzz/corpus/<target>/
# (not committed); a crash, sanitizer report, leak, timeout (FUZZ_TIMEOUT s per input, default 10)
# or out-of-memory leaves its input in build/fuzz/artifacts/ and fails the run. A summary line per
# target (executions, exec/s, corpus size) ends the output. FUZZ_TARGETS limits the targets.
set -uo pipefail
seconds=${FUZZ_SECONDS:-60}
timeout=${FUZZ_TIMEOUT:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build/fuzz
targets=${FUZZ_TARGETS:-"particle_file spatial_metadata manifest bitmap_index bitmap_rows idx_header idx_table idx_sums series_window query"}
mkdir -p "$build/artifacts" "$build/logs"
failed=()
summary=()
for t in $targets; do
  mkdir -p "$build/corpus/$t"
  log=$build/logs/$t.log
  echo "fuzz: $t for ${seconds}s"
  "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$t-" "$build/corpus/$t" "$root/fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  summary+=("$t: ${runs:-?} executions, ${rate:-?} exec/s, exit $rc")
  if [ $rc -ne 0 ]; then
    failed+=("$t")
    tail -40 "$log"
  fi
done
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (inputs in $build/artifacts, logs in $build/logs)" >&2
  exit 1
fi
