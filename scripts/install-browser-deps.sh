#!/usr/bin/env bash
# Installs what the browser tests of the dashboard viewer need (tests/browser/README.md):
# Debian's Chromium, Node.js and npm, then playwright-core and axe-core from npm.
# Idempotent: a second run installs nothing. playwright-core never downloads a browser of
# its own; the tests drive /usr/bin/chromium.
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

# package.json pins playwright-core and axe-core exactly and the lock file records them;
# npm ci installs just those. Skipped when every installed copy already has its pinned
# version, so a rerun makes no network request.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
cd "$repo/tests/browser"
installed_matches_pin() {
  node -e '
    const pins = require("./package.json").devDependencies;
    const stale = Object.keys(pins).filter((name) => {
      try {
        return require("./node_modules/" + name + "/package.json").version !== pins[name];
      } catch {
        return true;
      }
    });
    process.exit(stale.length ? 1 : 0);' 2>/dev/null
}
if installed_matches_pin; then
  exit 0
fi
if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
else
  npm install --no-audit --no-fund --loglevel=error
fi
