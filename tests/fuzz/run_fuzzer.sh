#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time, starting from its seeds and its corpus so far.
#   run_fuzzer.sh FUZZER TARGET BUILD_DIR SECONDS [extra libFuzzer flags...]
# The corpus grows in BUILD_DIR/corpus/TARGET; a crashing input is left in
# BUILD_DIR/artifacts/TARGET/ and the run fails, naming it.
set -euo pipefail
fuzzer=$1 target=$2 build=$3 seconds=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
corpus="$build/corpus/$target"
artifacts="$build/artifacts/$target"
mkdir -p "$corpus" "$artifacts"
dict=()
[ -f "$here/dicts/$target.dict" ] && dict=(-dict="$here/dicts/$target.dict")

log="${TFJSI_FUZZ_LOG:-$build/fuzz-$target.log}"
set +e
"$fuzzer" "$corpus" "$build/seeds/$target" "${dict[@]}" -max_total_time="$seconds" \
  -max_len=65536 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
  -artifact_prefix="$artifacts/" -print_final_stats=1 "$@" >"$log" 2>&1
rc=$?
set -e
# The last status line holds the coverage (cov: edges, ft: features) and the corpus size.
grep -E '^#[0-9]+' "$log" | tail -n 1 || true
grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$log" || true
if [ $rc -ne 0 ]; then
  tail -n 60 "$log"
  echo "fuzz.$target: FAILED (exit $rc); reproducer(s):" >&2
  ls -1 "$artifacts"/* >&2 || true
  exit 1
fi
