#!/usr/bin/env bash
# Installs every dependency mslport needs, from Debian 12 packages only.
# This list is the one place dependencies are named.
set -euo pipefail
PACKAGES=(
  build-essential cmake git diffutils
  libclang-19-dev llvm-19-dev      # front end: libclang's C API
  llvm-19-tools                    # FileCheck + lit for the diagnostics tests
  strace                           # kills regen at each step in tests (fault injection)
  clang-19 libomp-19-dev           # compiles emitted C++/OpenMP (LLVM vectorises work-item loops)
  libfmt-dev libcli11-dev nlohmann-json3-dev
  libtomlplusplus-dev              # the project file, mslport.toml (header-only)
  googletest libgtest-dev
  pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers clinfo   # OpenCL on the CPU
  python3-numpy                    # golden/gen: float64 reference implementations
  python3-matplotlib               # mslport bench --plot
  libjansson-dev                   # examples/host: the OpenCL host reads NAME.bindings.json
  bindgen rustc                    # tests: the emitted headers bind from Rust (bindgen)
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
