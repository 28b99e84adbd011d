// Step: types OpenCL C 1.2 cannot hold the way Metal does.
//  * half and bfloat (no cl_khr_fp16 on PoCL): in memory (buffers, threadgroup
//    and private arrays, struct fields) they stay 16-bit, stored as ushort
//    bits; as values (expressions, scalar and vector locals) they are float.
//    Reads of memory convert bits -> float, writes float -> bits (round to
//    nearest even), and every arithmetic result or conversion of a half /
//    bfloat type is rounded to that format, so values match Metal's.
//  * bool in host-visible memory (device/constant buffers, struct fields) is
//    uchar: OpenCL leaves the size of bool there undefined.
//  * bool vectors are char vectors of 0/1 lanes everywhere (bool_vectors.cc
//    rewrote the operators that make them): OpenCL C has no bool vectors.
#include <cmath>
#include <cstring>
#include <map>

#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"
#include "ir/analysis/purity.h"

namespace mslport::back::opencl {
namespace {

using ir::Expr;
using ir::ExprPtr;
using ir::ScalarKind;
using ir::Type;

bool is_narrow(const Type& t) {
  return (t.is_scalar() || t.is_vector()) && (t.scalar == ScalarKind::Half || t.scalar == ScalarKind::BFloat);
}
int lanes(const Type& t) { return t.is_vector() ? t.count : 1; }
NarrowFloat narrow_kind(const Type& t) {
  return t.scalar == ScalarKind::BFloat ? NarrowFloat::BFloat : NarrowFloat::Half;
}
Type with_scalar(const Type& t, ScalarKind k) {
  return t.is_vector() ? Type::vector_of(k, t.count) : Type::scalar_of(k);
}

// A type as it lives in memory; host_visible: device or constant memory.
Type storage_of(const Type& t, bool host_visible) {
  switch (t.kind) {
    case Type::Kind::Scalar:
    case Type::Kind::Vector:
      if (is_narrow(t)) return with_scalar(t, ScalarKind::UShort);
      if (host_visible && t.is_bool()) return Type::scalar_of(ScalarKind::UChar);
      if (t.is_vector() && t.scalar == ScalarKind::Bool) return Type::vector_of(ScalarKind::Char, t.count);
      return t;
    case Type::Kind::Array: return Type::array_of(storage_of(*t.elem, host_visible), t.count);
    case Type::Kind::Pointer: {
      bool visible = t.space == ir::AddressSpace::Device || t.space == ir::AddressSpace::Constant;
      return Type::pointer_to(storage_of(*t.elem, visible), t.space, t.is_const);
    }
    default: return t;
  }
}
// A type as a value: narrow scalars and vectors compute in float.
Type value_of(const Type& t) {
  if (is_narrow(t)) return with_scalar(t, ScalarKind::Float);
  return storage_of(t, false);
}

float round_to_bf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return f;
  u = ((u + 0x7fffu + ((u >> 16) & 1u)) >> 16) << 16;
  std::memcpy(&f, &u, 4);
  return f;
}
double round_to_half(double x) {
  if (!std::isfinite(x) || x == 0) return x;
  if (std::fabs(x) >= 65520.0) return std::copysign(INFINITY, x);
  int e = std::ilogb(x);
  double ulp = std::ldexp(1.0, std::max(e - 10, -24));
  return std::nearbyint(x / ulp) * ulp;  // the default rounding mode: to nearest even
}
double round_literal(double v, NarrowFloat k) {
  return k == NarrowFloat::BFloat ? round_to_bf16((float)v) : round_to_half((float)v);
}

bool is_arith(ir::BinaryOp op) {
  using B = ir::BinaryOp;
  return op == B::Add || op == B::Sub || op == B::Mul || op == B::Div || op == B::Rem;
}

class Lowering {
 public:
  Lowering(RaiseContext& ctx, ir::Kernel& k, const std::vector<ir::StructDef>& metal_structs)
      : ctx_(ctx), k_(k), structs_(metal_structs) {}

  bool run() {
    for (auto& v : k_.vars) v.type = value_of(v.type);
    for (auto& a : k_.tg_allocs) a.type = storage_of(a.type, false);
    for (auto& p : k_.params)
      if (p.kind != ir::Param::Kind::Builtin) p.type = storage_of(p.type, false);
    if (k_.body) lower_stmt(*k_.body);
    return ok_;
  }

