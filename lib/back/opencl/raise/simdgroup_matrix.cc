// Step: simdgroup_matrix<T, 8, 8>, T float, half or bfloat (Metal's SIMD-group matrix tiles) for
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

// The element format of a tile: float, half or bfloat. Every tile is held
// as floats; half and bfloat tiles are rounded to their format wherever
// Metal produces one (a load converts, a store rounds, an operation's
// result is rounded).
std::string format_of(const ir::Type& matrix) {
  switch (matrix.scalar) {
    case ir::ScalarKind::Half: return "half";
    case ir::ScalarKind::BFloat: return "bfloat";
    default: return "float";
  }
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
    const ir::SimdMatrixOpKind op = e->matrix_op;
    const ir::Type matrix = ir::Type{ir::Type::Kind::SimdMatrix, ir::ScalarKind::Float, 8};
    if ((op == ir::SimdMatrixOpKind::Fill || op == ir::SimdMatrixOpKind::Diagonal) && e->args.size() == 1) {
      e->spelling = ctx.prelude.simdgroup_matrix_helper(op == ir::SimdMatrixOpKind::Fill ? "filled" : "diagonal", "",
                                                        format_of(e->type));
      return e;
    }
    if (op == ir::SimdMatrixOpKind::Load || op == ir::SimdMatrixOpKind::Store) {
      // After memory_types, half and bfloat memory is ushort bits.
      const ir::Type* p = e->args.size() == 5 && e->args[1]->type.is_pointer() ? e->args[1]->type.elem.get() : nullptr;
      const std::string format = format_of(e->args[0]->type);
      const ir::ScalarKind want = format == "float" ? ir::ScalarKind::Float : ir::ScalarKind::UShort;
      if (!p || p->kind != ir::Type::Kind::Scalar || p->scalar != want) {
        fail(*e,
             e->spelling + " other than from/to a pointer of the tile's element type with (stride, origin, transpose)");
        return e;
      }
      const std::string name = op == ir::SimdMatrixOpKind::Load ? "load" : "store";
      const std::string helper =
          ctx.prelude.simdgroup_matrix_helper(name, space_qualifier(e->args[1]->type.space), format);
      if (op == ir::SimdMatrixOpKind::Store) {
        e->spelling = helper;
        return e;
      }
      ir::ExprPtr target = std::move(e->args[0]);
      std::vector<ir::ExprPtr> args;
      for (size_t i = 1; i < e->args.size(); ++i) args.push_back(std::move(e->args[i]));
      return ir::make_assign(std::move(target), make_call(helper, matrix, std::move(args), e->loc), e->loc);
    }
    if ((op == ir::SimdMatrixOpKind::Multiply && e->args.size() == 3) ||
        (op == ir::SimdMatrixOpKind::MultiplyAccumulate && e->args.size() == 4)) {
      // Rounded to the destination's format; the operands may differ from it.
      const std::string helper = ctx.prelude.simdgroup_matrix_helper(
          op == ir::SimdMatrixOpKind::Multiply ? "multiply" : "multiply_accumulate", "", format_of(e->args[0]->type));
      ir::ExprPtr target = std::move(e->args[0]);
      std::vector<ir::ExprPtr> args;
      for (size_t i = 1; i < e->args.size(); ++i) args.push_back(std::move(e->args[i]));
      return ir::make_assign(std::move(target), make_call(helper, matrix, std::move(args), e->loc), e->loc);
    }
    fail(*e, "the Metal function '" + e->spelling + "'");
    return e;
  });
  return ok;
}

}  // namespace mslport::back::opencl
