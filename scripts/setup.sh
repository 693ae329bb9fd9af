#!/usr/bin/env bash
# Prepares a fresh machine for `npm run demo` and `npm test`: the OS packages the in-editor harness needs (Chromium for
# the headless workbench and webview tests, the Kerberos headers that code-server's native module builds against),
# then the locked npm dependencies. code-server itself is installed on first use into ~/.cache/thought-explorer.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
if ! command -v chromium >/dev/null 2>&1 && [ -z "${CHROMIUM_PATH:-}" ]; then missing+=(chromium); fi
if [ ! -e /usr/include/gssapi/gssapi.h ] && [ ! -e /usr/include/krb5.h ]; then missing+=(libkrb5-dev); fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing OS packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo -n"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update
  $sudo apt-get install -y "${missing[@]}" </dev/null
fi

node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 20 ]; then
  echo "setup: Node.js 20 or newer is required (found $(node -v))" >&2
  exit 1
fi

echo "setup: npm ci"
npm ci --no-audit --no-fund </dev/null