 private:
  void lower_stmt(ir::Stmt& s) {
    using SK = ir::Stmt::Kind;
    ir::walk_stmts_mut(s, [&](ir::Stmt& st) {
      if (st.expr) {
        bool value_used = st.kind != SK::ExprStmt;
        st.expr = value_used ? rvalue(lower(std::move(st.expr))) : lower(std::move(st.expr));
      }
      if (st.step) st.step = lower(std::move(st.step));
      bits_.clear();  // a statement's unread results are discarded
      return true;
    });
  }

  // The helper converting narrow bits to float (or back), or rounding.
  ExprPtr convert(NarrowFloat kind, NarrowConv conv, ExprPtr x) {
    int n = lanes(x->type);
    if (x->kind == Expr::Kind::FloatLit && conv == NarrowConv::Round) {
      x->float_value = round_literal(x->float_value, kind);
      return x;
    }
    // Converting to bits rounds already: drop a rounding just before it.
    if (conv == NarrowConv::FromFloat && x->kind == Expr::Kind::Call && x->args.size() == 1 &&
        x->spelling == ctx_.prelude.narrow_helper(kind, NarrowConv::Round, n))
      x = std::move(x->args[0]);
    ScalarKind result = conv == NarrowConv::FromFloat ? ScalarKind::UShort : ScalarKind::Float;
    Type t = with_scalar(x->type, result);
    ir::SourceLoc loc = x->loc;
    std::vector<ExprPtr> args;
    args.push_back(std::move(x));
    return make_call(ctx_.prelude.narrow_helper(kind, conv, n), t, std::move(args), loc);
  }
  // A value: narrow bits become float.
  ExprPtr rvalue(ExprPtr e) {
    auto it = bits_.find(e.get());
    if (it == bits_.end()) return e;
    NarrowFloat k = it->second;
    bits_.erase(it);
    return convert(k, NarrowConv::ToFloat, std::move(e));
  }
  void mark_bits(const Expr& e, NarrowFloat k) { bits_[&e] = k; }
  bool is_bits(const Expr& e) const { return bits_.count(&e) > 0; }
  ExprPtr round(ExprPtr e, NarrowFloat k) { return convert(k, NarrowConv::Round, std::move(e)); }

  void unsupported(const ir::SourceLoc& loc, const std::string& what) {
    ctx_.unsupported(loc.valid() ? loc : k_.loc, what);
    ok_ = false;
  }

  const Type& field_type(int struct_index, int field) const { return structs_.at(struct_index).fields.at(field).type; }

  ExprPtr lower(ExprPtr e) {
    using K = Expr::Kind;
    const Type metal = e->type;  // the Metal type, before this step
    const bool narrow = is_narrow(metal);
    switch (e->kind) {
      case K::IntLit:
      case K::BoolLit: return e;
      case K::FloatLit:
        if (narrow) e->float_value = round_literal(e->float_value, narrow_kind(metal));
        e->type = value_of(metal);
        return e;
      case K::VarRef: e->type = k_.vars.at(e->index).type; return e;
      case K::ParamRef: e->type = k_.params.at(e->index).type; return e;
      case K::TgAllocRef: e->type = k_.tg_allocs.at(e->index).type; return e;
      case K::GlobalConstRef: e->type = value_of(metal); return e;
      case K::Index: {
        e->args[0] = lower(std::move(e->args[0]));
        e->args[1] = rvalue(lower(std::move(e->args[1])));
        const Type& base = e->args[0]->type;
        if (base.is_pointer() || base.is_array()) e->type = *base.elem;
        else if (base.is_vector()) e->type = Type::scalar_of(base.scalar);
        else e->type = value_of(metal);
        if (narrow && e->type.scalar == ScalarKind::UShort) mark_bits(*e, narrow_kind(metal));
        return e;
      }
      case K::Member: {
        int si = member_struct_index(*e);
        e->args[0] = lower(std::move(e->args[0]));
        if (si >= 0) e->type = storage_of(field_type(si, e->index), true);
        if (narrow) mark_bits(*e, narrow_kind(metal));
        return e;
      }
      case K::Swizzle: {
        e->args[0] = lower(std::move(e->args[0]));
        const Expr& base = *e->args[0];
        e->type = with_scalar(metal, base.type.scalar);
        if (is_bits(base)) mark_bits(*e, bits_.at(&base));
        return e;
      }
      case K::Unary: return lower_unary(std::move(e), metal);
      case K::Binary: {
        for (auto& a : e->args) a = rvalue(lower(std::move(a)));
        e->type = e->binary_op == ir::BinaryOp::Comma ? e->args[1]->type : value_of(metal);
        if (narrow && is_arith(e->binary_op)) return round(std::move(e), narrow_kind(metal));
        return e;
      }
      case K::Assign: return lower_assign(std::move(e), metal);
      case K::Conditional:
        for (auto& a : e->args) a = rvalue(lower(std::move(a)));
        e->type = value_of(metal);
        return e;
      case K::Call:
      case K::SimdMatrixOp:  // raised to helper calls by raise_simdgroup_matrix, after this step
      case K::Collective:
        for (auto& a : e->args) a = rvalue(lower(std::move(a)));
        if (e->mask) e->mask = rvalue(lower(std::move(e->mask)));
        e->type = value_of(metal);
        if (narrow) return round(std::move(e), narrow_kind(metal));
        return e;
      case K::VectorConstruct:
        for (auto& a : e->args) a = rvalue(lower(std::move(a)));
        e->type = value_of(metal);
        return e;
      case K::Cast: return lower_cast(std::move(e), metal);
      case K::Bitcast: return lower_bitcast(std::move(e), metal);
      case K::InitList: return lower_init_list(std::move(e), metal);
    }
    return e;
  }

