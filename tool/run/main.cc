// mslport-run: checks committed targets/ against golden/ without translating.
// Links the runtime only (no libclang), so a user's CI image stays small.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <set>
#include <unistd.h>

#include "runtime/check_emitted.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  CLI::App app{"mslport-run: check committed targets/ (openmp/*.cpp, opencl/*.cl) against golden cases"};
  std::string targets_dir = "targets", target = "all", work_dir;
  mslport::runtime::CheckRequest req;
  app.add_option("--targets", targets_dir, "Directory written by `mslport regen`")->capture_default_str();
  app.add_option("--golden", req.golden_dir, "Golden cases directory")->capture_default_str();
  app.add_option("--target", target, "openmp, opencl or all")
      ->check(CLI::IsMember({"openmp", "opencl", "all"}))
      ->capture_default_str();
  app.add_option("--platform", req.platform, "OpenCL platform name substring (default: first platform)");
  app.add_option("--kernel", req.kernels, "Only these kernels");
  app.add_option("--format", req.format, "table or json")->check(CLI::IsMember({"table", "json"}))->capture_default_str();
  app.add_option("--work-dir", work_dir, "Where emitted code is built (default: a temp dir)");
  CLI11_PARSE(app, argc, argv);

  req.targets = target == "all" ? std::vector<std::string>{"openmp", "opencl"} : std::vector<std::string>{target};
  fs::path work = work_dir.empty() ? fs::temp_directory_path() / ("mslport-run-" + std::to_string(::getuid()))
                                   : fs::path(work_dir);
  req.build_dir = (work / "build").string();
  std::set<std::string> stems;
  std::error_code ec;
  for (auto sub : {"openmp", "opencl"}) {
    fs::path d = fs::path(targets_dir) / sub;
    if (!fs::is_directory(d, ec)) continue;
    for (auto& e : fs::directory_iterator(d)) {
      std::string name = e.path().filename().string();
      auto ext = e.path().extension().string();
      if (ext == ".cpp" || ext == ".cl") stems.insert(e.path().stem().string());
    }
  }
  if (stems.empty()) {
    std::cerr << "mslport-run: error: no emitted files under " << targets_dir << "/openmp or " << targets_dir
              << "/opencl\n";
    return 2;
  }
  for (auto& stem : stems) {
    mslport::runtime::EmittedFiles f;
    f.source = stem;
    fs::path cpp = fs::path(targets_dir) / "openmp" / (stem + ".cpp");
    fs::path cl = fs::path(targets_dir) / "opencl" / (stem + ".cl");
    fs::path bindings = fs::path(targets_dir) / "opencl" / (stem + ".bindings.json");
    if (fs::exists(cpp)) f.cpp = cpp.string();
    if (fs::exists(cl)) {
      f.cl = cl.string();
      f.bindings = bindings.string();
    }
    req.modules.push_back(f);
  }
  return mslport::runtime::check_emitted(req, false);
}
