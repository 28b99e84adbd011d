// `mslport init`: writes a project file, mslport.toml (support/project_file.h),
// for the kernels of the current folder: their sources as globs, and where
// targets and golden cases go. The file it writes is read back before it is
// kept, so init never leaves a project file the other commands refuse.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>

#include "commands.h"
#include "support/atomic_file.h"
#include "support/project_file.h"

namespace fs = std::filesystem;

namespace mslport::tool {

namespace {

// A TOML basic string.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string string_array(const std::vector<std::string>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + quoted(v[i]);
  return out + "]";
}

// Where the .metal files below `root` are, as globs: "*.metal" for those
// in it, "DIR/**/*.metal" for each folder holding some. Hidden folders,
// build folders and the targets and golden folders are not searched.
std::vector<std::string> find_sources(const fs::path& root, const std::set<std::string>& skip) {
  std::set<std::string> globs;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec)) {
      if (it.depth() == 0 && (skip.count(name) || name.rfind("build", 0) == 0)) it.disable_recursion_pending();
      if (!name.empty() && name[0] == '.') it.disable_recursion_pending();
      continue;
    }
    if (it->path().extension() != ".metal" || !it->is_regular_file(ec)) continue;
    fs::path rel = it->path().lexically_relative(root);
    auto first = rel.begin();
    if (std::next(first) == rel.end()) globs.insert("*.metal");
    else globs.insert(first->string() + "/**/*.metal");
  }
  return {globs.begin(), globs.end()};
}

}  // namespace

int run_init(const InitOptions& o) {
  std::error_code ec;
  const fs::path out(o.output);
  const fs::path dir = fs::absolute(out, ec).parent_path();
  if (fs::exists(out, ec) && !o.force) {
    ToolMessage(Severity::Error, "mslport init") << o.output << " exists (--force replaces it)";
    return 1;
  }
  std::vector<std::string> sources = o.sources;
  bool found = true;
  if (sources.empty()) {
    sources = find_sources(dir, {o.golden_dir, o.targets_dir});
    if (sources.empty()) {
      sources = {"*.metal"};
      found = false;
    }
  }
  std::string text;
  text += "# The project file of a Metal kernel library, for mslport (docs/cli.md#the-project-file).\n";
  text += "# Paths are relative to this file; command-line flags override or add to what it says.\n\n";
  text += "# The kernels: globs (*, ?, ** for any folders), files or folders.\n";
  text += "sources = " + string_array(sources) + "\n";
  text += "# How they are compiled: -I, -D (NAME or NAME=VALUE), -U, and --Werror (a kernel that cannot be\n";
  text += "# translated fails the command instead of being left out with a warning).\n";
  text += "include_dirs = " + string_array(o.include_dirs) + "\n";
  text += "defines = " + string_array(o.defines) + "\n";
  text += "werror = false\n\n";
  text += "# Where `mslport regen` writes the translations and `mslport diff` compares them.\n";
  text += "targets = " + quoted(o.targets_dir) + "\n";
  text += "# Where `mslport check` finds the golden cases: GOLDEN/KERNEL/CASE/case.json.\n";
  text += "golden = " + quoted(o.golden_dir) + "\n";
  text += "# The OpenCL platform `check` and `bench` use (a name substring; \"\" = the first).\n";
  text += "platform = \"\"\n\n";
  text += "# Function constants by name or [[function_constant(index)]]: NAME = true, 2 or 0.5.\n";
  text += "[function_constants]\n";
  // Read back before it is kept: what init writes, the commands accept.
  DiagEngine diags;
  if (!parse_project_file(o.output, text, diags)) {
    diags.print_all(std::cerr);
    ToolMessage(Severity::Error, "mslport init") << "the project file would not read back; nothing written";
    return 1;
  }
  std::string err;
  if (!write_file_atomic(o.output, text, &err)) {
    ToolMessage(Severity::Error, "mslport init") << err;
    return 1;
  }
  std::cerr << "mslport init: wrote " << o.output << " (sources: ";
  for (size_t i = 0; i < sources.size(); ++i) std::cerr << (i ? ", " : "") << sources[i];
  std::cerr << ")\n";
  if (!found)
    ToolMessage(Severity::Note, "mslport init")
        << "no .metal file below " << dir.string() << " yet: edit `sources` in " << o.output << " to name your kernels";
  std::cerr << "next: mslport new-case KERNEL, then mslport check\n";
  return 0;
}

}  // namespace mslport::tool
