#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/) with Debian's clang, AddressSanitizer and
# UndefinedBehaviorSanitizer, then runs each for SECONDS (default 60), one after another.
#
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]     targets: client_message record apply http http_server ws_frames room
#
# Exits non-zero on any crash, leak, timeout or sanitizer report; the input that caused it
# is written to build-fuzz/artifacts/ (add it to tests/fuzz/corpus/<target>/: the corpus
# replay in ctest then keeps it as a regression test). Each run starts from the seeds in
# tests/fuzz/corpus/<target>/ plus what earlier runs found (build-fuzz/corpus/<target>/).
# Environment: CARC_FUZZ_BUILD_DIR (default build-fuzz), CARC_JOBS, CARC_FUZZ_ARGS (extra
# libFuzzer flags, e.g. "-runs=10000000").
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
seconds=${1:-60}
[[ $# -gt 0 ]] && shift
all=(client_message record apply http http_server ws_frames room)
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=("${all[@]}")
build_dir=${CARC_FUZZ_BUILD_DIR:-build-fuzz}
jobs=${CARC_JOBS:-$(nproc 2>/dev/null || echo 2)}

bash scripts/install-deps.sh --fuzz || exit 1

args=(-S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCARC_FUZZ=ON -DCARC_BUILD_TESTS=OFF
      -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)
if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
  command -v ninja >/dev/null && args+=(-G Ninja)
  command -v ccache >/dev/null && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
echo "fuzz: cmake ${args[*]}"
cmake "${args[@]}" >"$build_dir.configure.log" 2>&1 || { cat "$build_dir.configure.log" >&2; exit 1; }
rm -f "$build_dir.configure.log"
cmake --build "$build_dir" -j"$jobs" --target "${targets[@]/%/_fuzz}" || { echo "fuzz: build failed" >&2; exit 1; }

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
read -r -a extra <<<"${CARC_FUZZ_ARGS:-}"
mkdir -p "$build_dir/artifacts"
results=()
failed=0
for t in "${targets[@]}"; do
  seeds="tests/fuzz/corpus/$t"
  work="$build_dir/corpus/$t"
  mkdir -p "$work" "$seeds"
  log="$build_dir/fuzz-$t.log"
  echo
  echo "==== fuzz $t: ${seconds}s"
  start=$SECONDS
  "$build_dir/fuzz/${t}_fuzz" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$build_dir/artifacts/$t-" "${extra[@]}" "$work" "$seeds" >"$log" 2>&1
  rc=$?
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -1)
  speed=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1)
  if [[ $rc -ne 0 ]] || grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|fuzz invariant failed' "$log"; then
    failed=1
    results+=("FAIL  $t  rc=$rc  (log: $log)")
    grep -E 'ERROR:|runtime error:|fuzz invariant failed|SUMMARY|artifact' "$log" | head -20
  else
    results+=("PASS  $t  ${execs:-?} runs in $((SECONDS - start))s (${speed:-?}/s), ${cov:-cov: ?}, corpus $(ls "$work" | wc -l) files")
  fi
done
echo
echo "==== fuzz summary"
printf '  %s\n' "${results[@]}"
exit "$failed"
