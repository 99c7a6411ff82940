#!/bin/bash
# Installs what bench/webgl_side_by_side.py needs for its TF.js side and is not part of CI's
# install: Debian's chromium (playwright-core drives it; no browser is downloaded) and this
# folder's node_modules (TF.js 4.22.0, playwright-core) from package-lock.json.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
packages=()
[ -x /usr/bin/chromium ] || packages+=(chromium)
# As scripts/install-deps.sh: a newer Node.js bundles its own npm, which conflicts with Debian's.
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
# Mesa's llvmpipe is what both sides must run on.
dpkg -s libgl1-mesa-dri >/dev/null 2>&1 || packages+=(libgl1-mesa-dri)
if [ ${#packages[@]} -gt 0 ]; then
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${packages[@]}"
fi
cd "$here"
npm ci --no-audit --no-fund
echo "bench/webgl: $(chromium --version 2>/dev/null), TF.js $(node -p "require('./node_modules/@tensorflow/tfjs/package.json').version"), playwright-core $(node -p "require('./node_modules/playwright-core/package.json').version")"
