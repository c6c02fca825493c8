#!/usr/bin/env bash
# Installs what the checks of the CI files need (tests/ci/: docs/ci.md, "Checking the CI
# files"): Node.js and npm from Debian when missing, then the validators pinned in
# tests/ci/package.json, exactly as tests/ci/package-lock.json records them. Idempotent: when
# every pinned version is installed, it makes no network request.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# A command that is already there counts as installed, whatever package brought it: a
# Node.js from another repository ships its own npm and conflicts with Debian's npm.
declare -A package_of_command=([node]=nodejs [npm]=npm [git]=git [python3]=python3)

missing=()
for command in node npm git python3; do
  if ! command -v "$command" >/dev/null 2>&1; then
    missing+=("${package_of_command[$command]}")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-ci-deps: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cd "$repo/tests/ci"
installed_matches_pins() {
  node -e '
    const pins = require("./package.json").devDependencies;
    for (const [name, version] of Object.entries(pins)) {
      const installed = require(`./node_modules/${name}/package.json`).version;
      if (installed !== version) process.exit(1);
    }' 2>/dev/null
}
if installed_matches_pins; then
  exit 0
fi
npm ci --no-audit --no-fund --loglevel=error
