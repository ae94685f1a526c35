#!/usr/bin/env bash
# This server against the rules-free Node peer (bench/peer-node.mjs, or the original it
# copies when one lies beside the repository), side by side in one run: alternating rounds,
# each server pinned to core 0 and the load generator (build/carcassonne-load) to core 1,
# medians printed as a table with the ratio. Everything it starts listens on 127.0.0.1
# and stops by itself.
#
#   bash bench/compare.sh [--rounds N] [--duration S] [--rooms R] [--players P]
#                         [--interval-ms MS] [--build DIR] [--only ours|peer|floor] [--profile]
#                         [--storage full|normal|memory] [--floor] [--timeline S]
#                         [--also DIR] [--server-arg ARG]... [--address-per-room]
#
# Defaults: 3 rounds of 30 s, 100 rooms x 4 players flat out (--interval-ms 0). The paced
# scenario of docs/hot-path.md: --rooms 1000 --interval-ms 2000 --duration 150. Our server runs
# with its default durable storage (a SQLite file, synchronous=FULL) on one I/O thread;
# the peer's `ws` is installed into a temporary folder. --storage normal runs ours with
# --db-sync normal (no fsync: a power cut may lose the last moves), --storage memory with
# an in-memory database (nothing on disk, like the peer): what durability costs.
#
# --floor also runs build/carc-net-floor in each round (tools/net_floor): a server that does
# nothing but the kernel's part of a move (one receive, one send per player, on loopback
# TCP, pinned the same way), on epoll and on io_uring. Its rows are the most any server
# can reach on this machine at that moment, beside the two real ones. It also runs a round
# against build/carc-ws-floor (tools/ws_floor): the peer's rules-free moves and patches in
# C++ on raw epoll, nothing stored, driven by the same generator as the others; its rows
# are what a WebSocket server that does nothing else reaches, and the generator's own cost
# per move when the server is that fast (its ceiling on one core is 1e6 / that cost).
# Paced (--interval-ms > 0), --floor runs the ws_floor round only: its p50 and p99 are the
# latency this host and the generator give a server that spends nearly nothing.
#
# Every connection comes from 127.0.0.1, so our server runs without the per-address cap
# (--max-connections-per-ip 0): at its default of 256, the 400 connections of 100 rooms x 4
# and their replacements were refused now and then (the few errors of earlier rounds).
#
# --also DIR runs DIR/carcassonne-server too in every round (another build of this server,
# e.g. main's before a change), driven by the same generator, in its own column. Each
# --server-arg ARG is passed to this server (and to the --also one), e.g.
# `--server-arg --analyses --server-arg 0`: analyses of finished games run under SCHED_IDLE
# and soak up whatever CPU the core has left, which the CPU a move counts (docs/hot-path.md).
#
# --timeline S prints, after each round, its moves in windows of S seconds: their p50, p99
# and max latency and how many are over the round's p99 (where the tail comes from).
#
# --address-per-room connects each room's players from their own loopback address
# (carcassonne-load's option of that name): needed past some 28,000 connections, which one
# source address runs out of ports for (10,000 rooms x 4: the capacity scenario of
# docs/hot-path.md). A run that needs more descriptors than the hard limit raises it when
# it can (as root with CAP_SYS_RESOURCE) and stops with a message when it cannot.
#
# --profile also records each server with `perf` for the middle half of each round and
# prints the CPU a move costs in the kernel's TCP send and receive paths (tcp_sendmsg and
# tcp_recvmsg with all they call, loopback delivery included): the part of a move no
# server can spend less on while it sends one frame to each of the room's connections.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
rounds=3 duration=30 rooms=100 players=4 interval=0 build="$repo/build" only="" profile=0 storage=full floor=0 timeline=0
also="" server_args=() load_args=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --rooms) rooms=$2; shift 2 ;;
    --players) players=$2; shift 2 ;;
    --interval-ms) interval=$2; shift 2 ;;
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --only) only=$2; shift 2 ;;
    --profile) profile=1; shift ;;
    --storage) storage=$2; shift 2 ;;
    --floor) floor=1; shift ;;
    --timeline) timeline=$2; shift 2 ;;
    --also) also=$(cd "$2" && pwd); shift 2 ;;
    --server-arg) server_args+=("$2"); shift 2 ;;
    --address-per-room) load_args+=(--address-per-room); shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

