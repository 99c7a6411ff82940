#!/usr/bin/env bash
# Memory stability over many runs: `tfjsi memcheck MODEL --runs N --json` on five corpus models
# (handtrack has control flow: TF1 loops and TensorArrays), first on the cpu backend, then
# switching backend on every run (--switch, the backends `tfjsi env` says are available).
# Prints a Markdown table: live tensors and bytes before the first and after the last run, the
# distinct (tensors, bytes) values seen after runs on each backend once every backend has run,
# and resident memory after the first and the last run. "stable": memcheck's own verdict (each
# run leaves the same tensors and bytes once every backend has run), one level per backend, and
# no leaked tensor. Weights copied to a backend on its first run count in "after", not "before".
#
# usage: bench/memcheck.sh [--tfjsi PATH] [--runs N] [MODEL...]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tfjsi="$root/build/app/tfjsi"
runs=100
models=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tfjsi) tfjsi=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) models+=("$1"); shift ;;
  esac
done
corpus=${TFJSI_CORPUS_DIR:-${TFJSI_CACHE_DIR:-$HOME/.cache/tfjs-inspector}/corpus/human-models-3.0.4/package/models}
[ ${#models[@]} -gt 0 ] || models=(handtrack blazeface emotion iris selfie)

switch=$("$tfjsi" env --json | python3 -c '
import json, sys
env = json.load(sys.stdin)
ok = {b["name"] for b in env["backends"] if b["available"]}
print(",".join(b for b in ("cpu", "xnnpack", "gl") if b in ok))')

echo "| model | backends | runs | tensors before -> after | bytes before -> after | (tensors, bytes) after runs, per backend | RSS first -> last run (KiB) | stable |"
echo "|---|---|---|---|---|---|---|---|"
for m in "${models[@]}"; do
  file=$m
  [ -f "$file" ] || file="$corpus/$m.json"
  for mode in cpu "$switch"; do
    args=(memcheck "$file" --runs "$runs" --json)
    if [ "$mode" = cpu ]; then args+=(--backend cpu); else args+=(--switch "$mode"); fi
    if ! out=$("$tfjsi" "${args[@]}" 2>/tmp/memcheck.$$.err); then
      echo "| $m | $mode | - | error: $(tail -1 /tmp/memcheck.$$.err) | | | | no |"
      continue
    fi
    MODEL=$m MODE=$mode python3 -c '
import json, os, sys
j = json.load(sys.stdin)
runs = j["per_run"]
backends = sorted({r["backend"] for r in runs})
# After every backend has run once, each backend should come back to one level.
warm = runs[len(backends):] or runs
seen = {b: sorted({(r["tensors"], r["bytes"]) for r in warm if r["backend"] == b}) for b in backends}
levels = "; ".join(f"{b}: " + ", ".join(f"({t}, {n})" for t, n in v) for b, v in seen.items())
flat = all(len(v) == 1 for v in seen.values())
# Resident memory should stop growing: compare the middle run with the last.
half = runs[len(runs) // 2]["rss_kb"]
ok = j["stable"] and flat and not j["leaked"]
cells = [os.environ["MODEL"], ",".join(backends), j["runs"],
         "%s -> %s" % (j["tensors_before"], j["tensors_after"]),
         "%s -> %s" % (j["bytes_before"], j["bytes_after"]), levels,
         "%s -> %s (%+d in the second half)" % (j["rss_kb_first"], j["rss_kb_last"], j["rss_kb_last"] - half),
         "yes" if ok else "NO"]
print("| " + " | ".join(str(c) for c in cells) + " |")' <<<"$out"
  done
done
rm -f /tmp/memcheck.$$.err
