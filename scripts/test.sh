#!/usr/bin/env bash
# Installs what is needed, builds, and runs every test. This is the README's test command and
# the only thing .ci/run calls. Three passes, each a build folder of its own:
#   1. the normal build (RelWithDebInfo) and the whole suite;
#   2. the same suite built with AddressSanitizer and UndefinedBehaviorSanitizer (any report fails),
#      the suites that run every corpus model on the 11 that hold all its op types
#      (tests/corpus.cmake);
#   3. the libFuzzer targets, each for TFJSI_FUZZ_SECONDS (default 20).
#   TFJSI_BUILD_DIR  folder of pass 1 (default: build)
#   TFJSI_SANITIZE   1 (default): passes 1 and 2; 0: pass 1 only; only: pass 2 only
#   TFJSI_FUZZ       1 (default): pass 3; 0: skip it
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# Seconds per step, printed last (also when a step fails) so that CI's tail shows where the
# time went: wall time, and the CPU time of the step's processes that ended (user + system:
# this shell's cutime + cstime in /proc), which shows what a step costs even on a machine shared
# with other work.
steps=() step_start=$SECONDS step_cpu=0
clock_ticks=$(getconf CLK_TCK)
children_cpu() { awk -v hz="$clock_ticks" '{ sub(/^.*\) /, ""); printf "%d", ($14 + $15) / hz }' /proc/$$/stat; }
step_done() {
  local cpu
  cpu=$(children_cpu)
  steps+=("$1 $((SECONDS - step_start))s (cpu $((cpu - step_cpu))s)")
  step_start=$SECONDS step_cpu=$cpu
}
trap 'echo "test: seconds per step: ${steps[*]:-none finished}; total ${SECONDS}s" >&2' EXIT

bash scripts/install-deps.sh
step_done install

# Let ccache share objects between checkouts in different folders (a fresh clone hits the cache
# of an earlier one): paths are hashed relative to the source root.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=true

corpus=$(bash tests/fetch-corpus.sh)
reference=$(bash tests/reference/make-data.sh)
ops=$(bash tests/ops/make-ops.sh)
step_done test-data

# configure_build_test DIR SANITIZE [CMAKE ARGS...]: configure, build and run the whole suite in DIR.
# BUILD_TESTING=ON is given every time: scripts/quickstart.sh configures build/ with it OFF, and
# a cached OFF would otherwise build no test at all. --no-tests=error: a pass that finds no test
# fails instead of passing as green.
configure_build_test() {
  local dir=$1 sanitize=$2
  shift 2
  cmake -S . -B "$dir" -G Ninja -DBUILD_TESTING=ON -DTFJSI_SANITIZE="$sanitize" "$@" \
    -DTFJSI_CORPUS_DIR="$corpus" -DTFJSI_REFERENCE_DIR="$reference" -DTFJSI_OPS_DIR="$ops" >/dev/null
  cmake --build "$dir"
  step_done "$dir:build"
  # GUI and GL tests need a display; xvfb-run gives them one even where no X server runs.
  # -noreset: by default the server resets when its last client leaves, and a suite connecting
  # during that reset is dropped ("could not connect to display") although the server is fine.
  xvfb-run -a -s "-screen 0 1280x800x24 -noreset" \
    ctest --test-dir "$dir" --output-on-failure --no-tests=error -j "$(nproc)" --timeout 900
  step_done "$dir:tests"
}

sanitize="${TFJSI_SANITIZE:-1}"
if [ "$sanitize" != only ]; then
  echo "test: the suite, normal build" >&2
  configure_build_test "${TFJSI_BUILD_DIR:-build}" OFF
fi
if [ "$sanitize" = 1 ] || [ "$sanitize" = only ]; then
  echo "test: the suite under AddressSanitizer and UndefinedBehaviorSanitizer (models run:" \
    "the 11 of TFJSI_SANITIZE_RUN_MODELS in tests/corpus.cmake)" >&2
  # clang, not GCC: the same checks in less time. GCC spent 1.7x clang's CPU time on the same
  # sanitized files (four engine files: 77 s against 46 s), and the whole clang build took 42
  # CPU-minutes against 37 for the normal GCC one. The normal pass keeps GCC, so both compilers
  # see the code.
  configure_build_test build-asan ON -DCMAKE_CXX_COMPILER=clang++
fi

# The fuzz targets (clang + libFuzzer, ASan, UBSan), each run for TFJSI_FUZZ_SECONDS (default 20);
# a crash fails and leaves its input in build-fuzz/artifacts/. TFJSI_FUZZ=0 skips them.
if [ "${TFJSI_FUZZ:-1}" = 1 ]; then
  CC=clang CXX=clang++ cmake -S tests/fuzz -B build-fuzz -G Ninja \
    -DTFJSI_FUZZ_SECONDS="${TFJSI_FUZZ_SECONDS:-20}" \
    -DTFJSI_CORPUS_DIR="$corpus" -DTFJSI_REFERENCE_DIR="$reference" >/dev/null
  cmake --build build-fuzz
  step_done build-fuzz:build
  ctest --test-dir build-fuzz --output-on-failure --no-tests=error -j "$(nproc)"
  step_done build-fuzz:run
fi
