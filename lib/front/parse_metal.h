// The front end: parses a .metal file with libclang (C++ for OpenCL mode and
// the parse-only <metal_stdlib> in lib/front/metal_include) and builds the
// kernel IR. The only component that sees libclang.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "support/diagnostics.h"

namespace mslport::front {

struct MacroOption {
  enum class Kind { Define, Undefine } kind = Kind::Define;
  std::string text;  // NAME or NAME=VALUE; NAME for Undefine
  // As clang spells it: -DNAME=VALUE or -UNAME.
  std::string arg() const { return (kind == Kind::Define ? "-D" : "-U") + text; }
  bool operator==(const MacroOption& o) const { return kind == o.kind && text == o.text; }
};
inline MacroOption define_macro(std::string text) { return {MacroOption::Kind::Define, std::move(text)}; }
inline MacroOption undefine_macro(std::string name) { return {MacroOption::Kind::Undefine, std::move(name)}; }

struct ParseOptions {
  // -I directories, searched after the including file's directory for
  // "quoted" includes and first for <angled> ones (as clang does).
  std::vector<std::string> include_dirs;
  // -D NAME or NAME=VALUE, and -U NAME, in the order given, applied after
  // Metal's predefined macros (kPredefinedMacros): as clang does, a later
  // one wins (`-U __METAL_VERSION__ -D __METAL_VERSION__=310` redefines it).
  std::vector<MacroOption> macros;
  // Function constant values by name or index (`--function-constant`).
  std::map<std::string, std::string> function_constants;
  // Extra clang arguments.
  std::vector<std::string> extra_args;
  // Directory holding the parse-only metal_stdlib; empty = the installed one
  // (PREFIX/share/mslport/metal_include beside the program).
  std::string shim_dir;
};

// The macros a Metal compiler predefines, as mslport defines them: MSL 3.2
// on macOS with bfloat support. -U and -D on the command line change them.
inline const char* const kPredefinedMacros[] = {"__METAL_VERSION__=320", "__METAL_MACOS__=1", "__HAVE_BFLOAT__=1"};

// libclang parses on a thread of its own with an 8 MB stack, which clang's
// parser overflows on deeply nested input (it recurses once per `?:` of a
// chain). This makes libclang parse on the calling thread instead, whose
// stack mslport sizes for ir::kMaxNestingDepth (support/large_stack.h).
// It sets an environment variable that libclang reads (LIBCLANG_NOTHREADS):
// call it once at program start, before any other thread runs.
void parse_on_calling_thread();

// Returns nullopt when any error was reported to `diags` (clang's own
// diagnostics are passed through with the user's file:line:col).
// With `skipped`, a kernel that cannot be translated (an error inside it or
// inside a function it calls) is left out and listed there with its
// reasons instead; errors outside kernels still fail the file.
std::optional<ir::Module> parse_metal_file(const std::string& path, DiagEngine& diags, const ParseOptions& options = {},
                                           std::vector<SkippedKernel>* skipped = nullptr);

// Same, with the source text given in memory (path is used for diagnostics).
std::optional<ir::Module> parse_metal_source(const std::string& path, const std::string& text, DiagEngine& diags,
                                             const ParseOptions& options = {},
                                             std::vector<SkippedKernel>* skipped = nullptr);

}  // namespace mslport::front
