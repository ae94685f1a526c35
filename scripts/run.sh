#!/usr/bin/env bash
# Installs what is missing, builds, and starts the game server from the repository root.
#
#   sudo bash scripts/run.sh [server flags...]      (e.g. --port 9000 --base-url https://carc.example.org)
#
# Defaults: http://0.0.0.0:8080, data in ./data (SQLite), the web client from ./web-client.
# Every flag also has an environment variable; see README.md, "Configuration".
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

bash scripts/install-deps.sh
build_dir=${CARC_BUILD_DIR:-build}
bash scripts/build.sh "$build_dir"

server="$build_dir/carcassonne-server"
if [[ ! -x "$server" ]]; then
  echo "run: $server was not built; the server is not part of this checkout yet." >&2
  if [[ -x "$build_dir/carcassonne" ]]; then
    echo "run: playing one random game with the command-line tool instead." >&2
    exec "$build_dir/carcassonne" random --players 4 --seed 1
  fi
  exit 1
fi
exec "$server" "$@"
