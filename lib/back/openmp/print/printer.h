// The C++/OpenMP printer: a raised module (raise/raise.h) as one .cpp and
// its .h. The module's header and the per-kernel code are printed apart:
//   module_printer.cc  the .h (for C: the generic entry points; for C++:
//                      the structs and the typed entry points) and the .cpp
//                      around the kernels (program-scope constants, the
//                      runner's table);
//   entry_points.cc    per kernel: the state struct, the threadgroup
//                      function around its body, the typed entry point that
//                      runs the threadgroups in parallel, the generic entry;
//   kernel_printer.cc  the body of the threadgroup function;
//   cpp_printer.cc     types and expressions.
#pragma once

#include <string>

#include "back/openmp/emit_openmp.h"
#include "back/openmp/raise/raise.h"

namespace mslport::back::openmp {

struct KernelText {
  std::string c_declaration;  // for the .h's C part: the generic entry, with its arguments by index
  std::string declaration;    // for the .h's C++ part: the typed entry point
  std::string definitions;    // for the .cpp
};

bool print_kernel(const RaisedModule& raised, size_t kernel, const EmitOptions& options, DiagEngine& diags,
                  KernelText* out);
bool print_module(const RaisedModule& raised, const EmitOptions& options, DiagEngine& diags, EmitResult* out);

}  // namespace mslport::back::openmp
