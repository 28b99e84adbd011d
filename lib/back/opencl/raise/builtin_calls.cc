// Step: Metal builtin functions -> OpenCL C. The row of each function in
// ir/intrinsic_table.def says how: most keep their name or take OpenCL's
// (OpenCL's full-profile versions are as accurate as Metal's precise:: ones,
// so precise:: forms are the plain builtins), the rest are rewritten here
// (select, saturate, divide, min3/max3, ...) or become prelude helpers
// (fract, bit fields, atomics, the grid guard). A function whose row has no
// OpenCL lowering is reported, never passed through.
#include "back/opencl/cl_types.h"
#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"

namespace mslport::back::opencl {
namespace {

using ir::Expr;
using ir::ExprPtr;
using ir::Intrinsic;

bool float_typed(const ir::Type& t) { return (t.is_scalar() || t.is_vector()) && ir::is_float(t.scalar); }

ExprPtr typed_literal(const ir::Type& lane, double v) {
  if (ir::is_float(lane.scalar)) return make_float(v);
  return ir::make_int(ir::Type::scalar_of(lane.scalar), (int64_t)v);
}

// The OpenCL builtin `name` applied to the call's arguments (the call
// itself, renamed: it is no Metal function any more).
ExprPtr as_builtin(ExprPtr e, const std::string& name) {
  e->spelling = name;
  e->intrinsic = Intrinsic::None;
  return e;
}

ExprPtr call2(const std::string& f, const ir::Type& t, ExprPtr a, ExprPtr b, ir::SourceLoc loc) {
  std::vector<ExprPtr> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  return make_call(f, t, std::move(args), loc);
}

// `f(f(a, b), c)`: Metal's three-operand minimum and maximum.
ExprPtr nested(const std::string& f, ExprPtr e) {
  ExprPtr ab = call2(f, e->type, std::move(e->args[0]), std::move(e->args[1]), e->loc);
  return call2(f, e->type, std::move(ab), std::move(e->args[2]), e->loc);
}

// The OpenCL name of an address space, for the atomic helpers.
const char* space_word(const ir::Type& pointer) {
  return pointer.space == ir::AddressSpace::Threadgroup ? "local" : "global";
}

}  // namespace

bool raise_builtin_calls(RaiseContext& ctx, ir::Kernel& k, const ClKernel& cl) {
  bool ok = true;
  rewrite_kernel_exprs(k, [&](ExprPtr e) -> ExprPtr {
    if (e->kind != Expr::Kind::Call) return e;
    if (e->intrinsic == Intrinsic::None) {
      // An earlier step's helper; any other call has no OpenCL form.
      if (e->spelling.rfind("mslport_", 0) == 0) return e;
      ctx.unsupported(e->loc.valid() ? e->loc : k.loc, "the Metal function '" + e->spelling + "'");
      ok = false;
      return e;
    }
    if (e->intrinsic == Intrinsic::ThreadgroupAny) return e;  // simd_collectives.cc: it needs the scratch
    const ir::IntrinsicInfo& info = ir::intrinsic_info(e->intrinsic);
    const bool fp = float_typed(e->type) || (!e->args.empty() && float_typed(e->args[0]->type));
    auto fail = [&]() {
      ctx.unsupported(e->loc.valid() ? e->loc : k.loc, "the Metal function '" + e->spelling + "'");
      ok = false;
      return std::move(e);
    };
    if (!info.on_opencl()) return fail();
    if (e->intrinsic == Intrinsic::InGrid) {
      ctx.prelude.require("mslport_in_grid");
      e->args.clear();
      e->args.push_back(ir::make_var_ref(k, cl.grid_var, e->loc));
      return as_builtin(std::move(e), info.opencl_builtin());
    }
    if (std::string(info.opencl) != "#") return as_builtin(std::move(e), info.opencl_builtin());
    const ir::SourceLoc loc = e->loc;
    switch (e->intrinsic) {
      case Intrinsic::Min:
      case Intrinsic::Max: return as_builtin(std::move(e), std::string(fp ? "f" : "") + info.name);
      case Intrinsic::Min3:
      case Intrinsic::Max3:
        return nested(std::string(fp ? "f" : "") + std::string(info.name).substr(0, 3), std::move(e));
      case Intrinsic::Fmin3:
      case Intrinsic::Fmax3: return nested(std::string(info.name).substr(0, 4), std::move(e));
      case Intrinsic::Abs: {
        if (fp) return as_builtin(std::move(e), "fabs");
        // OpenCL's abs of INT_MIN is undefined (PoCL's lets the optimiser
        // assume a positive result); Metal's wraps to INT_MIN.
        if (ir::is_unsigned_int(e->type.scalar)) return std::move(e->args[0]);
        std::string helper = ctx.prelude.stdlib_helper(e->intrinsic, cl_type_name(ctx.module, e->type));
        return as_builtin(std::move(e), helper);
      }
      case Intrinsic::Saturate: {
        ir::Type lane = ir::Type::scalar_of(e->type.scalar);
        e->args.push_back(typed_literal(lane, 0.0));
        e->args.push_back(typed_literal(lane, 1.0));
        return as_builtin(std::move(e), "clamp");
      }
      case Intrinsic::Fract:
        if (e->type.scalar != ir::ScalarKind::Float) return fail();
        return as_builtin(std::move(e), ctx.prelude.fract_helper(e->type.is_vector() ? e->type.count : 1));
      case Intrinsic::Divide:
        return ir::make_binary(ir::BinaryOp::Div, e->type, std::move(e->args[0]), std::move(e->args[1]), loc);
      case Intrinsic::Select: {
        // Metal's select(a, b, c) is c ? b : a.
        if (e->args[2]->type.is_scalar())
          return make_conditional(std::move(e->args[2]), std::move(e->args[1]), std::move(e->args[0]));
        // Lane by lane, of a bool vector (a char vector of 0/1 lanes,
        // bool_vectors.cc): OpenCL's select takes lane i of b where the sign
        // bit of c's lane i is set, c of signed integer lanes as wide as a's.
        const ir::Type& lanes = e->args[0]->type;
        if (!lanes.is_vector() || e->args[2]->type.count != lanes.count) return fail();
        const int bytes = ir::scalar_size(lanes.scalar);
        const ir::ScalarKind mask_lane = bytes == 1   ? ir::ScalarKind::Char
                                         : bytes == 2 ? ir::ScalarKind::Short
                                         : bytes == 8 ? ir::ScalarKind::Long
                                                      : ir::ScalarKind::Int;
        const ir::Type mask = ir::Type::vector_of(mask_lane, lanes.count);
        ExprPtr c = std::move(e->args[2]);
        if (c->type != mask) c = make_cast(mask, std::move(c));
        e->args[2] = ir::make_unary(ir::UnaryOp::Neg, mask, std::move(c), loc);
        return as_builtin(std::move(e), "select");
      }
      case Intrinsic::All:
      case Intrinsic::Any: {
        if (e->args[0]->type.is_scalar()) return std::move(e->args[0]);  // of one bool: the bool
        // Of a bool vector's 0/1 lanes: OpenCL's any and all test sign bits.
        const ir::Type lanes = e->args[0]->type;
        e->args[0] = ir::make_unary(ir::UnaryOp::Neg, lanes, std::move(e->args[0]), loc);
        return as_builtin(std::move(e), info.name);
      }
      case Intrinsic::Frexp:
      case Intrinsic::Modf:
      case Intrinsic::Sincos: {
        // Metal passes the second result by reference, OpenCL by pointer.
        ExprPtr& out = e->args[1];
        ir::Type p = ir::Type::pointer_to(out->type, ir::AddressSpace::Private, false);
        out = ir::make_unary(ir::UnaryOp::AddrOf, p, std::move(out), loc);
        return as_builtin(std::move(e), info.name);
      }
      case Intrinsic::Ctz:
      case Intrinsic::ReverseBits:
      case Intrinsic::ExtractBits:
      case Intrinsic::InsertBits:
      case Intrinsic::Median3:
      case Intrinsic::Fmedian3:
      case Intrinsic::LengthSquared:
      case Intrinsic::DistanceSquared:
      case Intrinsic::Faceforward:
      case Intrinsic::Reflect:
      case Intrinsic::Refract: {
        const ir::Type& t = e->args[0]->type;
        std::string helper = ctx.prelude.stdlib_helper(e->intrinsic, cl_type_name(ctx.module, t));
        if (helper.empty()) return fail();
        return as_builtin(std::move(e), helper);
      }
      case Intrinsic::AtomicLoad:
      case Intrinsic::AtomicStore:
      case Intrinsic::AtomicExchange:
      case Intrinsic::AtomicCompareExchangeWeak:
      case Intrinsic::AtomicFetchAdd:
      case Intrinsic::AtomicFetchSub:
      case Intrinsic::AtomicFetchAnd:
      case Intrinsic::AtomicFetchOr:
      case Intrinsic::AtomicFetchXor:
      case Intrinsic::AtomicFetchMin:
      case Intrinsic::AtomicFetchMax: {
        const ir::Type& object = e->args[0]->type;
        // memory_types stored atomic_bool as its byte: the only atomic one.
        const ir::ScalarKind value =
            object.elem->scalar == ir::ScalarKind::UChar ? ir::ScalarKind::Bool : object.elem->scalar;
        std::string helper = ctx.prelude.atomic_helper(e->intrinsic, value, space_word(object));
        if (helper.empty()) return fail();
        return as_builtin(std::move(e), helper);
      }
      default: return fail();
    }
  });
  return ok;
}

}  // namespace mslport::back::opencl
