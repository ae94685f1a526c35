#!/usr/bin/env bash
# A throwaway PostgreSQL 15 in a folder, on 127.0.0.1 and a free port (tests, cluster.sh).
#
#   bash scripts/pg-throwaway.sh start DIR     initdb DIR/pg if needed, start; prints the URL
#   bash scripts/pg-throwaway.sh stop DIR      stop it (fast shutdown)
#   bash scripts/pg-throwaway.sh restart DIR   pg_ctl restart -m fast, on the same port
#   bash scripts/pg-throwaway.sh url DIR       the URL of its database `carc`
#
# PostgreSQL refuses to run as root: as root it runs as the user `postgres` (from the
# postgresql package) or `nobody`. DIR/port holds the port, DIR/pg.log the server's log.
# PG_FSYNC=off turns fsync off (unit tests); the default keeps PostgreSQL's defaults.
# PG_WATCH_PID=PID: stop the server (and remove DIR) as soon as process PID is gone, so a
# test that crashes leaves nothing running.
set -euo pipefail

die() { echo "pg-throwaway: $*" >&2; exit 1; }
[[ $# -eq 2 ]] || die "usage: pg-throwaway.sh start|stop|restart|url DIR"
cmd=$1
mkdir -p "$2"
dir=$(cd "$2" && pwd)
bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
[[ -x $bin/pg_ctl ]] || die "PostgreSQL 15 is not installed ($bin/pg_ctl): run scripts/install-deps.sh --test"

user=""
if [[ $(id -u) -eq 0 ]]; then
  if getent passwd postgres >/dev/null; then user=postgres; else user=nobody; fi
fi
as_user() {
  if [[ -n $user ]]; then setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups --reset-env -- "$@"
  else "$@"; fi
}
pgctl() { as_user "$bin/pg_ctl" -D "$dir/pg" -l "$dir/pg.log" "$@"; }

url() { echo "postgresql://carc@127.0.0.1:$(cat "$dir/port")/carc"; }

free_port() {
  local p
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 12000))  # below the ephemeral range
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
  done
  die "no free port found"
}

case $cmd in
  start)
    chmod a+rx "$dir"
    if [[ ! -f $dir/pg/PG_VERSION ]]; then
      mkdir -p "$dir/pg" "$dir/sock"
      [[ -n $user ]] && chown "$user" "$dir/pg" "$dir/sock"
      as_user "$bin/initdb" -D "$dir/pg" -U carc --auth=trust -E UTF8 --no-instructions >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
      {
        echo "listen_addresses = '127.0.0.1'"
        echo "unix_socket_directories = '$dir/sock'"
        echo "max_connections = 100"
        echo "shared_buffers = 32MB"
        [[ ${PG_FSYNC:-on} == off ]] && { echo "fsync = off"; echo "synchronous_commit = off"; echo "full_page_writes = off"; }
      } >>"$dir/pg/postgresql.conf"
    fi
    [[ -n $user ]] && { touch "$dir/pg.log"; chown "$user" "$dir/pg.log"; }
    for attempt in 1 2 3 4 5; do
      # Started again after a stop: the same port, so clients find it where it was.
      if [[ $attempt -eq 1 && -s $dir/port ]]; then port=$(cat "$dir/port"); else port=$(free_port); fi
      echo "$port" >"$dir/port"
      if pgctl -o "-p $port" -w -t 30 start >/dev/null 2>&1; then break; fi
      [[ $attempt -eq 5 ]] && { tail -20 "$dir/pg.log" >&2; die "PostgreSQL did not start"; }
    done
    if [[ -n ${PG_WATCH_PID:-} ]]; then
      ( trap '' HUP
        while kill -0 "$PG_WATCH_PID" 2>/dev/null; do sleep 1; done
        [[ -f $dir/pg/postmaster.pid ]] && pgctl -m immediate -w stop >/dev/null 2>&1
        rm -rf "$dir" ) </dev/null >/dev/null 2>&1 &
    fi
    if ! as_user /usr/bin/psql -X -q -h 127.0.0.1 -p "$port" -U carc -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = 'carc'" 2>/dev/null | grep -q 1; then
      as_user /usr/bin/psql -X -q -h 127.0.0.1 -p "$port" -U carc -d postgres -c "CREATE DATABASE carc" >/dev/null
    fi
    url ;;
  stop)
    [[ -f $dir/pg/postmaster.pid ]] && pgctl -m fast -w stop >/dev/null 2>&1 || true ;;
  restart)
    pgctl -m fast -w -o "-p $(cat "$dir/port")" restart >/dev/null ;;
  url) url ;;
  *) die "unknown command: $cmd" ;;
esac
