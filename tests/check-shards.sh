#!/usr/bin/env bash
# The doctest executables run as one ctest test per source file (carc_test in
# cmake/CarcWarnings.cmake): check that those files' test cases add up to every test case
# of the executable, so that no test case is left out of ctest (one defined in a header, or
# in a source the listing missed) and none runs twice.
# Usage: tests/check-shards.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: check-shards.sh BUILD_DIR}
list="$build/test-shards.txt"
[[ -s $list ]] || { echo "check-shards: $list is missing or empty" >&2; exit 1; }
count() {
  "$@" --count 2>&1 | sed -n 's/.*passing the current filters: \([0-9]*\).*/\1/p'
}
failed=0
while read -r name files; do
  exe="$build/$name"
  [[ -x $exe ]] || { echo "check-shards: $exe is not built" >&2; failed=1; continue; }
  all=$(count "$exe")
  [[ -n $all && $all -gt 0 ]] || { echo "check-shards: $name has no test case" >&2; failed=1; continue; }
  IFS=, read -r -a shards <<< "$files"
  if (( ${#shards[@]} < 2 )); then
    echo "$name: $all test cases, one ctest test"
    continue
  fi
  sum=0
  for f in "${shards[@]}"; do
    n=$(count "$exe" "--source-file=*/$f")
    if [[ -z $n || $n -eq 0 ]]; then
      echo "check-shards: $name: no test case in $f" >&2
      failed=1
    fi
    sum=$((sum + ${n:-0}))
  done
  if (( sum != all )); then
    echo "check-shards: $name has $all test cases, its ${#shards[@]} files run $sum" >&2
    failed=1
  else
    echo "$name: $all test cases in ${#shards[@]} ctest tests"
  fi
done < "$list"
exit $failed
