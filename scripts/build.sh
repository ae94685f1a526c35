#!/usr/bin/env bash
# Configures and builds the C++ code.
#
#   bash scripts/build.sh [BUILD_DIR] [extra cmake -D options...]
#
# BUILD_DIR defaults to `build` (relative to the repository root). Environment:
#   CARC_BUILD_TYPE   CMake build type (default Release)
#   CMAKE_ARGS        extra options for the configure step, split on spaces
#   CARC_JOBS         parallel jobs (default: nproc)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

build_dir=${1:-build}
[[ $# -gt 0 ]] && shift

args=(-S . -B "$build_dir" -DCMAKE_BUILD_TYPE="${CARC_BUILD_TYPE:-Release}")
# Reuse the generator of an existing build folder; otherwise prefer Ninja.
if [[ ! -f "$build_dir/CMakeCache.txt" ]] && command -v ninja >/dev/null; then
  args+=(-G Ninja)
fi
# A compiler cache, when the machine has one, makes rebuilds in several clones cheap.
if [[ ! -f "$build_dir/CMakeCache.txt" ]] && command -v ccache >/dev/null; then
  args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
read -r -a env_args <<<"${CMAKE_ARGS:-}"
args+=("${env_args[@]}" "$@")

jobs=${CARC_JOBS:-$(nproc 2>/dev/null || echo 2)}
echo "build: cmake ${args[*]}"
cmake "${args[@]}" >"/tmp/carc-configure.$$.log" 2>&1 \
  || { cat "/tmp/carc-configure.$$.log" >&2; rm -f "/tmp/carc-configure.$$.log"; echo "build: configure failed" >&2; exit 1; }
rm -f "/tmp/carc-configure.$$.log"
echo "build: cmake --build $build_dir -j$jobs"
cmake --build "$build_dir" -j"$jobs"
