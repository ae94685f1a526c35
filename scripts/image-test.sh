#!/usr/bin/env bash
# Builds docker/Dockerfile for real, without a Docker engine, and runs the image:
#
#   bash scripts/image-test.sh
#
#  1. makes the debian:12 and debian:12-slim base images with `debootstrap --variant=minbase
#     bookworm` (from the Debian mirror apt uses), imported with `buildah from scratch`;
#  2. builds the Dockerfile unchanged: `buildah --storage-driver vfs bud --isolation chroot
#     --pull-never`;
#  3. runs the image's server with `buildah run --isolation chroot --user <the image's user>`
#     in a network namespace of its own (so its port 8080 is free and only its loopback is
#     reachable), and checks the image's HEALTHCHECK command, /healthz, a room played over
#     WebSocket, and that the server's process is not root;
#  4. removes everything it made (containers, images, the storage folder).
#
# Runs as root (buildah, debootstrap, unshare); installs buildah and debootstrap if missing
# (scripts/install-deps.sh --image). Environment: CARC_IMAGE_DIR (default: a folder under
# /var/tmp), CARC_IMAGE_KEEP=1 to keep it for a look afterwards.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
[[ $(id -u) -eq 0 ]] || { echo "image-test: run as root" >&2; exit 1; }
bash scripts/install-deps.sh --image
# tests/docker/image-room.mjs plays a room with the tests' `ws` (package.json).
if ! node -e 'require.resolve("ws")' >/dev/null 2>&1; then
  npm ci --no-audit --no-fund --loglevel=error >/dev/null || { echo "image-test: npm ci failed" >&2; exit 1; }
fi

work=${CARC_IMAGE_DIR:-$(mktemp -d /var/tmp/carc-image.XXXXXX)}
mkdir -p "$work"
bh=(buildah --storage-driver vfs --root "$work/storage" --runroot "$work/run")
tag=localhost/carcassonne:image-test
start=$SECONDS
say() { printf 'image-test [%4ss] %s\n' "$((SECONDS - start))" "$*"; }

cleanup() {
  local rc=$?
  set +e
  if [[ ${CARC_IMAGE_KEEP:-0} == 1 ]]; then
    say "kept $work"
  else
    "${bh[@]}" rm --all >/dev/null 2>&1
    "${bh[@]}" rmi --all --force >/dev/null 2>&1
    # vfs layers are plain folders; a chroot run may leave bind mounts under the run root.
    grep -o " $work[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null
    rm -rf "$work"
  fi
  exit "$rc"
}
trap cleanup EXIT

