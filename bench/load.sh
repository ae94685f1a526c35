#!/usr/bin/env bash
# The two load scenarios (docs/benchmarks.md), against a fresh server started by the load generator
# on 127.0.0.1 (each run bounds itself in time). Usage: bash bench/load.sh [BUILD_DIR]
set -euo pipefail
b=${1:-build}
ulimit -n "$(ulimit -Hn)"
for storage in "" "--server-arg --db-sync --server-arg normal" "--server-arg --data-dir --server-arg :memory:"; do
  echo "== (a) flat out, 100 rooms x 4 players ${storage:-(default storage)}"
  "$b/carcassonne-load" --spawn "$b/carcassonne-server" $storage --rooms 100 --players 4 --duration 60
  echo "== (b) 1000 rooms x 4 players, one move per room every 2 s ${storage:-(default storage)}"
  "$b/carcassonne-load" --spawn "$b/carcassonne-server" $storage --rooms 1000 --players 4 --interval-ms 2000 --duration 60
done
