#!/usr/bin/env bash
# Installs what is needed, builds, and opens the bundled sample model in the desktop app. The
# README's first command.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash scripts/install-deps.sh
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=true
cmake -S . -B build -G Ninja -DBUILD_TESTING=OFF >/dev/null
cmake --build build --target tfjs-inspector tfjsi

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "quickstart: no display here, so instead of the window, this is what the app opens:" >&2
  exec ./build/app/tfjsi info resources/sample
fi
exec ./build/app/inspector/tfjs-inspector resources/sample
