#!/usr/bin/env bash
# The engine's speed, binary against binary, in alternating rounds (the machine is shared:
# CPU time is stolen in bursts, so each round runs every binary once, and the medians
# compare). Per round and binary, on one core: random 4-player base games a second
# (`bench --games 10000`) and mcts playouts a second (`bench-bots --positions 4
# --iterations 3000`, CPU time).
#
#   bash bench/engine-ab.sh ROUNDS BIN [BIN...]     e.g. bash bench/engine-ab.sh 15 old/carcassonne build/carcassonne
#   CARC_AB_EXPANSIONS=river,abbot,inns,traders bash bench/engine-ab.sh ...   the same with expansions
set -euo pipefail
rounds=${1:?rounds}
shift
[[ $# -ge 1 ]] || { echo "usage: engine-ab.sh ROUNDS BIN [BIN...]" >&2; exit 2; }
exp=()
[[ -n ${CARC_AB_EXPANSIONS:-} ]] && exp=(--expansions "$CARC_AB_EXPANSIONS")
for ((i = 0; i < rounds; i++)); do
  for b in "$@"; do
    g=$(taskset -c 1 "$b" bench --games 10000 "${exp[@]}" 2>/dev/null | python3 -c "import json,sys; print(round(json.load(sys.stdin)['games_per_second']))")
    p=$(taskset -c 1 "$b" bench-bots --positions 4 --iterations 3000 "${exp[@]}" | python3 -c "import json,sys; print(round(json.load(sys.stdin)['playouts_per_s']))")
    echo "$b $g $p"
  done
done | python3 -c "
import sys, statistics, collections
g = collections.defaultdict(list); p = collections.defaultdict(list)
for line in sys.stdin:
    b, games, playouts = line.split(); g[b].append(int(games)); p[b].append(int(playouts))
for b in g:
    print(f'{b}: random games/s median {statistics.median(g[b]):,.0f}, playouts/s median {statistics.median(p[b]):,.0f} ({len(g[b])} rounds)')"
