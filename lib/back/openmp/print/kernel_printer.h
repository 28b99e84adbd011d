// Prints the body of a kernel's threadgroup function as its plan says
// (raise/loop_plan.h): threadgroup-level statements once, each loop over
// the work-items in the variant the plan chose. It decides nothing.
#pragma once

#include <string>
#include <vector>

#include "back/openmp/emit_openmp.h"
#include "back/openmp/raise/raise.h"

namespace mslport::back::openmp {

struct ThreadgroupBody {
  std::string text;  // the statements, indented for the function body
  // Members of the threadgroup's state struct the body uses besides the
  // per-work-item variables: the collectives' per-lane operands and results.
  std::vector<std::string> state_members;
};

// False when something could not be printed (reported to `diags`).
bool print_threadgroup_body(const ir::Module& m, const ir::Kernel& k, const RaisedKernel& raised,
                            const EmitOptions& options, DiagEngine& diags, ThreadgroupBody* out);

// How a builtin's value is spelled where the work-item is lx, ly, lz (wi
// its index); `simd_groups`: in a loop over one SIMD group's lanes from
// mslport_sx (its lane is lx - mslport_sx).
std::string builtin_value(const ir::Param& p, bool simd_groups);

// "file.metal:line:col", the file without its directory, for comments and
// messages of the emitted code.
std::string loc_string(const ir::SourceLoc& l);
// `s` as a C++ string literal (quotes, backslashes and control characters escaped).
std::string cpp_string_literal(const std::string& s);
// `s` with its control characters replaced, to end a `//` comment.
std::string comment_text(const std::string& s);

}  // namespace mslport::back::openmp
