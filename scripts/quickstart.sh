#!/usr/bin/env bash
# Installs what is needed, builds, and opens the bundled sample model. The README's first command.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DBUILD_TESTING=OFF >/dev/null
cmake --build build --target tfjsi

# The desktop app is not built yet (see the issues); until it is, "opening" the sample model
# means showing what tfjsi sees in it.
./build/app/tfjsi info resources/sample
