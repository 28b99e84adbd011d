// Step: structs keep Metal's layout (ir::StructDef offsets) in OpenCL. Both
// languages lay fields out naturally with 3-vectors 16 bytes wide, so this
// normally changes nothing; where a Metal offset is larger than OpenCL's
// natural one (`alignas`), the shared passes::pad_structs fills the gap.
#include "back/opencl/raise/raise.h"
#include "passes/struct_padding.h"

namespace mslport::back::opencl {

bool raise_struct_layout(RaiseContext& ctx) { return passes::pad_structs(ctx.module, ctx.diags, "OpenCL"); }

}  // namespace mslport::back::opencl