  ExprPtr lower_unary(ExprPtr e, const Type& metal) {
    using U = ir::UnaryOp;
    const bool narrow = is_narrow(metal);
    switch (e->unary_op) {
      case U::Deref:
        e->args[0] = rvalue(lower(std::move(e->args[0])));
        e->type = e->args[0]->type.is_pointer() ? *e->args[0]->type.elem : value_of(metal);
        if (narrow) mark_bits(*e, narrow_kind(metal));
        return e;
      case U::AddrOf: {
        const Type operand_metal = e->args[0]->type;
        e->args[0] = lower(std::move(e->args[0]));
        if (is_narrow(operand_metal) && !is_bits(*e->args[0]))
          unsupported(e->loc, "taking the address of a " + ir::type_name(ctx_.module, operand_metal) + " variable");
        e->type = storage_of(metal, false);
        return e;
      }
      case U::PreInc:
      case U::PreDec:
      case U::PostInc:
      case U::PostDec:
        if (narrow) unsupported(e->loc, "++/-- on " + ir::type_name(ctx_.module, metal));
        e->args[0] = lower(std::move(e->args[0]));
        e->type = e->args[0]->type;
        return e;
      default:  // - + ! ~: exact in float
        e->args[0] = rvalue(lower(std::move(e->args[0])));
        e->type = value_of(metal);
        return e;
    }
  }

  ExprPtr lower_assign(ExprPtr e, const Type& metal) {
    e->args[0] = lower(std::move(e->args[0]));
    e->args[1] = rvalue(lower(std::move(e->args[1])));
    Expr& lhs = *e->args[0];
    if (!is_narrow(metal)) {
      e->type = lhs.type;
      return e;
    }
    const NarrowFloat kind = narrow_kind(metal);
    const bool in_memory = is_bits(lhs);
    if (e->assign_op) {
      // x op= y  ->  x = round(x op y): the old value is read once more.
      if (!ir::analysis::is_repeatable(lhs)) {
        unsupported(e->loc, "compound assignment to a " + ir::type_name(ctx_.module, metal) + " with side effects");
        return e;
      }
      ExprPtr old = lhs.clone();
      if (in_memory) old = convert(kind, NarrowConv::ToFloat, std::move(old));
      Type ft = with_scalar(metal, ScalarKind::Float);
      ExprPtr v = ir::make_binary(*e->assign_op, ft, std::move(old), std::move(e->args[1]), e->loc);
      e->args[1] = in_memory ? std::move(v) : round(std::move(v), kind);
      e->assign_op.reset();
    }
    if (in_memory) {
      e->args[1] = convert(kind, NarrowConv::FromFloat, std::move(e->args[1]));
      e->type = lhs.type;
      mark_bits(*e, kind);
    } else {
      e->type = lhs.type;
    }
    return e;
  }

