#!/usr/bin/env bash
# Makes the op conformance data (tests/ops/gen/make-cases.mjs: single-op graph models for every
# op of TF.js's converter, with real TF.js 4.22's outputs) and prints the folder that holds it;
# progress goes to stderr. The folder is
# ${TFJSI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tfjs-inspector}/ops/<hash>, <hash> covering
# tests/ops/gen, the reference package's lock file and the lib/ it borrows, so the data is made
# again exactly when one of them changes. It uses tests/reference's node_modules (make-data.sh
# installs them) and leaves nothing behind on error.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ref=$(cd "$here/../reference" && pwd)
cache="${TFJSI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tfjs-inspector}"
log() { echo "make-ops: $*" >&2; }

if [ ! -d "$ref/node_modules/@tensorflow/tfjs-converter" ]; then
  log "tests/reference has no node_modules: running tests/reference/make-data.sh first"
  bash "$ref/make-data.sh" >/dev/null
fi

hash=$(
  {
    (cd "$here" && find gen -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
    (cd "$ref" && sha256sum package-lock.json lib/fsio.mjs lib/npy.mjs lib/inputs.mjs)
  } | sha256sum | cut -c1-16
)
out="$cache/ops/$hash"
if [ -f "$out/.complete" ]; then
  log "reusing $out"
  echo "$out"
  exit 0
fi
mkdir -p "$cache/ops"
exec 9>"$cache/ops/.lock"
flock 9
if [ -f "$out/.complete" ]; then
  log "reusing $out"
  echo "$out"
  exit 0
fi
start=$(date +%s)
tmp="$out.tmp.$$"
rm -rf "$tmp"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
log "making $out"
node "$here/gen/make-cases.mjs" "$tmp" >&2
rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
touch "$out/.complete"
log "done in $(( $(date +%s) - start )) s"
echo "$out"
