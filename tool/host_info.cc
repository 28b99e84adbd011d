// `mslport --include-dir`, `--cxx`, `--cflags`, `--python-dir`: where this
// installation's files are, and how to build emitted C++ exactly as
// `mslport check` does (runtime/emitted_cxx.h).
#include <iostream>

#include "commands.h"
#include "runtime/emitted_cxx.h"
#include "support/install_paths.h"
#include "support/subprocess.h"

namespace mslport::tool {

int print_host_info(HostInfo what) {
  if (what == HostInfo::PythonDir) {
    std::cout << install_paths().python() << "\n";
    return 0;
  }
  runtime::EmittedCxx cxx;
  std::string error;
  if (!runtime::emitted_cxx(&cxx, &error)) {
    std::cerr << "mslport: error: " << error << "\n";
    return 1;
  }
  switch (what) {
    case HostInfo::IncludeDir: std::cout << cxx.include_dir << "\n"; break;
    case HostInfo::Cxx: std::cout << cxx.compiler << "\n"; break;
    // One line, each flag quoted as a POSIX shell needs it.
    case HostInfo::Cflags: std::cout << display_command(cxx.flags) << "\n"; break;
    case HostInfo::PythonDir: break;
  }
  return 0;
}

}  // namespace mslport::tool
