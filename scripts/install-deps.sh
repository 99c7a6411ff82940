#!/usr/bin/env bash
# Installs everything tfjs-inspector needs to build, test and run, from Debian 12's packages.
# Idempotent: packages already present are skipped by apt.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build ccache pkg-config clang-format git lld
  # the fuzz targets (tests/fuzz): clang, libFuzzer and the sanitizers; python3 makes the seeds
  clang libclang-rt-14-dev python3
  # Qt 6 (Widgets, OpenGL, OpenGLWidgets, Test) and its xcb platform plugin
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-qpa-plugins
  # engine libraries
  nlohmann-json3-dev libxnnpack-dev libpthreadpool-dev libxxhash-dev libstb-dev
  # OpenGL: EGL for headless compute, epoxy for entry points, Mesa's llvmpipe driver
  libepoxy-dev libegl-dev libgl-dev libopengl-dev libgl1-mesa-dri libegl-mesa0
  # viewers and graph layout
  libimgui-dev libgraphviz-dev
  # a display for the GUI and its tests
  xvfb xauth
)
# The test oracle (real TF.js) and the model corpus come from npm. A machine may already carry a
# newer Node.js whose package bundles npm (and conflicts with Debian's npm): use it when present.
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "install-deps: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
