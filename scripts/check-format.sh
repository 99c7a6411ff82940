#!/usr/bin/env bash
# Fails, naming the files, when a tracked C++ file is not laid out as .clang-format says
# (fix with `clang-format -i FILE`). A ctest test (source.clang_format) runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null; then
  echo "clang-format is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
if ! files=$(git ls-files '*.cpp' '*.h' 2>/dev/null) || [ -z "$files" ]; then
  echo "not a git checkout: no list of tracked C++ files to check" >&2
  exit 1
fi
# shellcheck disable=SC2086 # one file name per word: tracked names hold no spaces
status=0
out=$(clang-format --dry-run -Werror $files 2>&1) || status=$?
bad=$(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error:.*/\1/p' <<<"$out" | sort -u)
if [ "$status" -ne 0 ] && [ -z "$bad" ]; then
  echo "clang-format failed:" >&2
  head -20 <<<"$out" >&2
  exit 1
fi
if [ -n "$bad" ]; then
  echo "not clang-formatted:" >&2
  echo "$bad" >&2
  exit 1
fi
echo "$(echo "$files" | wc -l) C++ files clang-formatted"
