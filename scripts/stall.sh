#!/usr/bin/env bash
# Runs a test command RUNS times while the machine "stalls" at random: every 0 to 0.9 s it
# stops (SIGSTOP) a server the command started (at any depth), or now and then the
# command itself, for 0.05 to 1.5 s. A shared VM loses its CPU in bursts like these; a
# test that fails under them waits for a moment instead of for an event, or gives up too
# early.
#
#   bash scripts/stall.sh RUNS COMMAND [ARGS...]
#   bash scripts/stall.sh 20 build/fuzz_test -tc="fuzz: thousands of hostile*"
#
# Prints one line per run with the stops it made (a failed run's output is kept in the
# folder it names) and the count of failures.
# CARC_STALL_MAX_MS sets the longest stop (default 1500).
set -uo pipefail

max_ms=${CARC_STALL_MAX_MS:-1500}
runs=${1:?usage: stall.sh RUNS COMMAND [ARGS...]}
shift
[[ $# -gt 0 ]] || { echo "usage: stall.sh RUNS COMMAND [ARGS...]" >&2; exit 2; }
out=$(mktemp -d /tmp/carc-stall-XXXXXX)

# The carcassonne-server processes among the descendants of $1.
servers_of() {
  ps -eo pid=,ppid=,comm= | awk -v root="$1" '
    { parent[$1] = $2; name[$1] = $3 }
    END {
      for (p in name) {
        if (name[p] != "carcassonne-ser") continue
        for (q = parent[p]; q > 1; q = parent[q]) if (q == root) { print p; break }
      }
    }'
}

# Stops the command's servers (or the command) in bursts for as long as it runs.
stall() {
  local pid=$1 server stops=0
  target=""
  trap '[[ -n $target ]] && kill -CONT "$target" 2>/dev/null' EXIT  # never leave one stopped
  while kill -0 "$pid" 2>/dev/null; do
    sleep "0.$((RANDOM % 10))"
    server=$(servers_of "$pid" | shuf -n 1)
    [[ -z $server ]] && continue
    target=$server
    ((RANDOM % 3 == 0)) && target=$pid
    kill -STOP "$target" 2>/dev/null
    sleep "$(awk -v r=$RANDOM -v m="$max_ms" 'BEGIN { printf "%.3f", (50 + r % (m - 49)) / 1000 }')"
    kill -CONT "$target" 2>/dev/null
    stops=$((stops + 1))
    echo "$stops" >"$out/stops"
  done
}

failed=0
for ((i = 1; i <= runs; i++)); do
  echo 0 >"$out/stops"
  "$@" >"$out/run-$i.log" 2>&1 &
  pid=$!
  stall "$pid" &
  staller=$!
  wait "$pid"
  rc=$?
  wait "$staller" 2>/dev/null
  if ((rc != 0)); then
    failed=$((failed + 1))
    echo "run $i failed (exit $rc) after $(cat "$out/stops") stops: $out/run-$i.log"
  else
    echo "run $i passed ($(cat "$out/stops") stops)"
    rm -f "$out/run-$i.log"
  fi
done
rm -f "$out/stops"
echo "$failed of $runs runs failed under stalls"
((failed == 0)) && rmdir "$out" 2>/dev/null
exit $((failed > 0))
