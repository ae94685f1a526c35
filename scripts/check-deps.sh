#!/usr/bin/env bash
# Fails when a build uses a file of a Debian package that scripts/install-deps.sh does not
# name, so that a package installed by hand (or one that only arrived as a dependency of
# another package) cannot make this machine's build green and a stranger's red.
#
#   bash scripts/check-deps.sh [BUILD_DIR]        (after scripts/build.sh; Ninja build folders)
#
# What the build used, each file mapped to the package that installed it (dpkg's lists):
#   - every CMake file configure read (find_package's config files and modules: the
#     dependencies of build.ninja's own rule) and every absolute file path in CMakeCache.txt
#     (the compiler, the libraries and headers find_* resolved, cmake, ctest, ninja);
#   - the .pc file of every module pkg_check_modules asked for (pkg-config --path);
#   - every header any object included (ninja's dependency log, `ninja -t deps`);
#   - every library on a link line (build.ninja's LINK_LIBRARIES; -lNAME through the compiler).
# Each package must be in install-deps.sh's build list (--list build), except:
#   - the compiler's own packages below (TOOLCHAIN): what `apt-get install g++` and
#     `apt-get install cmake` always bring, the compiler and C++ library proper;
#   - a package built from the same Debian source as a listed package that the listed one
#     depends on: the shared library of a listed -dev package (libpq5 for libpq-dev), which
#     comes with it at the same version. A package from another source does not pass this
#     way, even when a listed package depends on it (libssl-dev came with libpq-dev): the
#     day that dependency goes, the build breaks elsewhere.
# A file no package installed (/usr/local, a hand-built library) fails the check too.
#
# Then the server's runtime: every package `install-deps.sh --list-runtime` prints for
# BUILD_DIR/carcassonne-server must be in the runtime list (--list runtime), which a
# machine that only runs the server installs (--runtime-only).
#
# Environment: CARC_DEPS_SCRIPT (default scripts/install-deps.sh): the installer whose lists
# are read; CARC_DEPS_DROP="pkg ...": names left out of the lists read (tests/docker/deps.test.mjs
# checks that the check fails then, naming the package).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
[[ $build == /* ]] || build="$repo/$build"
installer=${CARC_DEPS_SCRIPT:-$repo/scripts/install-deps.sh}
die() { echo "check-deps: $*" >&2; exit 2; }

# The compiler's own packages (g++ -> g++-12 -> gcc-12, cpp-12, libstdc++-12-dev,
# libgcc-12-dev, libc6-dev -> linux-libc-dev, binutils) and their runtime libraries; cmake's
# modules (cmake-data). ccache: scripts/build.sh uses it when it is there and builds the
# same without it.
TOOLCHAIN=(g++-12 gcc-12 cpp-12 libstdc++-12-dev libgcc-12-dev libc6-dev linux-libc-dev libc6
           libstdc++6 libgcc-s1 binutils binutils-x86-64-linux-gnu cmake-data ccache)

[[ -f $build/CMakeCache.txt ]] || die "no $build/CMakeCache.txt: configure and build first (scripts/build.sh)"
[[ -f $build/build.ninja ]] || die "$build is not a Ninja build folder (scripts/build.sh makes one when ninja is installed)"
[[ -r $installer ]] || die "cannot read $installer"
command -v ninja >/dev/null || die "ninja is missing"
command -v dpkg-query >/dev/null || die "dpkg-query is missing (this check is for Debian)"

drop=" ${CARC_DEPS_DROP:-} "
read_list() {
  local p
  bash "$installer" --list "$1" | while read -r p; do
    [[ $drop == *" $p "* ]] || echo "$p"
  done
}
build_list=$(read_list build) || die "$installer --list build failed"
runtime_list=$(read_list runtime) || die "$installer --list runtime failed"

tmp=$(mktemp -d /tmp/check-deps.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# ---- what the build used -------------------------------------------------------------
cache=$build/CMakeCache.txt
{
  # configure's inputs (build.ninja is remade when one changes)
  sed -n '/^build build.ninja: RERUN_CMAKE/,/^$/p' "$build/build.ninja" | tr ' ' '\n' | grep '^/' || true
  # absolute file paths CMake resolved, and cmake/ctest themselves
  sed -nE 's/^[^#/][^:]*:(FILEPATH|PATH|STRING)=(\/[^;]*)$/\2/p' "$cache"
  sed -nE 's/^CMAKE_(COMMAND|CTEST_COMMAND):INTERNAL=(\/.*)$/\2/p' "$cache"
  # a compiler launcher named without its path
  launcher=$(sed -nE 's/^CMAKE_CXX_COMPILER_LAUNCHER:[A-Z]+=(.+)$/\1/p' "$cache")
  [[ -n $launcher ]] && command -v "$launcher"
  # pkg-config modules: pkg_check_modules(PREFIX [options] module...)
  sed -nE 's/^__pkg_config_arguments_[^:]*:INTERNAL=(.*)$/\1/p' "$cache" | tr ';' '\n' \
    | grep -vxE 'REQUIRED|QUIET|IMPORTED_TARGET|GLOBAL|NO_CMAKE_PATH|NO_CMAKE_ENVIRONMENT_PATH|' \
    | sed -E 's/[<>=].*//' | while read -r module; do
        pkg-config --path "$module" || echo "check-deps: pkg-config has no module $module" >&2
      done
  # every header any object included
  # (relative to the build folder: ../../../usr/include/...)
  ninja -C "$build" -t deps | sed -nE 's/^    (.*)$/\1/p' | sort -u | (cd "$build" && tr '\n' '\0' | xargs -0 realpath -ms --)
  # every library on a link line
  cxx=$(sed -nE 's/^CMAKE_CXX_COMPILER:[A-Z]+=(.*)$/\1/p' "$cache")
  grep -h '^  LINK_LIBRARIES = ' "$build/build.ninja" | tr ' ' '\n' | sort -u | while read -r t; do
    case $t in
      /*) echo "$t" ;;
      -l*) f=$("$cxx" -print-file-name="lib${t#-l}.so"); if [[ $f == /* ]]; then echo "$f"; fi ;;
    esac
  done
  true
} 2>"$tmp/errors" | sort -u >"$tmp/used.raw"
if [[ -s $tmp/errors ]]; then cat "$tmp/errors" >&2; die "could not read what the build used"; fi

# Only files outside the repository and the build folder, and only files (a directory such
# as /usr/include belongs to many packages).
while read -r f; do
  case $f in "$repo"/*|"$build"/*) continue ;; esac
  [[ -f $f ]] && echo "$f"
done <"$tmp/used.raw" >"$tmp/used"
[[ -s $tmp/used ]] || die "found no file the build used outside the repository (is $build built?)"

# ---- which package installed each file -------------------------------------------------
# dpkg's file lists, read once; a path may be the /usr-merged twin of what dpkg recorded,
# or a link (the compiler is /usr/bin/c++ -> alternatives -> x86_64-linux-gnu-g++-12).
tr '\n' '\0' <"$tmp/used" | xargs -0 realpath -- >"$tmp/real"
paste "$tmp/used" "$tmp/real" | while IFS=$'\t' read -r f real; do
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$f" "$real" "${f#/usr}" "/usr$f" "${real#/usr}" "/usr$real"
done >"$tmp/candidates"
awk -F'\t' '
  FNR == 1 && FILENAME != "-" && FILENAME !~ /candidates$/ { pkg = FILENAME; sub(/.*\//, "", pkg); sub(/\.list$/, "", pkg); sub(/:.*/, "", pkg) }
  FILENAME ~ /candidates$/ {
    hit = ""
    for (i = 2; i <= NF && hit == ""; i++) if ($i in owner) hit = owner[$i]
    print $1 "\t" (hit == "" ? "-" : hit)
    next
  }
  !($0 in owner) { owner[$0] = pkg }
