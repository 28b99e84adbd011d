// OpenCL C spellings of IR types.
#pragma once

#include <string>

#include "ir/ir.h"

namespace mslport::back::opencl {

// "float4", "__global const uint*", "Params". Arrays: use cl_declaration.
// half and bfloat print as their storage ("ushort"): raising leaves none as values.
std::string cl_type_name(const ir::Module& m, const ir::Type& t);
// "float name[8]", "__local float* name".
std::string cl_declaration(const ir::Module& m, const ir::Type& t, const std::string& name);

}  // namespace mslport::back::opencl