[[ $only == floor ]] && floor=1  # the floor rounds alone
case $storage in
  full | normal | memory) ;;
  *) echo "--storage is full, normal or memory" >&2; exit 2 ;;
esac
for bin in carcassonne-server carcassonne-load; do
  [[ -x $build/$bin ]] || { echo "no $build/$bin: build first (bash scripts/build.sh)" >&2; exit 1; }
done
if [[ -n $also && ! -x $also/carcassonne-server ]]; then echo "no $also/carcassonne-server" >&2; exit 1; fi
if [[ $floor == 1 ]]; then
  for bin in carc-net-floor carc-ws-floor; do
    [[ -x $build/$bin ]] || { echo "--floor needs $build/$bin: build first" >&2; exit 1; }
  done
fi
command -v taskset >/dev/null || { echo "taskset (util-linux) is needed" >&2; exit 1; }
if [[ $profile == 1 ]]; then command -v perf >/dev/null || { echo "--profile needs perf (linux-perf)" >&2; exit 1; }; fi
# Each connection is a descriptor in the server and one in the generator; flat out, as many
# rooms again are set up ahead.
fds_needed=$((rooms * players * (interval == 0 ? 2 : 1) + 1024))
if [[ $(ulimit -Hn) != unlimited && $(ulimit -Hn) -lt $fds_needed ]]; then
  ulimit -Hn "$fds_needed" 2>/dev/null || {
    echo "$rooms rooms x $players need $fds_needed descriptors a process; the hard limit is $(ulimit -Hn) (raise it as root)" >&2
    exit 1
  }
fi
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

work=$(mktemp -d /tmp/carc-compare.XXXXXX)
server_pid=""
cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

peer_src=$repo/../shared/bench/peer-node.mjs
[[ -f $peer_src ]] || peer_src=$repo/bench/peer-node.mjs
if [[ $only != ours ]]; then
  mkdir -p "$work/peer"
  cp "$peer_src" "$work/peer/"
  (cd "$work/peer" && npm init -y >/dev/null && npm install --no-audit --no-fund ws@8.18.3 >/dev/null)
fi

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
wait_port() {
  for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "server on port $1 did not come up" >&2
  return 1
}

