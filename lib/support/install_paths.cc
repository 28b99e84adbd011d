#include "support/install_paths.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace mslport {

namespace fs = std::filesystem;

InstallPaths install_paths_for(const std::string& exe) {
  InstallPaths p;
  const fs::path dir = fs::path(exe).parent_path();
  if (dir.empty() || !dir.has_parent_path()) return p;
  const fs::path root = dir.parent_path();
  p.root = root.string();
  p.include = (root / "include").string();
  p.share = (root / "share" / "mslport").string();
  return p;
}

InstallPaths install_paths() {
  std::error_code ec;
  // The program itself, links resolved: /usr/bin/mslport reached through a
  // link elsewhere still finds /usr/share/mslport.
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  InstallPaths p = ec ? InstallPaths{} : install_paths_for(exe.string());
  const char* inc = std::getenv("MSLPORT_INCLUDE_DIR");
  if (inc && *inc) p.include = inc;
  return p;
}

}  // namespace mslport
