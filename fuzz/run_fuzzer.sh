#!/usr/bin/env bash
# Runs one fuzz target over its corpus (fuzz/corpus/<target>) with perfgate's limits
# (docs/fuzzing.md): a single allocation over 1 GiB, 2 GiB resident or 10 s on one input is
# a finding, as a crash is. New inputs go to <work>/corpus, never into the repository;
# findings are written to <work>/findings/.
#
#   run_fuzzer.sh [--fresh] <fuzzer binary> <target> <work folder> [libFuzzer flags...]
#
# --fresh empties <work> first (the smoke run of make test); make fuzz keeps it, so a
# second run starts from what the first one found.
set -euo pipefail

fresh=0
if [ "${1:-}" = "--fresh" ]; then
  fresh=1
  shift
fi
fuzzer=$1 target=$2 work=$3
shift 3

here=$(cd "$(dirname "$0")" && pwd)
corpus="$here/corpus/$target"
case "$target" in
  *_toml | project_config | diff_config) dict="$here/dict/toml.dict" ;;
  *) dict="$here/dict/json.dict" ;;
esac

if [ "$fresh" -eq 1 ]; then rm -rf "$work"; fi
mkdir -p "$work/corpus" "$work/findings"
exec "$fuzzer" -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10 -dict="$dict" \
  -artifact_prefix="$work/findings/" -print_final_stats=1 "$@" "$work/corpus" "$corpus"
