// The front end: parses a .metal file with libclang (C++ for OpenCL mode and
// the parse-only <metal_stdlib> in lib/front/metal_include) and builds the
// kernel IR. The only component that sees libclang.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "support/diagnostics.h"

namespace mslport::front {

struct ParseOptions {
  // Extra clang arguments (e.g. -D defines).
  std::vector<std::string> extra_args;
  // Directory holding the parse-only metal_stdlib; empty = the built-in one.
  std::string shim_dir;
};

// libclang parses on a thread of its own with an 8 MB stack, which clang's
// parser overflows on deeply nested input (it recurses once per `?:` of a
// chain). This makes libclang parse on the calling thread instead, whose
// stack mslport sizes for ir::kMaxNestingDepth (support/large_stack.h).
// It sets an environment variable that libclang reads (LIBCLANG_NOTHREADS):
// call it once at program start, before any other thread runs.
void parse_on_calling_thread();

// Returns nullopt when any error was reported to `diags` (clang's own
// diagnostics are passed through with the user's file:line:col).
std::optional<ir::Module> parse_metal_file(const std::string& path, DiagEngine& diags,
                                           const ParseOptions& options = {});

// Same, with the source text given in memory (path is used for diagnostics).
std::optional<ir::Module> parse_metal_source(const std::string& path, const std::string& text, DiagEngine& diags,
                                             const ParseOptions& options = {});

}  // namespace mslport::front
