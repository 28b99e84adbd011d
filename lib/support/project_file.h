// The project file, mslport.toml: what `mslport check`, `regen`, `diff` and
// `bench` need to know about a kernel library (its sources, how they are
// compiled, where targets and golden cases live), so that the commands need
// no flags in the library's folder. The format is in docs/cli.md.
//
// Relative paths in the file resolve against the file's own folder. Command
// lines override or add to what it says (tool/project.cc).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "support/diagnostics.h"

namespace mslport {

constexpr const char* kProjectFileName = "mslport.toml";
// A project file is a page of settings; a larger one is not one.
constexpr size_t kMaxProjectFileBytes = 1 << 20;

struct ProjectFile {
  std::string path;  // the file, as found or given
  std::string dir;   // its folder, absolute; relative paths below resolve here
  // `sources`: globs (`*`, `?`, `**`), files or folders, as written.
  std::vector<std::string> sources;
  std::vector<std::string> include_dirs;  // absolute
  std::vector<std::string> defines, undefines;
  // Function constant values by name or index, as the C++ literals the
  // front end substitutes (true / false / a number, or a string as given).
  std::map<std::string, std::string> function_constants;
  bool werror = false;
  std::string targets_dir;  // absolute; empty when the file does not say
  std::string golden_dir;   // absolute; empty when the file does not say
  std::string platform;     // OpenCL platform name substring
};

// Parses a project file's text. Errors are reported at their place in
// `path` (`mslport.toml:3:11: error: ...`), unknown keys included (a typo
// must not be ignored); returns nullopt on any error.
std::optional<ProjectFile> parse_project_file(const std::string& path, const std::string& text, DiagEngine& diags);

// Reads and parses a project file (a regular file of at most
// kMaxProjectFileBytes).
std::optional<ProjectFile> load_project_file(const std::string& path, DiagEngine& diags);

// The nearest mslport.toml in `start` or a folder above it, as cargo finds
// Cargo.toml; empty when there is none.
std::string find_project_file(const std::string& start);

// The .metal files the `sources` patterns name, sorted, each once: a
// pattern with `*`, `?` or `**` (any number of folders) names the regular
// files it matches; a folder names every .metal file under it; a file names
// itself. Relative patterns resolve against `base`. A pattern that names
// nothing is an error (*error names it), as a missing --src is.
// Paths come back relative to `relative_to` where they lie under it
// (so emitted code and messages do not depend on where the tool ran), else
// absolute.
std::vector<std::string> expand_source_patterns(const std::vector<std::string>& patterns, const std::string& base,
                                                const std::string& relative_to, std::string* error);

// Whether `path` (components separated by '/') matches the glob `pattern`:
// `*` and `?` within one component, `**` as a whole component for any
// number of components (none included).
bool glob_match(const std::string& pattern, const std::string& path);

// `path` relative to `dir` when it lies inside it (or is it: "."), else
// `path` unchanged.
std::string path_inside(const std::string& path, const std::string& dir);

}  // namespace mslport