# ---- 1. base images ----
mirror=$(sed -nE 's/^URIs: *(http[^ ]*debian)\/?$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
[[ -n $mirror ]] || mirror=$(sed -nE 's/^deb +(http[^ ]*debian)\/? +bookworm .*/\1/p' /etc/apt/sources.list 2>/dev/null | head -1)
mirror=${mirror:-http://deb.debian.org/debian}
if "${bh[@]}" inspect --type image docker.io/library/debian:12-slim >/dev/null 2>&1 &&
   "${bh[@]}" inspect --type image docker.io/library/debian:12 >/dev/null 2>&1; then
  say "base images kept from an earlier run in $work"
else
  say "debootstrap --variant=minbase bookworm from $mirror"
  rootfs="$work/rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -30 "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*

  import_base() {  # NAME ROOTFS
    local ctr mnt
    ctr=$("${bh[@]}" from scratch)
    mnt=$("${bh[@]}" mount "$ctr")
    tar -C "$2" -cf - . | tar -C "$mnt" -xf -
    "${bh[@]}" umount "$ctr" >/dev/null
    "${bh[@]}" config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd bash "$ctr"
    "${bh[@]}" commit --quiet "$ctr" "$1" >/dev/null
    "${bh[@]}" rm "$ctr" >/dev/null
  }
  import_base docker.io/library/debian:12 "$rootfs"
  # -slim: the same system without documentation, manuals and translations (as Debian's).
  rm -rf "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/*
  import_base docker.io/library/debian:12-slim "$rootfs"
  rm -rf "$rootfs"
fi
say "base images: $("${bh[@]}" images --format '{{.Name}}:{{.Tag}}' | tr '\n' ' ')"

# ---- 2. the image ----
say "buildah bud docker/Dockerfile"
# --format docker: an OCI image has no HEALTHCHECK (buildah drops it with a warning).
"${bh[@]}" bud --isolation chroot --pull-never --layers=false --format docker -f docker/Dockerfile -t "$tag" . >"$work/build.log" 2>&1 \
  || { tail -40 "$work/build.log" >&2; exit 1; }
say "built $tag ($("${bh[@]}" images --format '{{.Size}}' "$tag"))"

# The image's configuration as JSON (this buildah's --format templates have no `json`
# function): the OCI config's User and the Docker config's Healthcheck.Test.
"${bh[@]}" inspect --type image "$tag" >"$work/inspect.json"
field() {
  node -e '
    const get = (o, path) => path.reduce((v, k) => {
      if (v == null || typeof v !== "object") return undefined;
      const key = Object.keys(v).find((x) => x.toLowerCase() === k.toLowerCase());
      return key === undefined ? undefined : v[key];
    }, o);
    const v = get(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")), process.argv[2].split("."));
    console.log(v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v));' "$work/inspect.json" "$1"
}
user=$(field OCIv1.config.User)
health=$(field Docker.config.Healthcheck.Test)
[[ -n $user && $user != root && $user != 0 ]] || { echo "image-test: the image runs as '$user'" >&2; exit 1; }
say "image user $user, HEALTHCHECK $health"
# ["CMD","/app/carcassonne-server","--probe","http://..."] -> the command's words
mapfile -t health_cmd < <(node -e 'const t = JSON.parse(process.argv[1]); if (t[0] !== "CMD") process.exit(1); for (const w of t.slice(1)) console.log(w);' "$health")

# ---- 3. run it, in a network namespace of its own ----
ctr=$("${bh[@]}" from --pull-never "$tag")
export CARC_IMAGE_WORK=$work CARC_IMAGE_USER=$user CARC_IMAGE_CTR=$ctr
unshare --net --fork bash -euo pipefail -c '
  ip link set lo up
  bh=(buildah --storage-driver vfs --root "$CARC_IMAGE_WORK/storage" --runroot "$CARC_IMAGE_WORK/run")
  # The image ENTRYPOINT with its ENV (PORT=8080, DATA_DIR=/data, ...), as the image user.
  "${bh[@]}" run --isolation chroot --user "$CARC_IMAGE_USER" "$CARC_IMAGE_CTR" -- /app/carcassonne-server \
    >"$CARC_IMAGE_WORK/server.log" 2>&1 &
  server=$!
  trap "kill $server 2>/dev/null; wait $server 2>/dev/null || true" EXIT  # killed: not a failure
  for i in $(seq 1 100); do
    curl -fsS -o /dev/null http://127.0.0.1:8080/healthz 2>/dev/null && break
    sleep 0.2
  done
  echo "image-test: GET /healthz -> $(curl -sS -o /dev/null -w "%{http_code}" http://127.0.0.1:8080/healthz)"
  [[ $(curl -sS -o /dev/null -w "%{http_code}" http://127.0.0.1:8080/healthz) == 200 ]]
  "${bh[@]}" run --isolation chroot --user "$CARC_IMAGE_USER" "$CARC_IMAGE_CTR" -- "$@" \
    && echo "image-test: HEALTHCHECK command exits 0"
  pid=$(ss -ltnpH "sport = :8080" | grep -oE "pid=[0-9]+" | head -1 | cut -d= -f2)
  uid=$(awk "/^Uid:/ { print \$2 }" /proc/$pid/status)
  echo "image-test: the server (pid $pid, $(readlink /proc/$pid/exe)) runs as uid $uid"
  [[ -n $uid && $uid != 0 ]]
  node tests/docker/image-room.mjs 8080
  page=$(curl -fsS http://127.0.0.1:8080/)  # not piped into grep -q: curl would fail on the closed pipe
  [[ $page == *"<title>"* ]] && echo "image-test: the web client is served"
' image-test "${health_cmd[@]}" || { echo "--- server log"; cat "$work/server.log" 2>/dev/null; exit 1; }
say "passed"
echo "image-test: 1 passed, 0 failed"
