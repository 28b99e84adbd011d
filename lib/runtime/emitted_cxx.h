// How emitted C++/OpenMP is compiled. One list of flags for `mslport check`
// (which adds only what makes a module the runner can dlopen) and for users
// (`mslport --cxx`, `mslport --cflags`, the CMake package's
// mslport_translate), so a host builds a kernel exactly as check validated it.
#pragma once

#include <string>
#include <vector>

namespace mslport::runtime {

struct EmittedCxx {
  std::string compiler;            // MSLPORT_CXX, else the one chosen at build time (clang++-19 when present)
  std::string include_dir;         // the directory holding mslport/kernel_abi.h
  std::vector<std::string> flags;  // compile flags, ending with -I include_dir
};

// false, with a message, when the runtime headers are not where this
// program expects them (support/install_paths.h; MSLPORT_INCLUDE_DIR).
bool emitted_cxx(EmittedCxx* out, std::string* error);

// What check adds to `flags` for a module it dlopens: a shared object with
// the runner's table of kernels (MSLPORT_RUNNER_MODULE).
std::vector<std::string> runner_module_flags();

}  // namespace mslport::runtime