  ExprPtr lower_cast(ExprPtr e, const Type& metal) {
    const Type src_metal = e->args[0]->type;
    ExprPtr x = rvalue(lower(std::move(e->args[0])));
    const Type to = value_of(metal);
    if (!is_narrow(metal)) {
      if (metal.is_pointer()) {
        e->type = storage_of(metal, false);
        e->args[0] = std::move(x);
        return e;
      }
      if (x->type == to) return x;  // e.g. bfloat -> float: already a float
      e->type = to;
      e->args[0] = std::move(x);
      return e;
    }
    const NarrowFloat kind = narrow_kind(metal);
    if (is_narrow(src_metal) && narrow_kind(src_metal) == kind && lanes(src_metal) == lanes(metal)) return x;
    if (x->kind == Expr::Kind::IntLit && metal.is_scalar()) {  // half(0) -> 0.0f
      ExprPtr f = make_float(round_literal((double)x->int_value, kind), x->loc);
      return f;
    }
    if (x->type != to) {
      e->type = to;
      e->args[0] = std::move(x);
      x = std::move(e);
    }
    return round(std::move(x), kind);
  }

  ExprPtr lower_bitcast(ExprPtr e, const Type& metal) {
    const Type src_metal = e->args[0]->type;
    ExprPtr x = rvalue(lower(std::move(e->args[0])));
    if (is_narrow(src_metal)) x = convert(narrow_kind(src_metal), NarrowConv::FromFloat, std::move(x));
    const Type to = storage_of(metal, false);
    if (x->type != to) {
      e->type = to;
      e->args[0] = std::move(x);
      x = std::move(e);
    }
    if (is_narrow(metal)) return convert(narrow_kind(metal), NarrowConv::ToFloat, std::move(x));
    return x;
  }

  ExprPtr lower_init_list(ExprPtr e, const Type& metal) {
    e->type = storage_of(metal, false);
    for (size_t i = 0; i < e->args.size(); ++i) {
      Type elem_metal;
      if (metal.is_array()) elem_metal = *metal.elem;
      else if (metal.is_struct() && i < structs_.at(metal.struct_index).fields.size())
        elem_metal = field_type(metal.struct_index, (int)i);
      else elem_metal = e->args[i]->type;
      e->args[i] = rvalue(lower(std::move(e->args[i])));
      if (is_narrow(elem_metal))
        e->args[i] = convert(narrow_kind(elem_metal), NarrowConv::FromFloat, std::move(e->args[i]));
    }
    return e;
  }

  RaiseContext& ctx_;
  ir::Kernel& k_;
  const std::vector<ir::StructDef>& structs_;  // Metal field types
  std::map<const Expr*, NarrowFloat> bits_;    // expressions holding narrow bits
  bool ok_ = true;
};

}  // namespace

bool raise_memory_types(RaiseContext& ctx, ir::Kernel& k) {
  // Struct fields keep their Metal types until raise_struct_and_constant_types.
  Lowering l(ctx, k, ctx.module.structs);
  return l.run();
}

void raise_struct_and_constant_types(RaiseContext& ctx) {
  for (auto& s : ctx.module.structs)
    for (auto& f : s.fields) f.type = storage_of(f.type, true);
  for (auto& c : ctx.module.constants) {
    if (!is_narrow(c.type)) {
      Type stored = storage_of(c.type, false);
      if (stored != c.type) ctx.unsupported(c.loc, "a constant array of " + ir::type_name(ctx.module, *c.type.elem));
      continue;
    }
    // `constant bfloat k = 1.5;` -> `__constant float k = <rounded>;`
    const ir::Expr* lit = c.init.get();
    while (lit && lit->kind == Expr::Kind::Cast) lit = lit->args[0].get();
    if (!lit || !c.type.is_scalar() || (lit->kind != Expr::Kind::FloatLit && lit->kind != Expr::Kind::IntLit)) {
      ctx.unsupported(c.loc, "a " + ir::type_name(ctx.module, c.type) + " constant that is not a literal");
      continue;
    }
    double v = lit->kind == Expr::Kind::FloatLit ? lit->float_value : (double)lit->int_value;
    c.init = make_float(round_literal(v, narrow_kind(c.type)), c.loc);
    c.type = Type::scalar_of(ScalarKind::Float);
  }
}

}  // namespace mslport::back::opencl
