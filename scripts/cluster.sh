#!/usr/bin/env bash
# A local cluster for development and tests (docs/cluster.md), all on 127.0.0.1:
#
#   bash scripts/cluster.sh up --nodes N --port P --dir D [-- extra server flags...]
#       a throwaway PostgreSQL 15 in D (initdb/pg_ctl as an unprivileged user, a free port),
#       N nodes from the build folder (CARC_BUILD_DIR, default build), HAProxy on port P
#       (P = 0: a free port below the kernel's ephemeral range, written to D/front_port).
#       Writes D/pids, one line each: `postgres PID`, `haproxy PID`, `node NAME PID PORT`;
#       returns once every node answers /healthz through the front.
#   bash scripts/cluster.sh down --dir D
#       stops everything listed in D/pids (and PostgreSQL).
#   bash scripts/cluster.sh node --dir D NAME [-- extra flags]
#       starts (or restarts) one more node NAME and adds it to HAProxy (a new line in D/pids).
#
# Environment: CARC_BUILD_DIR, CARC_LEASE_MS (default 10000), CARC_NODE_THREADS (default 1),
# CARC_TEST_SERVER=1 (tests): run the test build carcassonne-server-test (its test hooks),
# CARC_CLUSTER_WATCH_PID=PID (tests): bring the cluster down as soon as process PID is gone.
# Logs: D/NAME.log, D/haproxy.log, D/pg.log. It installs what is missing the way
# scripts/install-deps.sh does (postgresql, haproxy).
set -eEuo pipefail
# A command that fails says so (without this, a failure whose output went to a log ended the
# script without a word).
trap 'echo "cluster: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR

repo=$(cd "$(dirname "$0")/.." && pwd)
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
die() { echo "cluster: $*" >&2; exit 1; }
usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; }

cmd=${1:-}
[[ -n $cmd ]] || { usage >&2; exit 2; }
shift
nodes=3 port="" dir="" name="" extra=() auto_port=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --nodes) nodes=$2; shift ;;
    --port) port=$2; shift ;;
    --dir) dir=$2; shift ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) usage; exit 0 ;;
    *) if [[ $cmd == node && -z $name ]]; then name=$1; else die "unknown argument: $1"; fi ;;
  esac
  shift
done
[[ -n $dir ]] || die "--dir D is required"

