// The project file as the commands use it (support/project_file.h): which
// file, and how what it says combines with the command line. Command-line
// sources replace the project's; -I, -D and -U add to them;
// --function-constant, --golden, --targets and --platform override them;
// --Werror and the file's `werror` each turn the check on.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "support/project_file.h"

namespace mslport::tool {

struct ProjectOptions {
  std::string file;   // --project FILE
  bool none = false;  // --no-project (MSLPORT_NO_PROJECT)
};

// The project for this run: --project FILE, else none under --no-project,
// else the nearest mslport.toml from the current folder up. False after
// printing the errors of a project file that is unreadable or wrong.
bool resolve_project(const ProjectOptions& options, std::optional<ProjectFile>* out);

// The sources of a command: those of the command line if any, else the
// project's (its patterns expanded). Returns 0, or the exit status after
// printing why there are none: 2 when no project file was found (with a
// hint: `mslport init`, or `flag_hint`), 1 when the project file has no
// `sources` or a pattern names nothing.
int resolve_sources(const std::vector<std::string>& command_line, const std::optional<ProjectFile>& project,
                    const std::string& command, const std::string& flag_hint, std::vector<std::string>* out);

// Adds the project's -I, -D, -U, function constants and werror to
// `options` (the command line's -I, -D and -U after them, its function
// constants over them).
void apply_project(const ProjectFile& project, TranslateOptions* options);

// An absolute path from a project file as messages show it: relative to the
// current folder when inside it.
std::string shown_path(const std::string& absolute);

}  // namespace mslport::tool
