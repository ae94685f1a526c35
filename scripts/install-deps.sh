#!/usr/bin/env bash
# Installs what this project needs on Debian 12 (bookworm). Idempotent: it asks apt only
# for packages that are missing, and runs `apt-get update` only when something is.
#
#   bash scripts/install-deps.sh                      build the C++ code (the default)
#   bash scripts/install-deps.sh --test               also what the tests need (chromium, npm packages)
#   bash scripts/install-deps.sh --fuzz               also clang and its libFuzzer/sanitizer runtimes (scripts/fuzz.sh)
#   bash scripts/install-deps.sh --image              buildah and debootstrap (scripts/image-test.sh)
#   bash scripts/install-deps.sh --runtime-only [F]   only the server's runtime libraries (+ packages listed in F)
#   bash scripts/install-deps.sh --list-runtime BIN   print the Debian packages of the shared libraries BIN links
#   bash scripts/install-deps.sh --list KIND          print a list below, one package a line (build, test,
#                                                     runtime, fuzz, image); no root needed
#
# The Dockerfile runs the same script: its build stage with no option, its runtime stage
# with --runtime-only and the list that --list-runtime printed in the build stage.
# scripts/check-deps.sh reads the lists with --list and fails the test command when the
# build uses a file of a package that is not named in them (a package installed by hand, or
# one that only came as another package's dependency, would pass here and fail elsewhere).
set -euo pipefail

orig_args=("$@")
mode=build
pkg_file=""
binary=""
list=""
usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "install-deps: $*" >&2; exit 1; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --test) mode=test ;;
    --fuzz) mode=fuzz ;;
    --image) mode=image ;;
    --runtime-only)
      mode=runtime
      if [[ $# -gt 1 && "$2" != -* ]]; then pkg_file=$2; shift; fi ;;
    --list)
      mode=print
      [[ $# -gt 1 ]] || die "--list needs a list: build, test, runtime, fuzz or image"
      list=$2; shift ;;
    --list-runtime)
      mode=list
      [[ $# -gt 1 ]] || die "--list-runtime needs the path of a binary"
      binary=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
  shift
done

# Every package whose files the build uses is named here, also one that another listed package
# depends on today (libfmt-dev comes with libspdlog-dev): scripts/check-deps.sh fails the
# tests otherwise.
build_pkgs=(g++ cmake ninja-build make pkg-config git ca-certificates curl
            libboost1.81-dev nlohmann-json3-dev libspdlog-dev libfmt-dev doctest-dev libsqlite3-dev libpq-dev
            libssl-dev libqrencode-dev libcjose-dev libjansson-dev
            liburing-dev)  # liburing: only tools/net_floor's io_uring mode (the server does not link it)
# What a dynamically linked server needs when nothing tells us more: the packages of every
# library it links itself (--list-runtime prints them; scripts/check-deps.sh checks this list
# has them all). libc6, libstdc++6 and libgcc-s1 are in every Debian system (apt needs them).
runtime_pkgs=(libc6 libstdc++6 libgcc-s1 libsqlite3-0 libpq5 libspdlog1.10 libfmt9 libssl3 libqrencode4 libcjose0 libjansson4
              ca-certificates)
# fonts-ipafont-gothic: a Japanese font, so the browser tests measure and show real ja text.
# postgresql, haproxy: the storage suite's second backend and the cluster tests (docs/cluster.md).
test_pkgs=(chromium util-linux sqlite3 procps fonts-ipafont-gothic postgresql haproxy)
# clang 14 is bookworm's; libclang-rt-14-dev has libFuzzer and the sanitizer runtimes.
fuzz_pkgs=(clang libclang-rt-14-dev)
# Builds and runs docker/Dockerfile without a Docker engine (chroot isolation, vfs storage).
image_pkgs=(buildah debootstrap iproute2 util-linux curl ca-certificates)

# --list KIND: the list itself, for scripts/check-deps.sh.
if [[ $mode == print ]]; then
  case $list in
    build) printf '%s\n' "${build_pkgs[@]}" ;;
    test) printf '%s\n' "${test_pkgs[@]}" ;;
    runtime) printf '%s\n' "${runtime_pkgs[@]}" ;;
    fuzz) printf '%s\n' "${fuzz_pkgs[@]}" ;;
    image) printf '%s\n' "${image_pkgs[@]}" ;;
    *) die "no such list: $list (build, test, runtime, fuzz or image)" ;;
  esac
  exit 0
fi

# --list-runtime: the packages of the shared libraries BIN itself needs (its NEEDED entries;
# apt brings what those libraries need in turn, so a library pulled in by another one is
# not listed).
if [[ $mode == list ]]; then
  [[ -x "$binary" ]] || die "not an executable: $binary"
  command -v ldd >/dev/null || die "ldd is missing"
  command -v readelf >/dev/null || die "readelf is missing (binutils)"
  if ldd "$binary" | grep -q 'not found'; then
    ldd "$binary" >&2; die "$binary links libraries that are not installed"
  fi
  needed=$(readelf -d "$binary" | sed -nE 's/.*\(NEEDED\).*\[(.*)\]$/\1/p')
  [[ -n $needed ]] || die "$binary needs no shared library (static?)"
  map=$(ldd "$binary")
  declare -A where=()
  candidates=()
  for name in $needed; do
    lib=$(awk -v n="$name" '$1 == n && $2 == "=>" { print $3 }' <<<"$map")
    [[ $lib == /* ]] || die "ldd does not say where $name is"
    # dpkg knows the path it installed, which may be the /usr-merged twin of what ldd printed.
    real=$(readlink -f "$lib")
    where[$name]="$lib $real ${lib#/usr} /usr$lib ${real#/usr} /usr$real"
    candidates+=(${where[$name]})
  done
  # One dpkg query for all of them ("libfmt9:amd64: /usr/lib/..."); paths no package has are left out.
  owners=$(dpkg-query -S "${candidates[@]}" 2>/dev/null || true)
  for name in $needed; do
    owner=""
    for c in ${where[$name]}; do
      owner=$(awk -v c="$c" '{ p = $0; sub(/^[^ ]+ /, "", p) } p == c { sub(/[:,].*/, "", $1); print $1; exit }' <<<"$owners")
      [[ -n $owner ]] && break
    done
    [[ -n $owner ]] || die "no Debian package has the library $name of $binary"
    echo "$owner"
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
