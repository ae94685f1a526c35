#!/usr/bin/env bash
# The flood (docs/benchmarks.md): 100 rooms x 4 players paced (one move per room every 500 ms), without
# and then with one address (127.0.0.2) asking for unknown rooms as fast as it can over 16
# keep-alive connections; on one SQLite node, then on one node of scripts/cluster.sh
# (PostgreSQL behind HAProxy). Each room's players come from their own loopback address
# (--address-per-room), as households would. Prints, per run, the moves' latency and
# errors (carcassonne-load's JSON line) and the flood's answers by status.
#
#   nice -n 10 bash bench/flood.sh [sqlite|cluster|both] [SECONDS]     (default both, 30 s)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
b=${CARC_BUILD_DIR:-$repo/build}
which=${1:-both}
secs=${2:-30}
rooms=${CARC_FLOOD_ROOMS:-100}
ulimit -n "$(ulimit -Hn)"
free_port() { for _ in $(seq 1 100); do p=$((20000 + RANDOM % 12000)); (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }; done; }

# run LABEL PORT PID FLOOD(yes|no): the paced load against PORT, with the flood beside it.
run() {
  local label=$1 port=$2 pid=$3 flood=$4 out flood_pid=""
  out=$(mktemp /tmp/carc-flood.XXXXXX)
  echo "== $label, flood: $flood ($rooms rooms x 4 players, one move per room every 500 ms, ${secs}s)"
  if [[ $flood == yes ]]; then
    # Longer than the load (its setup comes first), so that the flood covers all of its play.
    "$b/carcassonne-flood" --port "$port" --source 127.0.0.2 --conns 16 --duration $((secs + 20)) >"$out" &
    flood_pid=$!
  fi
  "$b/carcassonne-load" --port "$port" --server-pid "$pid" --rooms "$rooms" --players 4 --interval-ms 500 \
    --duration "$secs" --address-per-room | grep -E '^(moves:|move-to-every-client|errors:|\{)'
  if [[ -n $flood_pid ]]; then
    kill -INT "$flood_pid" 2>/dev/null || true
    wait "$flood_pid" || true
    sed 's/^/  flood: /' "$out"
  fi
  rm -f "$out"
}

if [[ $which == sqlite || $which == both ]]; then
  for flood in no yes; do
    dir=$(mktemp -d /tmp/carc-flood-sqlite.XXXXXX)
    port=$(free_port)
    "$b/carcassonne-server" --port "$port" --bind 127.0.0.1 --data-dir "$dir" --web-root "$repo/web-client" \
      --log-level warn --room-rate 0 --max-connections 100000 >"$dir/server.log" 2>&1 &
    pid=$!
    trap 'kill $pid 2>/dev/null; rm -rf "$dir"' EXIT
    for _ in $(seq 1 100); do curl -fsS -m 1 -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null && break; sleep 0.1; done
    run "SQLite, one node" "$port" "$pid" "$flood"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    rm -rf "$dir"
    trap - EXIT
  done
fi

if [[ $which == cluster || $which == both ]]; then
  for flood in no yes; do
    dir=$(mktemp -d /tmp/carc-flood-cluster.XXXXXX)
    port=$(free_port)
    trap 'bash "$repo/scripts/cluster.sh" down --dir "$dir"; rm -rf "$dir"' EXIT
    # cluster.sh turns the per-address budgets off (its tests play many rooms from one
    # address); the lookup budget is set back to its default here, the players having
    # addresses of their own.
    CARC_BUILD_DIR=$b bash "$repo/scripts/cluster.sh" up --nodes 1 --port "$port" --dir "$dir" \
      -- --max-rooms 100000 --max-connections 100000 --lookup-rate 20 --lookup-burst 60 >/dev/null
    pid=$(awk '$1 == "node" { print $3 }' "$dir/pids" | head -1)
    run "PostgreSQL, one node of scripts/cluster.sh behind HAProxy" "$port" "$pid" "$flood"
    bash "$repo/scripts/cluster.sh" down --dir "$dir"
    rm -rf "$dir"
    trap - EXIT
  done
fi
