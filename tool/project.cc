#include "project.h"

#include <filesystem>
#include <iostream>

namespace fs = std::filesystem;

namespace mslport::tool {

namespace {

// --no-project (or MSLPORT_NO_PROJECT) was given: messages say so rather
// than that no project file was found.
bool project_disabled = false;

std::string current_dir() {
  std::error_code ec;
  return fs::current_path(ec).string();
}

}  // namespace

std::string shown_path(const std::string& absolute) { return path_inside(absolute, current_dir()); }

bool resolve_project(const ProjectOptions& options, std::optional<ProjectFile>* out) {
  out->reset();
  std::string path = options.file;
  if (path.empty()) {
    if (options.none) {
      project_disabled = true;
      return true;
    }
    path = find_project_file(current_dir());
    if (path.empty()) return true;
    path = shown_path(path);
  }
  DiagEngine diags;
  *out = load_project_file(path, diags);
  diags.print_all(std::cerr);
  return out->has_value();
}

int resolve_sources(const std::vector<std::string>& command_line, const std::optional<ProjectFile>& project,
                    const std::string& command, const std::string& flag_hint, std::vector<std::string>* out) {
  if (!command_line.empty()) {
    *out = command_line;
    return 0;
  }
  if (!project) {
    if (project_disabled)
      ToolMessage(Severity::Error, "mslport " + command)
          << "no sources: no project file is read (--no-project or MSLPORT_NO_PROJECT); give " << flag_hint;
    else
      ToolMessage(Severity::Error, "mslport " + command)
          << "no sources: there is no " << kProjectFileName << " in " << current_dir()
          << " or a folder above it. Run `mslport init` to write one, or give " << flag_hint;
    return 2;
  }
  if (project->sources.empty()) {
    ToolMessage(Severity::Error, "mslport " + command)
        << project->path << " has no `sources`; add e.g. sources = [\"kernels/**/*.metal\"], or give " << flag_hint;
    return 1;
  }
  std::string err;
  *out = expand_source_patterns(project->sources, project->dir, current_dir(), &err);
  if (!err.empty()) {
    ToolMessage(Severity::Error, "mslport " + command) << project->path << ": " << err;
    return 1;
  }
  return 0;
}

void apply_project(const ProjectFile& project, TranslateOptions* options) {
  front::ParseOptions& p = options->parse;
  std::vector<std::string> dirs;
  for (const auto& d : project.include_dirs) dirs.push_back(shown_path(d));
  dirs.insert(dirs.end(), p.include_dirs.begin(), p.include_dirs.end());
  p.include_dirs = std::move(dirs);
  // The project's macros come first, so the command line's win: its
  // undefines, then its defines (undefining a predefined macro to define
  // it again is what both lists together can mean).
  std::vector<front::MacroOption> macros;
  for (const auto& u : project.undefines) macros.push_back(front::undefine_macro(u));
  for (const auto& d : project.defines) macros.push_back(front::define_macro(d));
  macros.insert(macros.end(), p.macros.begin(), p.macros.end());
  p.macros = std::move(macros);
  for (const auto& [name, value] : project.function_constants) p.function_constants.emplace(name, value);
  options->werror = options->werror || project.werror;
}

}  // namespace mslport::tool
