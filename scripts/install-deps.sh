#!/usr/bin/env bash
# Installs what this project needs on Debian 12 (bookworm). Idempotent: it asks apt only
# for packages that are missing, and runs `apt-get update` only when something is.
#
#   bash scripts/install-deps.sh                      build the C++ code (the default)
#   bash scripts/install-deps.sh --test               also what the tests need (chromium, npm packages)
#   bash scripts/install-deps.sh --fuzz               also clang and its libFuzzer/sanitizer runtimes (scripts/fuzz.sh)
#   bash scripts/install-deps.sh --image              buildah and debootstrap (scripts/image-test.sh)
#   bash scripts/install-deps.sh --runtime-only [F]   only the server's runtime libraries (+ packages listed in F)
#   bash scripts/install-deps.sh --list-runtime BIN   print the Debian packages whose shared libraries BIN links
#
# The Dockerfile runs the same script: its build stage with no option, its runtime stage
# with --runtime-only and the list that --list-runtime printed in the build stage.
set -euo pipefail

orig_args=("$@")
mode=build
pkg_file=""
binary=""
usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "install-deps: $*" >&2; exit 1; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --test) mode=test ;;
    --fuzz) mode=fuzz ;;
    --image) mode=image ;;
    --runtime-only)
      mode=runtime
      if [[ $# -gt 1 && "$2" != -* ]]; then pkg_file=$2; shift; fi ;;
    --list-runtime)
      mode=list
      [[ $# -gt 1 ]] || die "--list-runtime needs the path of a binary"
      binary=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
  shift
done

# --list-runtime: resolve BIN's shared libraries to the Debian packages that ship them.
if [[ $mode == list ]]; then
  [[ -x "$binary" ]] || die "not an executable: $binary"
  command -v ldd >/dev/null || die "ldd is missing"
  libs=$(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }')
  if ldd "$binary" | grep -q 'not found'; then
    ldd "$binary" >&2; die "$binary links libraries that are not installed"
  fi
  for lib in $libs; do
    # dpkg knows the path it installed, which may be the /usr-merged twin of what ldd printed.
    real=$(readlink -f "$lib")
    for candidate in "$lib" "$real" "${lib#/usr}" "/usr$lib" "${real#/usr}" "/usr$real"; do
      if owner=$(dpkg-query -S "$candidate" 2>/dev/null); then
        echo "${owner%%:*}"   # "libfmt9:amd64: /usr/lib/..." -> "libfmt9"
        break
      fi
    done
  done | sort -u
  exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null; then exec sudo --preserve-env=CI bash "$0" "${orig_args[@]}"; fi
  die "run as root (or install sudo): it installs Debian packages"
fi
[[ -r /etc/debian_version ]] || die "this script targets Debian 12 (bookworm); install the packages by hand elsewhere"

export DEBIAN_FRONTEND=noninteractive
log=$(mktemp /tmp/install-deps.XXXXXX.log)
trap 'rm -f "$log"' EXIT

is_installed() {
  [[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" == installed ]]
}

updated=no
apt_install() {
  local missing=() p
  for p in $(printf '%s\n' "$@" | sort -u); do is_installed "$p" || missing+=("$p"); done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  echo "install-deps: installing ${missing[*]}"
  if [[ $updated == no ]]; then
    apt-get update -qq >"$log" 2>&1 || { cat "$log" >&2; die "apt-get update failed"; }
    updated=yes
  fi
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$log" 2>&1 \
    || { cat "$log" >&2; die "apt-get install ${missing[*]} failed"; }
}

build_pkgs=(g++ cmake ninja-build make pkg-config git ca-certificates curl
            libboost1.81-dev nlohmann-json3-dev libspdlog-dev doctest-dev libsqlite3-dev libpq-dev
            libssl-dev libqrencode-dev
            liburing-dev)  # liburing: only tools/net_floor's io_uring mode (the server does not link it)
# What a dynamically linked server needs when nothing tells us more (see --list-runtime).
runtime_pkgs=(libsqlite3-0 libpq5 libspdlog1.10 libfmt9 libssl3 libqrencode4 ca-certificates)
# fonts-ipafont-gothic: a Japanese font, so the browser tests measure and show real ja text.
# postgresql, haproxy: the storage suite's second backend and the cluster tests (docs/cluster.md).
test_pkgs=(chromium util-linux sqlite3 procps fonts-ipafont-gothic postgresql haproxy)
# clang 14 is bookworm's; libclang-rt-14-dev has libFuzzer and the sanitizer runtimes.
fuzz_pkgs=(clang libclang-rt-14-dev)
# Builds and runs docker/Dockerfile without a Docker engine (chroot isolation, vfs storage).
image_pkgs=(buildah debootstrap iproute2 util-linux curl ca-certificates)

case $mode in
  runtime)
    pkgs=("${runtime_pkgs[@]}")
    if [[ -n $pkg_file ]]; then
      [[ -r $pkg_file ]] || die "cannot read $pkg_file"
      while read -r p; do [[ -n $p && $p != \#* ]] && pkgs+=("$p"); done <"$pkg_file"
    fi
    apt_install "${pkgs[@]}"
    exit 0 ;;
  build) apt_install "${build_pkgs[@]}" ;;
  fuzz) apt_install "${build_pkgs[@]}" "${fuzz_pkgs[@]}" ;;
  image) apt_install "${image_pkgs[@]}" ;;
  test)
    apt_install "${build_pkgs[@]}" "${test_pkgs[@]}"
    # Node 20 and npm come with our machines; Debian's are only a fallback for a bare system.
    command -v node >/dev/null || apt_install nodejs
    command -v npm >/dev/null || apt_install npm
    repo=$(cd "$(dirname "$0")/.." && pwd)
    if [[ -f "$repo/package.json" ]]; then
      cd "$repo"
      # playwright-core drives Debian's /usr/bin/chromium: never fetch a browser build.
      export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
      if [[ -d node_modules ]] && npm ls --all >/dev/null 2>&1; then
        :  # node_modules already satisfies package.json
      elif [[ -f package-lock.json ]]; then
        echo "install-deps: npm ci"
        npm ci --no-audit --no-fund --loglevel=error >"$log" 2>&1 || { cat "$log" >&2; die "npm ci failed"; }
      else
        echo "install-deps: npm install"
        npm install --no-audit --no-fund --loglevel=error >"$log" 2>&1 || { cat "$log" >&2; die "npm install failed"; }
      fi
    fi ;;
esac
