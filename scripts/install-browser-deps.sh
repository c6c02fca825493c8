#!/usr/bin/env bash
# Installs what the browser tests of the dashboard viewer need (tests/browser/README.md):
# Debian's Chromium, Node.js and npm, then playwright-core from npm. Idempotent: a second
# run installs nothing. playwright-core never downloads a browser of its own; the tests
# drive /usr/bin/chromium.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# A command that is already there counts as installed, whatever package brought it: a
# Node.js from another repository ships its own npm and conflicts with Debian's npm.
declare -A package_of_command=([chromium]=chromium [node]=nodejs [npm]=npm)

missing=()
for command in chromium node npm; do
  if ! command -v "$command" >/dev/null 2>&1; then
    missing+=("${package_of_command[$command]}")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-browser-deps: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# package.json pins playwright-core exactly and the lock file records it; npm ci installs
# just that. Skipped when the installed copy already has the pinned version, so a rerun
# makes no network request.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
cd "$repo/tests/browser"
installed_matches_pin() {
  node -e '
    const pinned = require("./package.json").devDependencies["playwright-core"];
    const installed = require("./node_modules/playwright-core/package.json").version;
    process.exit(pinned === installed ? 0 : 1);' 2>/dev/null
}
if installed_matches_pin; then
  exit 0
fi
if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
else
  npm install --no-audit --no-fund --loglevel=error
fi
