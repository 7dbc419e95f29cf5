#!/usr/bin/env bash
# Runs deploy/systemd/pra-portal.service for real: a Debian bookworm with systemd (debootstrap)
# gets Node.js, the release and the unit installed as docs/OPERATIONS.md says, an environment file
# from the release's .env.example (production on PostgreSQL, the SP key and certificate as
# credentials) and the unit enabled; it boots in systemd-nspawn on this machine's network. The
# portal must answer /readyz, run as a dynamic user without capabilities, with no_new_privs and a
# seccomp filter, and `systemctl stop` must end it cleanly (exit 0, within TimeoutStopSec).
#
#   deploy/systemd/boot-check.sh <release .tgz>
# Needs root; installs debootstrap and systemd-container when missing. PostgreSQL:
# PRA_BOOT_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres) to make a database.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
# shellcheck source=deploy/common.sh
. "$repo/deploy/common.sh"
release="${1:?usage: $0 <release .tgz>}"
pg_url="${PRA_BOOT_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
root="${PRA_BOOT_WORK:-/var/tmp/pra-portal-boot}/rootfs"

say() { printf 'systemd boot: %s\n' "$*"; }
fail() {
  printf 'systemd boot: FAILED: %s\n' "$*" >&2
  [ -d "$root/var/log/journal" ] &&
    journalctl -D "$root/var/log/journal" -u pra-portal.service --no-pager -o cat 2>/dev/null | tail -n 20 >&2
  exit 1
}

nspawn_pid=""
db=""
cleanup() {
  if [ -n "$nspawn_pid" ]; then
    kill -TERM "$nspawn_pid" 2>/dev/null || true
    wait "$nspawn_pid" 2>/dev/null || true
  fi
  [ -z "$db" ] || psql "$pg_url" -qc "drop database if exists $db with (force)" >/dev/null 2>&1 || true
}
trap cleanup EXIT

t0=$SECONDS
missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v systemd-nspawn >/dev/null || missing+=(systemd-container)
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

rm -rf "$root"
mkdir -p "$(dirname "$root")"
debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus,libatomic1 bookworm "$root" \
  "$(pra_debian_mirror)" >"$root.debootstrap.log" 2>&1 ||
  fail "debootstrap (log: $root.debootstrap.log)"
say "Debian bookworm with systemd in $((SECONDS - t0))s"

# Installed as docs/OPERATIONS.md says.
pra_install_node "$(pra_node_version)" "$root"
mkdir -p "$root/opt/pra-portal" "$root/var/log/journal"
tar -xzf "$release" -C "$root/opt/pra-portal"
folders=("$root"/opt/pra-portal/pra-portal-*/)
ln -s "$(basename "${folders[0]}")" "$root/opt/pra-portal/current"
install -d -m 0700 "$root/etc/pra-portal"
openssl req -x509 -newkey rsa:3072 -sha256 -days 365 -nodes -subj '/CN=PRA Portal boot check' \
  -keyout "$root/etc/pra-portal/sp.key" -out "$root/etc/pra-portal/sp.crt" 2>/dev/null
chmod 0600 "$root"/etc/pra-portal/sp.*
install -m 0644 "$here/pra-portal.service" "$root/etc/systemd/system/pra-portal.service"
mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
ln -s /etc/systemd/system/pra-portal.service "$root/etc/systemd/system/multi-user.target.wants/"
echo pra-portal-boot-check >"$root/etc/hostname"

db="pra_boot_$$_$(date +%s)"
psql "$pg_url" -qc "create database $db" >/dev/null
port="$(pra_free_port)"
# .env.example with the required settings filled in (and the port), nothing else changed.
declare -A settings=(
  [PORT]="$port"
  [PUBLIC_URL]=https://portal.boot-check.example
  [DATABASE_URL]="${pg_url%/*}/$db"
  [SMTP_URL]=smtp://127.0.0.1:9
  [MAIL_FROM]=portal@boot-check.example
  [SESSION_SECRET]="$(openssl rand -hex 32)"
  [DATA_ENCRYPTION_KEY]="$(openssl rand -hex 32)"
  [SAML_SP_KEY_FILE]=/run/credentials/pra-portal.service/sp.key
  [SAML_SP_CERT_FILE]=/run/credentials/pra-portal.service/sp.crt
  [IDP]=builtin
)
env_file="$root/etc/pra-portal/pra-portal.env"
cp "${folders[0]}.env.example" "$env_file"
chmod 0600 "$env_file"
for key in "${!settings[@]}"; do
  grep -qE "^(# )?$key=" "$env_file" || fail ".env.example has no $key"
  sed -i -E "0,/^(# )?$key=.*/s||$key=${settings[$key]}|" "$env_file"
done

t1=$SECONDS
systemd-nspawn -D "$root" --boot --register=no --keep-unit --machine=pra-portal-boot-check \
  >"$root.boot.log" 2>&1 &
nspawn_pid=$!
ready=""
for _ in $(seq 1 120); do
  if [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/readyz")" = 200 ]; then
    ready=yes
    break
  fi
  kill -0 "$nspawn_pid" 2>/dev/null || fail "the container stopped (log: $root.boot.log)"
  sleep 1
done
[ -n "$ready" ] || fail "/readyz did not answer 200 within 120 s of the boot"
say "booted; the unit's portal answers /readyz 200 after $((SECONDS - t1))s"

# The container's systemd (PID 1 inside), for systemctl; the portal's process, for its sandbox.
init="$(pgrep -P "$nspawn_pid" | head -n 1)"
in_container() { nsenter -t "$init" -a "$@"; }
host_pid=""
for pid in $(pgrep -f '/opt/pra-portal/current/server.mjs'); do
  [ "$(readlink "/proc/$pid/ns/pid")" = "$(readlink "/proc/$init/ns/pid")" ] && host_pid="$pid"
done
[ -n "$host_pid" ] || fail "cannot find the portal's process"
status="$(cat "/proc/$host_pid/status")"
uid="$(awk '/^Uid:/ { print $2 }' <<<"$status")"
[ "$uid" != 0 ] || fail "the portal runs as root"
grep -qE '^CapEff:[[:space:]]+0+$' <<<"$status" || fail "the portal has capabilities"
grep -qE '^CapBnd:[[:space:]]+0+$' <<<"$status" || fail "the capability bounding set is not empty"
grep -qE '^NoNewPrivs:[[:space:]]+1$' <<<"$status" || fail "no_new_privs is not set"
grep -qE '^Seccomp:[[:space:]]+2$' <<<"$status" || fail "no seccomp filter"
say "the portal runs as uid $uid (dynamic), no capabilities, no_new_privs, seccomp filter"

t1=$SECONDS
in_container systemctl stop pra-portal.service
result="$(in_container systemctl show -P Result pra-portal.service)"
code="$(in_container systemctl show -P ExecMainStatus pra-portal.service)"
[ "$result" = success ] && [ "$code" = 0 ] || fail "systemctl stop: result $result, exit $code"
say "systemctl stop: exit 0 after $((SECONDS - t1))s"

in_container systemctl poweroff >/dev/null 2>&1 || true
wait "$nspawn_pid" 2>/dev/null || true
nspawn_pid=""
rm -rf "$root" "$root.debootstrap.log" "$root.boot.log"
say "all checks passed in $((SECONDS - t0))s"
