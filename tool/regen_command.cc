// `mslport regen` and `mslport diff`: the targets/ tree is a pure function
// of the sources (Tint-style expectation files), regenerated all-or-nothing.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <unistd.h>

#include "commands.h"
#include "support/atomic_file.h"

namespace fs = std::filesystem;

namespace mslport::tool {

namespace {

// target-relative path -> content, for every source; false if any failed.
bool render_targets(const std::vector<std::string>& sources, bool line_directives,
                    std::map<std::string, std::string>* files) {
  bool ok = true;
  std::map<std::string, std::string> stems;
  for (auto& src : sources) {
    DiagEngine diags;
    Translation t;
    bool good = translate_file(src, Target::All, line_directives, diags, &t);
    diags.print_all(std::cerr);
    if (!good) {
      std::cerr << "mslport: error: " << src << " failed to translate\n";
      ok = false;
      continue;
    }
    if (stems.count(t.stem)) {
      std::cerr << "mslport: error: " << src << " and " << stems[t.stem] << " would both write '" << t.stem
                << ".*' in targets/\n";
      ok = false;
      continue;
    }
    stems[t.stem] = src;
    (*files)["openmp/" + t.stem + ".cpp"] = t.cpp;
    (*files)["openmp/" + t.stem + ".h"] = t.header;
    (*files)["opencl/" + t.stem + ".cl"] = t.cl;
    (*files)["opencl/" + t.stem + ".bindings.json"] = t.bindings;
  }
  return ok;
}

}  // namespace

int run_regen(const std::vector<std::string>& paths, const std::string& targets_dir, bool line_directives) {
  std::string err;
  auto sources = expand_sources(paths, &err);
  if (!err.empty()) {
    std::cerr << "mslport: error: " << err << "\n";
    return 1;
  }
  std::map<std::string, std::string> files;
  if (!render_targets(sources, line_directives, &files)) {
    std::cerr << "mslport: error: nothing written to " << targets_dir << "/ (fix the errors above)\n";
    return 1;
  }
  int written = 0, unchanged = 0;
  for (auto& [rel, content] : files) {
    fs::path p = fs::path(targets_dir) / rel;
    fs::create_directories(p.parent_path());
    std::string old;
    if (read_file(p.string(), &old) && old == content) {
      ++unchanged;
      continue;
    }
    if (!write_file_atomic(p.string(), content, &err)) {
      std::cerr << "mslport: error: " << err << "\n";
      return 1;
    }
    ++written;
  }
  std::cerr << "mslport regen: " << sources.size() << " sources, " << written << " files written, " << unchanged
            << " unchanged\n";
  return 0;
}

int run_diff(const std::vector<std::string>& paths, const std::string& targets_dir) {
  std::string err;
  auto sources = expand_sources(paths, &err);
  if (!err.empty()) {
    std::cerr << "mslport: error: " << err << "\n";
    return 1;
  }
  std::map<std::string, std::string> files;
  if (!render_targets(sources, false, &files)) return 1;
  int drifted = 0;
  fs::path tmpdir = fs::temp_directory_path() / ("mslport-diff-" + std::to_string(::getpid()));
  fs::create_directories(tmpdir);
  for (auto& [rel, content] : files) {
    fs::path committed = fs::path(targets_dir) / rel;
    std::string old;
    if (read_file(committed.string(), &old) && old == content) continue;
    ++drifted;
    fs::path fresh = tmpdir / fs::path(rel).filename();
    write_file_atomic(fresh.string(), content, &err);
    std::string cmd = "diff -u --label '" + committed.string() + " (committed)' --label '" + committed.string() +
                      " (regenerated)' '" + (fs::exists(committed) ? committed.string() : std::string("/dev/null")) +
                      "' '" + fresh.string() + "'";
    std::fflush(stdout);
    int rc = std::system(cmd.c_str());
    (void)rc;
  }
  fs::remove_all(tmpdir);
  if (drifted) {
    std::cerr << "mslport diff: " << drifted << " file(s) in " << targets_dir
              << "/ differ from what `mslport regen` would write\n";
    return 1;
  }
  std::cerr << "mslport diff: " << files.size() << " files up to date\n";
  return 0;
}

}  // namespace mslport::tool
