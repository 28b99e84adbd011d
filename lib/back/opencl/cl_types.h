// OpenCL C spellings of IR types, and the identifiers OpenCL C reserves.
#pragma once

#include <string>

#include "ir/ir.h"

namespace mslport::back::opencl {

// "float4", "__global const uint*", "Params". Arrays: use cl_declaration.
// half and bfloat print as their storage ("ushort"): raising leaves none as values.
std::string cl_type_name(const ir::Module& m, const ir::Type& t);
// "float name[8]", "__local float* name".
std::string cl_declaration(const ir::Module& m, const ir::Type& t, const std::string& name);
// Keywords and type names of OpenCL C 1.2 and functions the printer emits
// under names Metal code did not use: a Metal name among them is renamed.
bool is_reserved_identifier(const std::string& name);

}  // namespace mslport::back::opencl
