#!/usr/bin/env bash
# Soak test of the real server (outside CI; CI runs the short variant):
#
#   bash bench/soak.sh                  200 rooms over WebSockets for 10 minutes, 5 SIGKILLs
#   bash bench/soak.sh --short          30 rooms for 45 s, 2 SIGKILLs (scripts/test.sh)
#   bash bench/soak.sh --rooms N --duration S --kills N --seed N --max-rss-mb N --stall-seconds S
#
# Clients disconnect and reconnect at random, send garbage frames and some stop reading;
# the server is SIGKILLed and restarted, and its storage stalls once (SQLite's write lock held
# by another process for --stall-seconds, 7 by default). It fails if an accepted move is lost, a client's
# state differs from the server's, the server exits by itself, or RSS passes the limit;
# it prints the RSS curve. Needs a build (build/carcassonne-server, or CARC_SERVER_BIN)
# and the npm dev dependencies (npm ci). Only 127.0.0.1; stops by itself.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
args=()
if [[ ${1:-} == --short ]]; then
  shift
  args=(--rooms 30 --duration 45 --kills 2)
fi
exec node bench/soak.mjs --server "${CARC_SERVER_BIN:-build/carcassonne-server}" "${args[@]}" "$@"
