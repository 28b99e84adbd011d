// Prints a raised module (raise/raise.h) as OpenCL C 1.2. Decides nothing:
// every construct it meets already has the target's shape.
#pragma once

#include <string>

#include "back/opencl/cl_kernel.h"

namespace mslport::back::opencl {

struct PrintOptions {
  std::string tool_version;
  std::string source_name;       // for the header comment
  bool line_directives = false;  // `#line N "file.metal"` before statements
};

std::string print_module(const RaisedModule& rm, const PrintOptions& options);

}  // namespace mslport::back::opencl
