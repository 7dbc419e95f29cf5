#!/usr/bin/env bash
# Checks deploy/systemd/pra-portal.service with systemd-analyze, installed as docs/OPERATIONS.md
# says, into a scratch root: the release unpacked into /opt/pra-portal/pra-portal-<version> with
# /opt/pra-portal/current linking to it, the Node.js LTS binary
# (deploy/common.sh: the npm registry's official build) at /usr/local/bin/node, the unit in
# /etc/systemd/system, and this machine's systemd units beside it (targets the unit names).
# `verify` must print nothing (a warning such as an unknown key fails too); `security` must
# rate the unit's exposure at most 2.0 (of 10).
#
#   deploy/systemd/verify.sh <release .tar.gz | unpacked release folder>
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
unit="$here/pra-portal.service"
# shellcheck source=deploy/common.sh
. "$repo/deploy/common.sh"
release="${1:?usage: $0 <release .tar.gz or folder>}"

if ! command -v systemd-analyze >/dev/null; then
  echo "systemd: installing systemd (for systemd-analyze)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd >/dev/null
fi

root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/etc/systemd/system" "$root/usr/lib/systemd" "$root/usr/local/bin" "$root/opt/pra-portal"
cp -a /usr/lib/systemd/system "$root/usr/lib/systemd/"
install -m 0644 "$unit" "$root/etc/systemd/system/pra-portal.service"
pra_install_node "$(pra_node_version)" "$root"
if [ -d "$release" ]; then
  cp -a "$release" "$root/opt/pra-portal/"
else
  tar -xzf "$release" -C "$root/opt/pra-portal"
fi
folders=("$root"/opt/pra-portal/pra-portal-*/)
[ "${#folders[@]}" = 1 ] && [ -f "${folders[0]}package.json" ] || {
  echo "systemd: FAILED: $release is not one release folder pra-portal-<version>" >&2
  exit 1
}
ln -s "$(basename "${folders[0]}")" "$root/opt/pra-portal/current"

# What ExecStart runs must be in the release (systemd checks only the executable).
read -r -a exec_start < <(sed -n 's/^ExecStart=//p' "$unit")
for path in "${exec_start[@]}"; do
  case "$path" in /*) [ -e "$root$path" ] || {
    echo "systemd: FAILED: ExecStart names $path, which the installed release lacks" >&2
    exit 1
  } ;; esac
done

out="$(systemd-analyze verify --root="$root" pra-portal.service 2>&1)" || {
  printf '%s\n' "$out" >&2
  echo "systemd: FAILED: systemd-analyze verify" >&2
  exit 1
}
if [ -n "$out" ]; then
  printf '%s\n' "$out" >&2
  echo "systemd: FAILED: systemd-analyze verify printed warnings" >&2
  exit 1
fi
echo "systemd: systemd-analyze verify: clean"

security="$(systemd-analyze security --offline=true --root="$root" --threshold=20 pra-portal.service 2>&1)" || {
  printf '%s\n' "$security" >&2
  echo "systemd: FAILED: exposure above 2.0" >&2
  exit 1
}
grep 'Overall exposure level' <<<"$security" | sed 's/^→ /systemd: /'
