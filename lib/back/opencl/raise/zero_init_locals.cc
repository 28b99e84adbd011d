// Step: scalar, vector and pointer locals declared without an initialiser
// start at zero. The shared passes hoist declarations out of conditionals,
// so a work-item that is inactive there still reads the variable (it passes
// it to a collective helper, or keeps it across a barrier) without having
// assigned it: undefined behaviour in C, which PoCL's work-group compiler
// turned into wrong results for the active work-items as well.
#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"

namespace mslport::back::opencl {

void raise_zero_init_locals(RaiseContext& ctx, ir::Kernel& k) {
  ir::walk_stmts_mut(*k.body, [&](ir::Stmt& s) {
    if (s.kind != ir::Stmt::Kind::Decl || s.expr || s.var < 0) return true;
    const ir::Type& t = k.vars.at(s.var).type;
    if (t.is_scalar() && ir::is_float(t.scalar)) s.expr = make_float(0.0, s.loc);
    else if (t.is_bool()) s.expr = ir::make_bool(false, s.loc);
    else if (t.is_scalar()) s.expr = ir::make_int(t, 0, s.loc);
    else if (t.is_vector() || t.is_pointer())
      s.expr = make_cast(t, ir::make_int(ir::Type::scalar_of(ir::ScalarKind::Int), 0, s.loc));
    return true;
  });
}

}  // namespace mslport::back::opencl
