#include "ir/initializer_stores.h"

namespace mslport::ir {

namespace {

// Runs of this many missing array elements or more are zeroed by a loop
// rather than one store each, so `float acc[64] = {0}` stays short.
constexpr int kLoopFrom = 4;

struct Stores {
  const Module& m;
  Kernel& k;
  std::vector<StmtPtr> out;
  SourceLoc loc;

  ExprPtr element(const Expr& base, int i) {
    const Type& t = base.type;
    return make_index(base.clone(), make_int(Type::scalar_of(ScalarKind::UInt), i, loc), *t.elem);
  }
  ExprPtr field(const Expr& base, int f) {
    const StructDef& sd = m.structs.at(base.type.struct_index);
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::Member;
    e->type = sd.fields.at(f).type;
    e->index = f;
    e->loc = loc;
    e->args.push_back(base.clone());
    return e;
  }
  int parts(const Type& t) {
    if (t.is_array()) return t.count;
    if (t.is_struct()) return (int)m.structs.at(t.struct_index).fields.size();
    return 0;
  }
  ExprPtr part(const Expr& base, int i) { return base.type.is_array() ? element(base, i) : field(base, i); }

  void assign(const Expr& target, ExprPtr value) {
    if (value->kind == Expr::Kind::InitList && (target.type.is_array() || target.type.is_struct())) {
      std::vector<ExprPtr> listed = std::move(value->args);
      const int n = parts(target.type);
      for (int i = 0; i < (int)listed.size() && i < n; ++i) assign(*part(target, i), std::move(listed[i]));
      zero_from(target, (int)listed.size());
      return;
    }
    out.push_back(make_expr_stmt(make_assign(target.clone(), std::move(value), loc)));
  }

  // Zero of a scalar or vector type (a vector's is the splat of its lane's).
  ExprPtr zero(const Type& t) {
    if (t.is_bool()) return make_bool(false, loc);
    Type lane = Type::scalar_of(t.scalar);
    ExprPtr z = make_int(Type::scalar_of(ScalarKind::Int), 0, loc);
    if (lane != z->type) z = make_cast(lane, std::move(z));
    if (t.is_vector()) z = make_cast(t, std::move(z));
    return z;
  }

  void zero_all(const Expr& target) {
    if (!target.type.is_array() && !target.type.is_struct()) {
      out.push_back(make_expr_stmt(make_assign(target.clone(), zero(target.type), loc)));
      return;
    }
    zero_from(target, 0);
  }

  // Parts from `first` on set to zero.
  void zero_from(const Expr& target, int first) {
    const int n = parts(target.type);
    if (target.type.is_array() && n - first >= kLoopFrom) {
      Type uint_t = Type::scalar_of(ScalarKind::UInt);
      int i = add_var(k, "mslport_zero_i", uint_t, loc);
      Stores inner{m, k, {}, loc};
      inner.zero_all(*make_index(target.clone(), make_var_ref(k, i, loc), *target.type.elem));
      auto loop = std::make_unique<Stmt>();
      loop->kind = Stmt::Kind::For;
      loop->loc = loc;
      loop->init = make_decl(i, make_int(uint_t, first, loc), loc);
      loop->expr = make_binary(BinaryOp::Lt, Type::scalar_of(ScalarKind::Bool), make_var_ref(k, i, loc),
                               make_int(uint_t, n, loc), loc);
      loop->step = make_unary(UnaryOp::PreInc, uint_t, make_var_ref(k, i, loc), loc);
      loop->body = make_block(std::move(inner.out), loc);
      out.push_back(std::move(loop));
      return;
    }
    for (int i = first; i < n; ++i) zero_all(*part(target, i));
  }
};

}  // namespace

std::vector<StmtPtr> initializer_stores(const Module& m, Kernel& k, const Expr& target, ExprPtr init) {
  Stores s{m, k, {}, init->loc};
  s.assign(target, std::move(init));
  return std::move(s.out);
}

}  // namespace mslport::ir
