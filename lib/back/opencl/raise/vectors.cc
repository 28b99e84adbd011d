// Step: vector accesses in OpenCL C's own form.
//  * v[2] with a constant index -> v.z (OpenCL C 1.2 defines only component
//    selection; a variable index stays v[i], which clang-based compilers accept).
//  * float4(i, j, k, l) with non-float lanes: each lane is converted first, as
//    OpenCL vector literals want lanes of the vector's element type.
#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"

namespace mslport::back::opencl {

void raise_vectors(RaiseContext& ctx, ir::Kernel& k) {
  rewrite_kernel_exprs(k, [&](ir::ExprPtr e) -> ir::ExprPtr {
    if (e->kind == ir::Expr::Kind::Index && e->args[0]->type.is_vector() &&
        e->args[1]->kind == ir::Expr::Kind::IntLit && e->args[1]->int_value >= 0 &&
        e->args[1]->int_value < e->args[0]->type.count) {
      int lane = (int)e->args[1]->int_value;
      return make_swizzle(std::move(e->args[0]), {lane});
    }
    if (e->kind == ir::Expr::Kind::VectorConstruct && e->type.is_vector()) {
      for (auto& a : e->args) {
        if (a->type.is_scalar() && a->type.scalar != e->type.scalar)
          a = make_cast(ir::Type::scalar_of(e->type.scalar), std::move(a));
        else if (a->type.is_vector() && a->type.scalar != e->type.scalar)
          a = make_cast(ir::Type::vector_of(e->type.scalar, a->type.count), std::move(a));
      }
    }
    return e;
  });
}

}  // namespace mslport::back::opencl
