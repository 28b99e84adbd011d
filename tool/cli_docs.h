// What is made from the command line's own definition (the CLI11 app), so
// that it cannot drift from it: `mslport help COMMAND`'s list of commands,
// the shell completion scripts and the manual page.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace mslport::tool {

// "translate, ir, check, ..." in the order they are defined.
std::string command_list(const CLI::App& app);

// A completion script for `shell` ("bash" or "zsh"): commands, each
// command's options, the values of options that take one of a few, and
// file names elsewhere.
std::string completion_script(const CLI::App& app, const std::string& shell);

// The manual page, in roff (man(7)): the synopsis, every command and
// option from the app's help, the exit status, the environment, the
// project file. Written to `output` (atomically), or stdout when empty.
// Returns the exit status.
int write_man_page(const CLI::App& app, const std::string& output);
std::string man_page(const CLI::App& app);

}  // namespace mslport::tool
