#!/usr/bin/env bash
# The sanitizer rows of CI (scripts/test.sh runs both), also a command of their own:
#
#   bash scripts/sanitize.sh asan     every C++ suite under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/)
#   bash scripts/sanitize.sh tsan     the server and storage suites under ThreadSanitizer (build-tsan/)
#
# The servers that the suites start are built the same way. Every sanitizer report, from
# a test or from a server it started, is written to a log file; any such file fails the
# row, even when the process that wrote it exited 0.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
kind=${1:-}
reports=$(mktemp -d /tmp/carc-sanitize.XXXXXX)

case $kind in
  asan)
    build_dir=${CARC_ASAN_DIR:-build-asan}
    bash scripts/build.sh "$build_dir" -DCARC_SANITIZE=ON -DCARC_WERROR=ON || exit 1
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:log_path=$reports/asan"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan"
    tests=() ;;
  tsan)
    build_dir=${CARC_TSAN_DIR:-build-tsan}
    suites=(server_test room_test lobby_test fuzz_test address_test storage_test persistence_test durability_test)
    args=(-S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DCARC_SANITIZE_THREAD=ON)
    if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
      command -v ninja >/dev/null && args+=(-G Ninja)
      command -v ccache >/dev/null && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    fi
    cmake "${args[@]}" >/dev/null || exit 1
    cmake --build "$build_dir" -j"${CARC_JOBS:-$(nproc 2>/dev/null || echo 2)}" --target carcassonne-server "${suites[@]}" || exit 1
    export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:log_path=$reports/tsan"
    tests=(-R "^($(IFS='|'; echo "${suites[*]}"))\$") ;;
  *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac

ctest --test-dir "$build_dir" --output-on-failure -j2 --timeout 900 --no-tests=error "${tests[@]}"
rc=$?
shopt -s nullglob
found=("$reports"/*)
if [[ ${#found[@]} -gt 0 ]]; then
  echo "sanitize $kind: ${#found[@]} sanitizer report(s):"
  for f in "${found[@]}"; do echo "---- $f"; head -60 "$f"; done
  rc=1
fi
rm -rf "$reports"
[[ $rc -eq 0 ]] && echo "sanitize $kind: no sanitizer report"
exit "$rc"
