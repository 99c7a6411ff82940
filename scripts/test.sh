#!/usr/bin/env bash
# Installs what is needed, builds, and runs every test. This is the README's test command and
# the only thing .ci/run calls.
#   TFJSI_BUILD_DIR  build folder (default: build)
#   TFJSI_SANITIZE=1 build with ASan+UBSan (in its own folder, default: build-asan)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash scripts/install-deps.sh

# Let ccache share objects between checkouts in different folders (a fresh clone hits the cache
# of an earlier one): paths are hashed relative to the source root.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=true

corpus=$(bash tests/fetch-corpus.sh)
reference=$(bash tests/reference/make-data.sh)

sanitize=OFF
build="${TFJSI_BUILD_DIR:-build}"
if [ "${TFJSI_SANITIZE:-0}" = 1 ]; then
  sanitize=ON
  build="${TFJSI_BUILD_DIR:-build-asan}"
fi

cmake -S . -B "$build" -G Ninja -DTFJSI_SANITIZE=$sanitize \
  -DTFJSI_CORPUS_DIR="$corpus" -DTFJSI_REFERENCE_DIR="$reference" >/dev/null
cmake --build "$build"

# GUI and GL tests need a display; xvfb-run gives them one even where no X server runs.
xvfb-run -a -s "-screen 0 1280x800x24" \
  ctest --test-dir "$build" --output-on-failure -j "$(nproc)" --timeout 900

# The fuzz targets (clang + libFuzzer, ASan, UBSan), each run for TFJSI_FUZZ_SECONDS (default 20);
# a crash fails and leaves its input in build-fuzz/artifacts/. TFJSI_FUZZ=0 skips them.
if [ "${TFJSI_FUZZ:-1}" = 1 ]; then
  CC=clang CXX=clang++ cmake -S tests/fuzz -B build-fuzz -G Ninja \
    -DTFJSI_FUZZ_SECONDS="${TFJSI_FUZZ_SECONDS:-20}" \
    -DTFJSI_CORPUS_DIR="$corpus" -DTFJSI_REFERENCE_DIR="$reference" >/dev/null
  cmake --build build-fuzz
  ctest --test-dir build-fuzz --output-on-failure -j "$(nproc)"
fi
