#!/usr/bin/env bash
# Installs the Debian 12 packages perfgate needs to build, test and benchmark,
# and only those that are missing: a second run installs nothing.
set -euo pipefail
# --browser: also what the dashboard's browser tests need (Chromium, Node.js, npm and the
# pinned playwright-core): scripts/install-browser-deps.sh.
if [ "${1:-}" = "--browser" ]; then
  bash "$(dirname "${BASH_SOURCE[0]}")/install-deps.sh"
  exec bash "$(dirname "${BASH_SOURCE[0]}")/install-browser-deps.sh"
fi
# --fuzz: also clang and its libFuzzer runtime, for make fuzz (fuzz/, docs/fuzzing.md).
# make test does not need them: its fuzz smoke runs are part of the GCC test build.
fuzz=()
if [ "${1:-}" = "--fuzz" ]; then
  fuzz=(clang libclang-rt-14-dev)
fi

packages=(
  build-essential cmake ninja-build pkg-config
  nlohmann-json3-dev   # JSON model, canonical form for fingerprints
  libtomlplusplus-dev  # TOML configs and perfgate.toml
  libcli11-dev         # command-line parsing
  libfmt-dev           # formatting of tables and messages
  libssl-dev           # SHA-256 (fingerprints, input digests)
  libsqlite3-dev       # the default store (sqlite:PATH)
  zlib1g-dev           # gzipped result files (pyperf *.json.gz) for diff/import
  libsimdjson-dev      # diff: parses nvbench files of thousands of states in milliseconds
  libgit2-dev          # history: the commit graph and the archive branch
  libcpp-httplib-dev   # serve: the dashboard's HTTP server
  libboost-math-dev    # stats: Student's t distribution of the change points' tests
  libpq-dev            # the PostgreSQL store (postgresql://), through libpq
  libcurl4-openssl-dev # comment: the GitHub and GitLab REST APIs, through libcurl
  postgresql           # tests: a throwaway server (scripts/test-postgres.sh)
  git                  # tests build repositories with the git command line
  libgtest-dev libgmock-dev  # tests
  libbenchmark-dev     # bench/ micro-benchmarks
  hyperfine            # bench/: the peer we measure ourselves against
  valgrind             # instruction counts (run_config.measure = ["instructions"]) and their tests
  python3              # bench/run.sh: prints the ratios
  python3-numpy        # tests run the script diff --bulk-debug-python writes
)

missing=()
for p in "${packages[@]}" "${fuzz[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
