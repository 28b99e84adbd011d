// Step: Metal builtin functions -> OpenCL C. Most keep their name (OpenCL's
// full-profile versions are as accurate as Metal's precise:: ones, so the
// precise::/fast:: prefixes are dropped); the others are renamed, rewritten
// (select, saturate, divide, min3/max3) or become prelude helpers (fract, the
// grid guard). An unknown function is reported, never passed through.
#include <set>

#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"
#include "passes/predicate_sync.h"

namespace mslport::back::opencl {
namespace {

using ir::Expr;
using ir::ExprPtr;

// Same name and meaning in OpenCL C 1.2.
const std::set<std::string>& same_name() {
  static const std::set<std::string> kNames = {
      "exp", "exp2", "exp10", "log", "log2", "log10", "sqrt", "rsqrt", "cbrt", "fma", "sin", "cos", "tan", "asin",
      "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "pow", "powr", "floor", "ceil",
      "round", "trunc", "rint", "fmod", "fdim", "copysign", "fmin", "fmax", "fabs", "hypot", "ldexp", "logb",
      "ilogb", "nextafter", "mix", "step", "smoothstep", "sign", "degrees", "radians", "dot", "length", "normalize",
      "distance", "cross", "isnan", "isinf", "isfinite", "signbit", "clamp", "popcount", "clz", "rotate"};
  return kNames;
}

std::string strip_namespaces(std::string name) {
  for (const char* ns : {"metal::", "precise::", "fast::"})
    while (name.rfind(ns, 0) == 0) name = name.substr(std::string(ns).size());
  return name;
}

bool float_typed(const ir::Type& t) { return (t.is_scalar() || t.is_vector()) && ir::is_float(t.scalar); }

ExprPtr typed_literal(const ir::Type& lane, double v) {
  if (ir::is_float(lane.scalar)) return make_float(v);
  return ir::make_int(ir::Type::scalar_of(lane.scalar), (int64_t)v);
}

}  // namespace

bool raise_builtin_calls(RaiseContext& ctx, ir::Kernel& k, const ClKernel& cl) {
  bool ok = true;
  rewrite_kernel_exprs(k, [&](ExprPtr e) -> ExprPtr {
    if (e->kind != Expr::Kind::Call || e->spelling.rfind("mslport_", 0) == 0) return e;
    if (e->spelling == passes::kThreadgroupAny) return e;  // simd_collectives.cc: it needs the scratch
    const std::string name = strip_namespaces(e->spelling);
    const bool fp = float_typed(e->type) || (!e->args.empty() && float_typed(e->args[0]->type));
    auto fail = [&]() {
      ctx.unsupported(e->loc.valid() ? e->loc : k.loc, "the Metal function '" + e->spelling + "'");
      ok = false;
      return std::move(e);
    };
    if (name == "__mslport_in_grid") {
      ctx.prelude.require("mslport_in_grid");
      e->spelling = "mslport_in_grid";
      e->args.clear();
      e->args.push_back(ir::make_var_ref(k, cl.grid_var, e->loc));
      return e;
    }
    if (same_name().count(name)) {
      e->spelling = name;
      return e;
    }
    if (name == "min" || name == "max") {
      e->spelling = fp ? "f" + name : name;
      return e;
    }
    if ((name == "min3" || name == "max3") && e->args.size() == 3) {
      std::string f = fp ? "f" + name.substr(0, 3) : name.substr(0, 3);
      std::vector<ExprPtr> inner;
      inner.push_back(std::move(e->args[0]));
      inner.push_back(std::move(e->args[1]));
      ExprPtr ab = make_call(f, e->type, std::move(inner), e->loc);
      std::vector<ExprPtr> outer;
      outer.push_back(std::move(ab));
      outer.push_back(std::move(e->args[2]));
      return make_call(f, e->type, std::move(outer), e->loc);
    }
    if (name == "abs") {
      if (fp) {
        e->spelling = "fabs";
        return e;
      }
      // OpenCL's integer abs returns the unsigned type.
      e->spelling = "abs";
      ir::Type t = e->type;
      return make_cast(t, std::move(e));
    }
    if (name == "absdiff") {
      e->spelling = "abs_diff";
      return e;
    }
    if (name == "mulhi") {
      e->spelling = "mul_hi";
      return e;
    }
    if (name == "saturate" && e->args.size() == 1 && fp) {
      ir::Type lane = ir::Type::scalar_of(e->type.scalar);
      e->spelling = "clamp";
      e->args.push_back(typed_literal(lane, 0.0));
      e->args.push_back(typed_literal(lane, 1.0));
      return e;
    }
    if (name == "fract" && e->args.size() == 1 && fp && e->type.scalar == ir::ScalarKind::Float) {
      e->spelling = ctx.prelude.fract_helper(e->type.is_vector() ? e->type.count : 1);
      return e;
    }
    if (name == "divide" && e->args.size() == 2)
      return ir::make_binary(ir::BinaryOp::Div, e->type, std::move(e->args[0]), std::move(e->args[1]), e->loc);
    if (name == "select" && e->args.size() == 3 && e->args[2]->type.is_scalar()) {
      // Metal's select(a, b, c) is c ? b : a.
      auto c = std::make_unique<Expr>();
      c->kind = Expr::Kind::Conditional;
      c->type = e->type;
      c->loc = e->loc;
      c->args.push_back(std::move(e->args[2]));
      c->args.push_back(std::move(e->args[1]));
      c->args.push_back(std::move(e->args[0]));
      return c;
    }
    return fail();
  });
  return ok;
}

}  // namespace mslport::back::opencl
