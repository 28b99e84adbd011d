// The host-side description of each OpenCL kernel's arguments
// (docs/architecture.md, "OpenCL binding description").
#pragma once

#include <string>

#include "back/opencl/cl_kernel.h"

namespace mslport::back::opencl {

// `metal` is the module as given (its parameter names are the Metal ones);
// `raised` the module after raising. Stable, byte-identical across runs.
std::string bindings_json(const ir::Module& metal, const RaisedModule& raised, const std::string& source_name);

}  // namespace mslport::back::opencl
