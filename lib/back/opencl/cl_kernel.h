// What the OpenCL printer and the binding description need beyond the IR:
// the argument list of each OpenCL kernel. The raise steps build it; the
// printer prints it; bindings.cc describes it for the host (docs/architecture.md,
// "OpenCL binding description").
#pragma once

#include <vector>

#include "back/opencl/prelude.h"
#include "ir/ir.h"

namespace mslport::back::opencl {

struct ClArg {
  enum class Kind {
    Buffer,             // a Buffer / ConstantRef / ConstantValue param (a pointer after raising)
    ThreadgroupMemory,  // a ThreadgroupMemory param (`__local T*`)
    SimdScratch,        // `__local uint*` scratch for the SIMD-group emulation
    Grid,               // `uint4`: Metal's grid size in threads
    FunctionConstant,   // a FunctionConstant param, by value
  };
  Kind kind = Kind::Buffer;
  int param = -1;            // Buffer / ThreadgroupMemory / FunctionConstant: index into Kernel::params
  int var = -1;              // SimdScratch / Grid: index into Kernel::vars (declared by the signature)
  int bytes_per_thread = 0;  // SimdScratch
};

struct ClKernel {
  std::vector<ClArg> args;  // OpenCL argument i is args[i]
  int grid_var = -1;        // Kernel::vars index of the grid argument
};

// The module after raising: IR in the shape of OpenCL C plus what it needs.
struct RaisedModule {
  ir::Module module;
  std::vector<ClKernel> kernels;  // parallel to module.kernels
  Prelude prelude;                // helper functions the raised IR calls
};

}  // namespace mslport::back::opencl
