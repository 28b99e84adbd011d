// The names Metal code may use that OpenCL C reserves: keywords, type names,
// the macros of OpenCL C, the prelude's names and the functions the printer
// calls under names the Metal source did not use (naga's back/*/keywords.rs).
// passes::rename_reserved renames them; a kernel keeps its name (the runtime
// finds it by its Metal name), so raise_kernel_interface reports a reserved one.
#pragma once

#include <string>

#include "passes/rename_reserved.h"

namespace mslport::back::opencl {

bool is_reserved_in_opencl(const std::string& name);
passes::ReservedNames opencl_reserved_names();

}  // namespace mslport::back::opencl
