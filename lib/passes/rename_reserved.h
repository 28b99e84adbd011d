// The one renamer (naga's proc/namer.rs): every Metal name that a target
// reserves gets a name of its own before a backend prints anything. Each
// backend supplies its reserved words (back/openmp/keywords.h,
// back/opencl/keywords.h); this pass only applies them.
#pragma once

#include <functional>
#include <string>

#include "ir/ir.h"

namespace mslport::passes {

// Where a Metal name is declared: what it can collide with in the output.
enum class NameScope {
  Struct,     // a struct type
  Field,      // a struct field (only macros reach it)
  Constant,   // a program-scope constant
  Kernel,     // a kernel function
  Parameter,  // a kernel parameter (in scope in the entry points too)
  Local,      // a variable or static threadgroup allocation of a kernel body
};

struct ReservedNames {
  // True when `name`, declared in `scope`, collides with a name of the
  // emitted code (a keyword, a macro, a name the backend declares itself).
  std::function<bool(const std::string& name, NameScope scope)> reserved;
  // Kernels keep their names (the OpenCL runtime finds a kernel by its Metal
  // name): a reserved one is reported by the backend instead of renamed.
  bool rename_kernels = true;
};

// Renames each reserved name to `name_`, or `m_name` when `name_` is
// reserved too (`as_x`, `mslport_x`), with more `_` until no name of the
// module has it; then a struct named as a kernel (the kernel keeps its
// name) likewise. Runs before any pass adds names:
// ir::add_var keeps those unique against the renamed ones.
void rename_reserved(ir::Module& m, const ReservedNames& names);

}  // namespace mslport::passes
