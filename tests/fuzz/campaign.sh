#!/usr/bin/env bash
# The long fuzz campaign: every target in turn, SECONDS each, at the lowest CPU priority, on the
# corpora that the bounded CTest runs also grow. Summaries go to BUILD/campaign/summary.txt.
#   tests/fuzz/campaign.sh BUILD_DIR SECONDS [TARGET...]
set -uo pipefail
build=$(cd "$1" && pwd) seconds=$2
shift 2
targets=("$@")
((${#targets[@]})) || targets=(model_json bundle graphdef keras npy)
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$build/campaign"
[ -d "$build/seeds" ] || python3 "$here/make_seeds.py" --out "$build/seeds" --hand "$here/seeds" \
  --corpus "${TFJSI_CORPUS_DIR:?set TFJSI_CORPUS_DIR}" --reference "${TFJSI_REFERENCE_DIR:?}"
for t in "${targets[@]}"; do
  log="$build/campaign/$t-$(date +%Y%m%d-%H%M%S).log"
  TFJSI_FUZZ_LOG="$log" nice -n 19 "$here/run_fuzzer.sh" "$build/fuzz_$t" "$t" "$build" "$seconds" \
    >/dev/null 2>&1
  rc=$?
  line=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  echo "$(date -u +%FT%TZ) $t ${seconds}s exit=$rc $line" | tee -a "$build/campaign/summary.txt"
done
