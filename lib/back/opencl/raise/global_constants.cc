// Step: program-scope constants print as `__constant T name = init;`, whose
// initialiser must be a C constant expression: a reference to another
// constant is replaced by that constant's (already inlined) initialiser.
#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"

namespace mslport::back::opencl {

void raise_global_constants(RaiseContext& ctx) {
  auto& consts = ctx.module.constants;
  for (size_t i = 0; i < consts.size(); ++i) {
    if (!consts[i].init) continue;
    rewrite_expr(consts[i].init, [&](ir::ExprPtr e) -> ir::ExprPtr {
      if (e->kind != ir::Expr::Kind::GlobalConstRef) return e;
      // Constants are declared before use, so earlier ones are inlined already.
      if (e->index < 0 || (size_t)e->index >= i || !consts[e->index].init) {
        ctx.unsupported(e->loc.valid() ? e->loc : consts[i].loc, "a constant initialised from a later constant");
        return e;
      }
      ir::ExprPtr value = consts[e->index].init->clone();
      if (value->type == e->type) return value;
      return make_cast(e->type, std::move(value));
    });
  }
}

}  // namespace mslport::back::opencl
