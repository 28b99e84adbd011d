// Kernel names (parameters, variables, threadgroup allocations) that the
// emitted C++ uses for its own locals (`g`, the threadgroup index in the
// entry's loop; `geo`, `wi`, `lx`, `st`, ...) get a trailing underscore, so
// that a Metal parameter named `g` is not silently read as the threadgroup
// index. The OpenCL backend's step of the same name does this for OpenCL C.
#pragma once

#include "ir/ir.h"

namespace mslport::back::openmp {

void rename_reserved(ir::Module& m);

}  // namespace mslport::back::openmp
