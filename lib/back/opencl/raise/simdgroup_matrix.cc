// Step: simdgroup_matrix<float, 8, 8> (Metal's SIMD-group matrix tiles) for
// OpenCL C 1.2 without sub-groups. Every lane holds the whole tile in a
// private struct of 64 floats and computes all of it (Prelude::
// simdgroup_matrix_helper); lanes never exchange data, so the operations
// need no barrier and may sit anywhere:
//
//   simdgroup_load(a, p, stride, origin, transpose)  ->  a = mslport_simdgroup_load_float8x8_global(p, ...);
//   simdgroup_multiply_accumulate(d, a, b, c)        ->  d = mslport_simdgroup_multiply_accumulate_float8x8(a, b, c);
//   simdgroup_store(d, p, stride, origin, transpose) ->  mslport_simdgroup_store_float8x8_global(d, p, ...);
#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"

namespace mslport::back::opencl {
namespace {

const char* space_qualifier(ir::AddressSpace s) {
  switch (s) {
    case ir::AddressSpace::Device: return "__global";
    case ir::AddressSpace::Constant: return "__constant";
    case ir::AddressSpace::Threadgroup: return "__local";
    case ir::AddressSpace::Private: return "";
  }
  return "";
}

}  // namespace

bool raise_simdgroup_matrix(RaiseContext& ctx, ir::Kernel& k) {
  bool ok = true;
  for (auto& v : k.vars)
    if (v.type.kind == ir::Type::Kind::SimdMatrix) ctx.prelude.simdgroup_matrix_type();
  auto fail = [&](const ir::Expr& e, const std::string& what) {
    ctx.unsupported(e.loc.valid() ? e.loc : k.loc, what);
    ok = false;
  };
  rewrite_kernel_exprs(k, [&](ir::ExprPtr e) -> ir::ExprPtr {
    if (e->kind != ir::Expr::Kind::SimdMatrixOp) return e;
    // Lowered to calls of prelude helpers below.
    e->kind = ir::Expr::Kind::Call;
    const std::string& f = e->spelling;
    const ir::Type matrix = ir::Type{ir::Type::Kind::SimdMatrix, ir::ScalarKind::Float, 8};
    if (f == "make_filled_simdgroup_matrix" && e->args.size() == 1) {
      e->spelling = ctx.prelude.simdgroup_matrix_helper("filled");
      return e;
    }
    if (f == "simdgroup_load" || f == "simdgroup_store") {
      if (e->args.size() != 5 || !e->args[1]->type.is_pointer() || e->args[1]->type.elem->kind != ir::Type::Kind::Scalar ||
          e->args[1]->type.elem->scalar != ir::ScalarKind::Float) {
        fail(*e, f + " other than from/to a float pointer with (stride, origin, transpose)");
        return e;
      }
      const std::string op = f == "simdgroup_load" ? "load" : "store";
      const std::string helper = ctx.prelude.simdgroup_matrix_helper(op, space_qualifier(e->args[1]->type.space));
      if (op == "store") {
        e->spelling = helper;
        return e;
      }
      ir::ExprPtr target = std::move(e->args[0]);
      std::vector<ir::ExprPtr> args;
      for (size_t i = 1; i < e->args.size(); ++i) args.push_back(std::move(e->args[i]));
      return ir::make_assign(std::move(target), make_call(helper, matrix, std::move(args), e->loc), e->loc);
    }
    if ((f == "simdgroup_multiply" && e->args.size() == 3) ||
        (f == "simdgroup_multiply_accumulate" && e->args.size() == 4)) {
      const std::string helper = ctx.prelude.simdgroup_matrix_helper(f.substr(std::string("simdgroup_").size()));
      ir::ExprPtr target = std::move(e->args[0]);
      std::vector<ir::ExprPtr> args;
      for (size_t i = 1; i < e->args.size(); ++i) args.push_back(std::move(e->args[i]));
      return ir::make_assign(std::move(target), make_call(helper, matrix, std::move(args), e->loc), e->loc);
    }
    if (f.rfind("simdgroup_", 0) == 0) fail(*e, "the Metal function '" + f + "'");
    return e;
  });
  return ok;
}

}  // namespace mslport::back::opencl