# One round: start the server on core 0, the generator on core 1; appends its JSON line.
round() {
  local who=$1 port
  port=$(free_port)
  if [[ $who == peer ]]; then
    (cd "$work/peer" && PORT=$port exec taskset -c 0 node peer-node.mjs) >"$work/$who.log" 2>&1 &
  elif [[ $who == wsfloor ]]; then
    taskset -c 0 "$build/carc-ws-floor" --port "$port" --seconds $((duration + 60)) >"$work/$who.log" 2>&1 &
  else
    rm -rf "$work/data"
    local store=(--data-dir "$work/data") bin=$build
    [[ $who == also ]] && bin=$also
    [[ $storage == normal ]] && store+=(--db-sync normal)
    [[ $storage == memory ]] && store=(--data-dir :memory:)
    taskset -c 0 "$bin/carcassonne-server" --bind 127.0.0.1 --port "$port" "${store[@]}" \
      --web-root "$repo/web-client" --threads 1 --room-rate 0 --ws-rate 0 --max-connections 100000 --max-connections-per-ip 0 \
      --log-level warn ${server_args[@]+"${server_args[@]}"} >"$work/$who.log" 2>&1 &
  fi
  server_pid=$!
  wait_port "$port"
  taskset -c 1 "$build/carcassonne-load" --port "$port" --server-pid "$server_pid" --rooms "$rooms" \
    --players "$players" --interval-ms "$interval" --duration "$duration" --timeline "$timeline" ${load_args[@]+"${load_args[@]}"} >"$work/out" 2>"$work/err" &
  local load_pid=$!
  if [[ $profile == 1 ]]; then
    sleep $((duration / 4))
    perf record -q -F 999 -g -p "$server_pid" -o "$work/perf.data" -- sleep $((duration / 2)) >/dev/null 2>&1 || true
  fi
  wait "$load_pid" || true
  kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null || true
  server_pid=""
  local line
  line=$(grep '^{"moves_per_s"' "$work/out" || true)
  if [[ -z $line ]]; then
    echo "round $who failed:" >&2; cat "$work/out" "$work/err" >&2; exit 1
  fi
  if [[ $profile == 1 ]]; then
    # Inclusive shares of the kernel's TCP send and receive paths in the server's samples.
    local share
    share=$(perf report -i "$work/perf.data" --children --sort sym -g none --stdio 2>/dev/null |
      awk '$NF == "tcp_sendmsg" || $NF == "tcp_recvmsg" { gsub("%", "", $1); s += $1 } END { printf "%.2f", s + 0 }')
    line=$(node -e 'const r = JSON.parse(process.argv[1]); r.tcp_share = Number(process.argv[2]) / 100;
      r.tcp_us_per_move = r.server_us_per_move * r.tcp_share; console.log(JSON.stringify(r))' "$line" "$share")
    rm -f "$work/perf.data"
  fi
  echo "  $who: $line" >&2
  if [[ $timeline != 0 ]]; then sed -n '/^timeline/,$p' "$work/err" | sed 's/^/    /' >&2; fi
  echo "$line" >>"$work/$who.jsonl"
}

echo "rooms $rooms x players $players, interval ${interval} ms, ${duration} s a round, $rounds rounds, our storage $storage" >&2
for i in $(seq "$rounds"); do
  echo "round $i" >&2
  # Alternate who goes first, so neither always meets a warmer machine.
  if (( i % 2 )); then order="ours also peer"; else order="peer also ours"; fi
  for who in $order; do
    [[ $who == also && -z $also ]] && continue
    [[ -n $only && $who != "$only" && $who != also ]] && continue
    round "$who"
  done
  if [[ $floor == 1 ]]; then round wsfloor; fi
  if [[ $floor == 1 && $interval == 0 ]]; then
    "$build/carc-net-floor" --rooms "$rooms" --players "$players" --seconds "$duration" >"$work/floor.out" 2>&1 || true
    line=$(grep '^{' "$work/floor.out" || true)
    [[ -n $line ]] || { echo "carc-net-floor failed:" >&2; cat "$work/floor.out" >&2; exit 1; }
    echo "  floor: $line" >&2
    echo "$line" >>"$work/floor.jsonl"
  fi
done

node - "$work" "$only" "$storage" <<'EOF'
const fs = require('fs');
const [dir, only, storage] = process.argv.slice(2);
const read = (who) => fs.existsSync(`${dir}/${who}.jsonl`)
  ? fs.readFileSync(`${dir}/${who}.jsonl`, 'utf8').trim().split('\n').map(JSON.parse) : [];
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const ours = read('ours'), peer = read('peer'), also = read('also');
const rows = [
  ['moves/s', 'moves_per_s', 0],
  ['server CPU per move (us)', 'server_us_per_move', 1],
  ['p50 move-to-every-client (ms)', 'p50_ms', 2],
  ['p99 move-to-every-client (ms)', 'p99_ms', 2],
  ['server memory per room (KB)', 'kb_per_room', 1],
  ['load generator CPU per move (us)', 'load_us_per_move', 1],
  ['rooms in play, on average', 'rooms_in_play', 1],
  ['a new room\'s setup while playing, p50 (ms)', 'setup_p50_ms', 1],
  ['host CPU stolen by the hypervisor in the round (%)', 'steal_pct', 1],
];
if ([...ours, ...peer].some((r) => r.tcp_us_per_move !== undefined)) {
  rows.push(['server CPU per move in kernel TCP (us)', 'tcp_us_per_move', 1]);
  rows.push(['share of server CPU in kernel TCP', 'tcp_share', 2]);
}
const fmt = (v, d) => Number.isFinite(v) ? v.toFixed(d) : '-';
const ourLabel = storage === 'full' ? 'this server' : `this server (storage: ${storage})`;
if (ours.length + peer.length > 0) {  // not with --only floor
  const other = also.length > 0 ? ' other build (--also) |' : '';
  console.log(`| medians of ${Math.max(ours.length, peer.length)} rounds | ${ourLabel} |${other} Node peer, no rules | ratio |`);
  console.log(also.length > 0 ? '|---|---|---|---|---|' : '|---|---|---|---|');
  for (const [label, key, d] of rows) {
    const a = median(ours.map((r) => r[key])), b = median(peer.map((r) => r[key]));
    const ratio = key === 'moves_per_s' ? a / b : b / a;  // > 1: this server is better
    const plain = key === 'load_us_per_move' || key === 'rooms_in_play' || key === 'steal_pct' || key.startsWith('tcp_');
    const mid = also.length > 0 ? ` ${fmt(median(also.map((r) => r[key])), d)} |` : '';
    console.log(`| ${label} | ${fmt(a, d)} |${mid} ${fmt(b, d)} | ${plain ? '' : fmt(ratio, 2) + 'x'} |`);
  }
}
const floor = read('floor');
if (floor.length > 0) {
  // The kernel's part of a move alone (tools/net_floor): the ratio is to the peer.
  const peerMoves = median(peer.map((r) => r.moves_per_s));
  for (const mode of ['epoll', 'io_uring']) {
    const rs = floor.map((r) => r[mode]).filter(Boolean);
    if (rs.length === 0) continue;
    const m = median(rs.map((r) => r.moves_per_s)), us = median(rs.map((r) => r.server_us_per_move));
    console.log(`| no-op server, kernel only (${mode}): moves/s | ${fmt(m, 0)} | | ${fmt(m / peerMoves, 2)}x the peer |`);
    console.log(`| no-op server, kernel only (${mode}): CPU per move (us) | ${fmt(us, 1)} | | |`);
  }
}
const ws = read('wsfloor');
if (ws.length > 0) {
  // The same protocol, moves and patches as the peer, in C++ on raw epoll, nothing stored.
  const peerMoves = median(peer.map((r) => r.moves_per_s));
  const m = median(ws.map((r) => r.moves_per_s));
  const load = median(ws.map((r) => r.load_us_per_move));
  console.log(`| rules-free C++ WebSocket server (tools/ws_floor): moves/s | ${fmt(m, 0)} | | ${fmt(m / peerMoves, 2)}x the peer |`);
  console.log(`| rules-free C++ WebSocket server: CPU per move (us) | ${fmt(median(ws.map((r) => r.server_us_per_move)), 1)} | | |`);
  console.log(`| rules-free C++ WebSocket server: p50 / p99 move-to-every-client (ms) | ${fmt(median(ws.map((r) => r.p50_ms)), 2)} / ${fmt(median(ws.map((r) => r.p99_ms)), 2)} | | |`);
  console.log(`| host CPU stolen by the hypervisor in its rounds (%) | ${fmt(median(ws.map((r) => r.steal_pct)), 1)} | | |`);
  console.log(`| load generator CPU per move against it (us); its ceiling on one core | ${fmt(load, 1)} | | ${fmt(1e6 / load, 0)} moves/s |`);
}
const errors = [...ours, ...also, ...peer, ...ws].reduce((s, r) => s + r.errors, 0);
console.log(`(ratio > 1: this server is better; errors in all rounds: ${errors})`);
if (errors > 0) process.exitCode = 1;
EOF
