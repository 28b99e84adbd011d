// Recognition of Metal builtin functions by declaration: the shim declares
// them in namespace metal (metal::precise, metal::fast), so a call is a Metal
// builtin exactly when clang resolved it to a declaration there; its row of
// ir/intrinsic_table.def then says what it becomes. Names are never matched
// on user functions.
#pragma once

#include <clang-c/Index.h>

#include <string>

#include "front/front_context.h"

namespace mslport::front {

struct Callee {
  enum class Kind {
    Intrinsic,   // a Call of `intrinsic` (ir/intrinsic_table.def)
    Collective,  // SIMD-group function: `op`
    ThreadgroupBarrier,
    SimdgroupBarrier,
    AsType,             // as_type<T>(x) -> Bitcast
    Infinity,           // __builtin_inff() from the shim's INFINITY / HUGE_VALF
    NaN,                // __builtin_nanf("") from NAN
    Expect,             // __builtin_expect(x, c): clang's branch hint, the value x
    Assume,             // __builtin_assume(c): clang's hint, a statement with no effect
    VectorConstructor,  // the shim's __mslport_make_float4(...) for float4(...)
    Conversion,         // the shim's metal::__mslport_convert<T>(x) for (T)x
    SimdMatrix,         // simdgroup_load/store/multiply...
    OtherMetal,         // declared by the shim but with no IR form
    User,               // a function of the user's program
    Unknown,
  };
  Kind kind = Kind::Unknown;
  std::string name;  // Metal spelling
  ir::CollectiveOp op = ir::CollectiveOp::SimdSum;
  ir::Intrinsic intrinsic = ir::Intrinsic::None;
};

Callee classify_callee(const FrontContext& ctx, CXCursor fn_decl);

}  // namespace mslport::front
