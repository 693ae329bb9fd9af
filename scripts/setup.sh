#!/usr/bin/env bash
# Prepares a fresh machine for `npm run demo` and `npm test`: the OS packages the in-editor harness needs (Chromium for
# the headless workbench and webview tests, the Kerberos headers that code-server's native module builds against), a
# current Node.js when the machine's is older, then the locked npm dependencies. code-server itself is installed on first use into ~/.cache/thought-explorer.
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

# The product needs Node.js 22 or newer; on an older machine Node (Debian's is 20) scripts/projectNode.mjs installs
# Node 24 LTS from the npm registry into ~/.cache/thought-explorer once, and npm ci (and later npm test) run on it.
echo "setup: npm ci"
node scripts/projectNode.mjs npm ci --no-audit --no-fund </dev/null
