#!/usr/bin/env bash
# Runs a test command RUNS times while the machine "stalls" at random: every 0 to 0.9 s it
# stops (SIGSTOP) a server the command started (its child), or now and then the command
# itself, for 0.05 to 1.5 s. A shared VM loses its CPU in bursts like these; a test that fails
# under them waits for a moment instead of for an event, or gives up too early.
#
#   bash scripts/stall.sh RUNS COMMAND [ARGS...]
#   bash scripts/stall.sh 20 build/fuzz_test -tc="fuzz: thousands of hostile*"
#
# Prints one line per failed run (its output is kept in the folder it names) and the count.
# CARC_STALL_MAX_MS sets the longest stop (default 1500).
set -uo pipefail

max_ms=${CARC_STALL_MAX_MS:-1500}
runs=${1:?usage: stall.sh RUNS COMMAND [ARGS...]}
shift
[[ $# -gt 0 ]] || { echo "usage: stall.sh RUNS COMMAND [ARGS...]" >&2; exit 2; }
out=$(mktemp -d /tmp/carc-stall-XXXXXX)

# Stops the command's servers (or the command) in bursts for as long as it runs.
stall() {
  local pid=$1 server
  target=""
  trap '[[ -n $target ]] && kill -CONT "$target" 2>/dev/null' EXIT  # never leave one stopped
  while kill -0 "$pid" 2>/dev/null; do
    sleep "0.$((RANDOM % 10))"
    server=$(pgrep -P "$pid" carcassonne-ser | head -1)
    [[ -z $server ]] && continue
    target=$server
    ((RANDOM % 3 == 0)) && target=$pid
    kill -STOP "$target" 2>/dev/null
    sleep "$(awk -v r=$RANDOM -v m="$max_ms" 'BEGIN { printf "%.3f", (50 + r % (m - 49)) / 1000 }')"
    kill -CONT "$target" 2>/dev/null
  done
}

failed=0
for ((i = 1; i <= runs; i++)); do
  "$@" >"$out/run-$i.log" 2>&1 &
  pid=$!
  stall "$pid" &
  staller=$!
  wait "$pid"
  rc=$?
  wait "$staller" 2>/dev/null
  if ((rc != 0)); then
    failed=$((failed + 1))
    echo "run $i failed (exit $rc): $out/run-$i.log"
  else
    rm -f "$out/run-$i.log"
  fi
done
echo "$failed of $runs runs failed under stalls"
((failed == 0)) && rmdir "$out" 2>/dev/null
exit $((failed > 0))