' /var/lib/dpkg/info/*.list "$tmp/candidates" >"$tmp/owners"

# ---- the packages that may be used ---------------------------------------------------
# The build list, the toolchain, and the same-source dependencies of the build list (one
# dpkg query: every installed package's source and dependencies).
dpkg-query -W -f='${Package}\t${source:Package}\t${Depends}\n' >"$tmp/installed"
{
  printf '%s\n' $build_list "${TOOLCHAIN[@]}"
  printf '%s\n' $build_list | awk -F'\t' '
    FILENAME == "-" { listed[$1] = 1; next }
    { src[$1] = $2; deps[$1] = $3 }
    END {
      for (p in listed) {
        if (!(p in src)) continue
        n = split(deps[p], d, ",")
        for (i = 1; i <= n; i++) {
          name = d[i]; sub(/^ +/, "", name); sub(/[ :(|].*/, "", name)
          if (name in src && src[name] == src[p]) print name
        }
      }
    }' - "$tmp/installed"
} | sort -u >"$tmp/allowed"

status=0
unowned=$(awk -F'\t' '$2 == "-" { print $1 }' "$tmp/owners")
if [[ -n $unowned ]]; then
  status=1
  echo "check-deps: the build uses files that no Debian package installed (a stranger's machine does not have them):"
  printf '  %s\n' $unowned | head -20
fi
missing=$(awk -F'\t' '$2 != "-" { print $2 }' "$tmp/owners" | sort -u | comm -23 - "$tmp/allowed")
for p in $missing; do
  status=1
  example=$(awk -F'\t' -v p="$p" '$2 == p { print $1 }' "$tmp/owners" | head -3 | paste -sd' ')
  echo "check-deps: the build uses $p (e.g. $example), which $(basename "$installer")'s build list does not name: add it to build_pkgs"
done

# ---- the server's runtime libraries --------------------------------------------------
server=$build/carcassonne-server
if [[ -x $server ]]; then
  runtime=$(bash "$installer" --list-runtime "$server") || die "$installer --list-runtime $server failed"
  for p in $runtime; do
    if ! grep -qxF "$p" <<<"$runtime_list"; then
      status=1
      echo "check-deps: the server links a library of $p, which $(basename "$installer")'s runtime list does not name: add it to runtime_pkgs"
    fi
  done
else
  status=1
  echo "check-deps: no $server to check the runtime list against"
fi

used_pkgs=$(awk -F'\t' '$2 != "-" { print $2 }' "$tmp/owners" | sort -u | wc -l)
if [[ $status -eq 0 ]]; then
  echo "check-deps: $(wc -l <"$tmp/used") files of $used_pkgs packages used by the build, each in the build list or the toolchain:"
  awk -F'\t' '{ n[$2]++ } END { for (p in n) printf "  %s (%d files)\n", p, n[p] }' "$tmp/owners" | sort
  echo "check-deps: the server's runtime packages all in the runtime list: $(echo $runtime)"
fi
exit "$status"