build=${CARC_BUILD_DIR:-build}
[[ $build == /* ]] || build=$repo/$build
# CARC_TEST_SERVER=1: the test build (its hooks, e.g. CARC_TEST_CLOCK_FILE), for tests only.
server=$build/carcassonne-server${CARC_TEST_SERVER:+-test}
lease_ms=${CARC_LEASE_MS:-10000}

free_port() {
  local p
  for _ in $(seq 1 100); do
    p=$((20000 + RANDOM % 12000))  # below the ephemeral range
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
  done
  die "no free port found"
}

healthy() { curl -fsS -m 2 -o /dev/null "$1/healthz" 2>/dev/null; }

write_haproxy() {
  local cfg=$dir/haproxy.cfg
  # As many connections as this shell's file limit allows (two descriptors each).
  local hard maxconn
  hard=$(ulimit -Hn)
  [[ $hard == unlimited ]] && hard=100000
  maxconn=$(( (hard - 200) / 2 ))
  ((maxconn > 50000)) && maxconn=50000
  sed -e "s/^    bind :8080/    bind 127.0.0.1:$(cat "$dir/front_port")/" -e '/^    server /d' \
    -e "s/^    maxconn 50000/    maxconn $maxconn/" \
    "$repo/docker/cluster/haproxy.cfg" >"$cfg"
  # Faster health checks than production: the tests wait for them.
  sed -i 's/default-server inter 1s fall 2 rise 2/default-server inter 300ms fall 2 rise 1/' "$cfg"
  awk '$1 == "node" { print "    server " $2 " 127.0.0.1:" $4 " check" }' "$dir/pids" | sort -u >>"$cfg"
}

start_haproxy() {
  local old tries=1
  old=$(awk '$1 == "haproxy" { print $2 }' "$dir/pids" | tail -1)
  sed -i '/^haproxy /d' "$dir/pids"
  while :; do
    write_haproxy
    if [[ -n $old ]] && kill -0 "$old" 2>/dev/null; then
      # A soft reload: the old process finishes its connections, the new one takes new ones.
      haproxy -f "$dir/haproxy.cfg" -D -p "$dir/haproxy.pid" -sf "$old" >>"$dir/haproxy.log" 2>&1 && break
    else
      haproxy -f "$dir/haproxy.cfg" -D -p "$dir/haproxy.pid" >>"$dir/haproxy.log" 2>&1 && break
    fi
    # A front port this script chose (--port 0) may have been taken since: another one.
    if ((auto_port && tries < 5)); then
      tries=$((tries + 1))
      free_port >"$dir/front_port"
      continue
    fi
    tail -5 "$dir/haproxy.log" >&2
    die "HAProxy did not start on port $(cat "$dir/front_port")"
  done
  echo "haproxy $(head -1 "$dir/haproxy.pid")" >>"$dir/pids"
}

start_node() {
  local n=$1 p="" pid log=$dir/$1.log
  # Any earlier process of this name is forgotten (a restart after kill -9 gets a new line).
  sed -i "/^node $n /d" "$dir/pids"
  touch "$log"
  local from
  from=$(wc -l <"$log")
  # Port 0: the node takes a free port and says which in its log.
  # CARC_NODE_DB: this node reaches the database another way (a test's relay).
  "$server" --port 0 --bind 127.0.0.1 --db "${CARC_NODE_DB:-$(cat "$dir/db_url")}" --node-id "$n-$RANDOM" \
    --lease-ms "$lease_ms" --threads "${CARC_NODE_THREADS:-1}" --trusted-proxy 127.0.0.1 \
    --room-rate 0 --ws-rate 0 --lookup-rate 0 --web-root "$repo/web-client" --vapid-key "$dir/vapid.pem" "${extra[@]}" >>"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 300); do
    p=$(tail -n +"$((from + 1))" "$log" | sed -nE 's#.*listening on http://127\.0\.0\.1:([0-9]+).*#\1#p' | head -1)
    [[ -n $p ]] && break
    kill -0 "$pid" 2>/dev/null || { tail -5 "$log" >&2; die "node $n exited"; }
    sleep 0.1
  done
  [[ -n $p ]] || { kill "$pid" 2>/dev/null; die "node $n did not start listening (it must log at level info)"; }
  echo "node $n $pid $p" >>"$dir/pids"
}

wait_healthy() {
  local deadline=$((SECONDS + 60))
  while ((SECONDS < deadline)); do
    local ok=1
    while read -r kind n pid p; do
      [[ $kind == node ]] || continue
      kill -0 "$pid" 2>/dev/null || { tail -5 "$dir/$n.log" >&2; die "node $n exited"; }
      healthy "http://127.0.0.1:$p" || ok=0
    done <"$dir/pids"
    # Through the front; then two check intervals, so HAProxy saw every node answer.
    if ((ok)) && healthy "http://127.0.0.1:$(cat "$dir/front_port")"; then
      sleep 0.7
      return 0
    fi
    sleep 0.2
  done
  die "the cluster did not become healthy in 60 s (see $dir/*.log)"
}

case $cmd in
  up)
    [[ $port =~ ^[0-9]+$ ]] || die "--port P is required (0: a free port)"
    if [[ $port == 0 ]]; then auto_port=1; port=$(free_port); fi
    [[ $nodes =~ ^[0-9]+$ && $nodes -ge 1 ]] || die "--nodes must be a positive number"
    [[ -x $server ]] || die "no server binary at $server: build first (bash scripts/build.sh)"
    command -v haproxy >/dev/null && [[ -x /usr/lib/postgresql/15/bin/pg_ctl ]] || bash "$repo/scripts/install-deps.sh" --test
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [[ -f $dir/pids ]] && die "$dir/pids exists: is a cluster already up there? (cluster.sh down --dir $dir)"
    : >"$dir/pids"
    echo "$port" >"$dir/front_port"
    bash "$repo/scripts/pg-throwaway.sh" start "$dir" >"$dir/db_url"
    echo "postgres $(head -1 "$dir/pg/postmaster.pid")" >>"$dir/pids"
    for i in $(seq 1 "$nodes"); do start_node "node$i"; done
    start_haproxy
    if [[ -n ${CARC_CLUSTER_WATCH_PID:-} ]]; then
      ( trap '' HUP
        while kill -0 "$CARC_CLUSTER_WATCH_PID" 2>/dev/null && [[ -f $dir/pids ]]; do sleep 1; done
        [[ -f $dir/pids ]] && bash "$repo/scripts/cluster.sh" down --dir "$dir" ) </dev/null >/dev/null 2>&1 &
    fi
    wait_healthy
    echo "cluster: $nodes node(s) behind http://127.0.0.1:$(cat "$dir/front_port") (database $(cat "$dir/db_url"))" ;;
  node)
    [[ -n $name ]] || die "usage: cluster.sh node --dir D NAME"
    dir=$(cd "$dir" && pwd)
    [[ -f $dir/pids ]] || die "no cluster in $dir"
    start_node "$name"
    start_haproxy
    wait_healthy ;;
  down)
    [[ -d $dir ]] || exit 0
    dir=$(cd "$dir" && pwd)
    if [[ -f $dir/pids ]]; then
      while read -r kind a b _; do
        case $kind in
          node) kill "$b" 2>/dev/null || true; kill -CONT "$b" 2>/dev/null || true ;;
          haproxy) kill "$a" 2>/dev/null || true ;;
        esac
      done <"$dir/pids"
      for _ in $(seq 1 50); do
        alive=0
        while read -r kind a b _; do
          [[ $kind == node ]] && kill -0 "$b" 2>/dev/null && alive=1
        done <"$dir/pids"
        ((alive)) || break
        sleep 0.1
      done
      while read -r kind a b _; do
        [[ $kind == node ]] && kill -9 "$b" 2>/dev/null || true
      done <"$dir/pids"
    fi
    bash "$repo/scripts/pg-throwaway.sh" stop "$dir"
    rm -f "$dir/pids" ;;
  *) usage >&2; exit 2 ;;
esac
