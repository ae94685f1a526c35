#!/usr/bin/env bash
# Cluster figures (docs/cluster.md): moves/s and move-to-every-client latency at R rooms x 4 players, flat
# out, through HAProxy on a throwaway PostgreSQL: 1 node, then 3 nodes; and one SQLite
# node without HAProxy for comparison. Each run bounds itself (--duration).
#
#   nice -n 10 bash bench/cluster.sh [ROOMS] [SECONDS]        (default 300 rooms, 30 s)
#
# The failover figure (kill -9 to the first accepted move of each moved room) is printed
# by the failover test: node --test tests/cluster/
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
b=${CARC_BUILD_DIR:-$repo/build}
rooms=${1:-300}
secs=${2:-30}
ulimit -n "$(ulimit -Hn)"
free_port() { for _ in $(seq 1 100); do p=$((20000 + RANDOM % 12000)); (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }; done; }

[[ ${CARC_BENCH_SKIP_SQLITE:-0} == 1 ]] || { echo "== SQLite, one node, no proxy: $rooms rooms x 4 players, flat out, ${secs}s"
"$b/carcassonne-load" --spawn "$b/carcassonne-server" --rooms "$rooms" --players 4 --interval-ms 0 --duration "$secs" | tail -1; }

for n in 1 3; do
  dir=$(mktemp -d /tmp/carc-bench-cluster.XXXXXX)
  port=$(free_port)
  trap 'bash "$repo/scripts/cluster.sh" down --dir "$dir"; rm -rf "$dir"' EXIT
  CARC_BUILD_DIR=$b CARC_NODE_THREADS=1 bash "$repo/scripts/cluster.sh" up --nodes "$n" --port "$port" --dir "$dir" \
    -- --max-rooms 100000 --max-connections 100000 >/dev/null
  echo "== PostgreSQL, $n node(s) behind HAProxy: $rooms rooms x 4 players, flat out, ${secs}s"
  "$b/carcassonne-load" --port "$port" --rooms "$rooms" --players 4 --interval-ms 0 --duration "$secs" | tail -1
  bash "$repo/scripts/cluster.sh" down --dir "$dir"
  rm -rf "$dir"
  trap - EXIT
done
