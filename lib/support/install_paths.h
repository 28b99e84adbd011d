// Where mslport's own files are: the runtime headers emitted C++ includes,
// the parse-only Metal headers, the Python module, the plot script.
//
// They are found relative to the running program, never through a path
// compiled in: a program in PREFIX/bin (or any directory one level below
// the root) uses PREFIX/include and PREFIX/share/mslport, so an installed
// tree can be moved, or unpacked from the Debian package anywhere. The build
// tree is laid out the same way (CMakeLists.txt links build/include and
// build/share/mslport to the sources), so build/tool/mslport and
// build/tests/test_* work without installing.
#pragma once

#include <string>

namespace mslport {

struct InstallPaths {
  std::string root;     // PREFIX
  std::string include;  // PREFIX/include: holds mslport/kernel_abi.h
  std::string share;    // PREFIX/share/mslport
  std::string metal_include() const { return share + "/metal_include"; }
  std::string python() const { return share + "/python"; }
  std::string plot_script() const { return share + "/plot_bench.py"; }
};

// The layout around a program at `exe` (an absolute path): PREFIX is the
// parent of the program's directory.
InstallPaths install_paths_for(const std::string& exe);

// install_paths_for(the running program, from /proc/self/exe); the
// environment's MSLPORT_INCLUDE_DIR, when set, replaces `include`. Empty
// fields when the program's path cannot be read (the callers say which file
// they could not find).
InstallPaths install_paths();

}  // namespace mslport
