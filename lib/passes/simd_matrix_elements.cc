#include "passes/simd_matrix_elements.h"

#include <map>
#include <set>

#include "ir/analysis/purity.h"

namespace mslport::passes {
using namespace ir;

namespace {

const Type kUInt = Type::scalar_of(ScalarKind::UInt);

ExprPtr uint_lit(int64_t v, SourceLoc loc) { return make_int(kUInt, v, loc); }
ExprPtr ubin(BinaryOp op, ExprPtr a, ExprPtr b) {
  SourceLoc loc = a->loc;
  return make_binary(op, kUInt, std::move(a), std::move(b), loc);
}

// The kernel's builtin parameter `b` (added, unnamed in the source, when the
// kernel does not declare it): the backends compute builtins themselves.
int builtin_param(Kernel& k, BuiltinId b, const char* name) {
  for (size_t i = 0; i < k.params.size(); ++i)
    if (k.params[i].kind == Param::Kind::Builtin && k.params[i].builtin == b && k.params[i].type == kUInt)
      return (int)i;
  Param p;
  p.kind = Param::Kind::Builtin;
  p.builtin = b;
  p.type = kUInt;
  p.loc = k.loc;
  std::string n = name;
  for (int i = 1;; ++i) {
    bool clash = false;
    for (auto& q : k.params) clash = clash || q.name == n;
    for (auto& v : k.vars) clash = clash || v.name == n;
    if (!clash) break;
    n = std::string(name) + std::to_string(i);
  }
  p.name = n;
  k.params.push_back(p);
  return (int)k.params.size() - 1;
}

// The lane's pair index: MLX steel's BaseMMAFrag coordinates (row, col) of
// the lane's first element, as a row-major pair number.
ExprPtr lane_pair(const Kernel& k, int lane, SourceLoc loc) {
  auto l = [&] { return make_param_ref(k, lane, loc); };
  ExprPtr q = ubin(BinaryOp::Div, l(), uint_lit(4, loc));
  ExprPtr row = ubin(BinaryOp::Add, ubin(BinaryOp::BitAnd, q->clone(), uint_lit(4, loc)),
                     ubin(BinaryOp::Rem, ubin(BinaryOp::Div, l(), uint_lit(2, loc)), uint_lit(4, loc)));
  // col / 2 = (q & 2) + l % 2
  ExprPtr half_col = ubin(BinaryOp::Add, ubin(BinaryOp::BitAnd, std::move(q), uint_lit(2, loc)),
                          ubin(BinaryOp::Rem, l(), uint_lit(2, loc)));
  return ubin(BinaryOp::Add, ubin(BinaryOp::Mul, std::move(row), uint_lit(4, loc)), std::move(half_col));
}

bool is_lane_pair_call(const Expr& e) { return e.kind == Expr::Kind::Call && e.intrinsic == Intrinsic::ThreadElements; }

// The variable a tile lvalue lives in (`m`, `tiles[i]`, `s.m`), or -1.
int root_var(const Expr* e) {
  while (e && (e->kind == Expr::Kind::Index || e->kind == Expr::Kind::Member)) e = e->args[0].get();
  return e && e->kind == Expr::Kind::VarRef ? e->index : -1;
}

// The tile under a thread_elements() lvalue (`m[p]`, `m[p][i]`, `m[p].x`).
const Expr* written_tile(const Expr& lhs) {
  const Expr* e = &lhs;
  while ((e->kind == Expr::Kind::Index && e->args[0]->type.is_vector()) || e->kind == Expr::Kind::Swizzle)
    e = e->args[0].get();
  if (e->kind == Expr::Kind::Index && e->args[0]->type.kind == Type::Kind::SimdMatrix) return e->args[0].get();
  return nullptr;
}

bool writes_first_operand(const Expr& e) {
  if (e.kind == Expr::Kind::Assign) return true;
  if (e.kind != Expr::Kind::Unary) return false;
  switch (e.unary_op) {
    case UnaryOp::PreInc:
    case UnaryOp::PreDec:
    case UnaryOp::PostInc:
    case UnaryOp::PostDec:
    // A reference to the pair may write it, unless it is a const one
    // (`thread const auto& e = m.thread_elements();`, how results are read).
    case UnaryOp::AddrOf: return !(e.type.is_pointer() && e.type.is_const);
    default: return false;
  }
}

// The operands of a tile operation it reads whole.
std::vector<int> read_tiles(const Expr& e) {
  switch (e.matrix_op) {
    case SimdMatrixOpKind::Store: return {0};
    case SimdMatrixOpKind::Multiply: return {1, 2};
    case SimdMatrixOpKind::MultiplyAccumulate: return {1, 2, 3};
    default: return {};
  }
}

class Lowering {
 public:
  Lowering(Kernel& k, DiagEngine& diags) : k_(k), diags_(diags) {}

  bool run() {
    bool any = false;
    walk_stmt_exprs(*k_.body, [&](const Expr& e) {
      any = any || is_lane_pair_call(e);
      return true;
    });
    if (!any) return true;
    lane_ = builtin_param(k_, BuiltinId::ThreadIndexInSimdgroup, "mslport_simd_lane");
    find_divergent_tiles();
    walk_stmts_mut(*k_.body, [&](Stmt& s) {
      for (ExprPtr* slot : {&s.expr, &s.step})
        if (*slot)
          walk_exprs_mut(**slot, [&](Expr& e) {
            if (!is_lane_pair_call(e)) return true;
            ExprPtr p = lane_pair(k_, lane_, e.loc);
            e = std::move(*p);
            return false;
          });
      return true;
    });
    if (!divergent_.empty()) gather_in(*k_.body);
    return ok_;
  }

 private:
  // The variables holding a tile some lane may have written through
  // thread_elements(), and those a whole-tile copy of one reaches.
  void find_divergent_tiles() {
    walk_stmt_exprs(*k_.body, [&](const Expr& e) {
      if (writes_first_operand(e) && !e.args.empty())
        if (const Expr* tile = written_tile(*e.args[0])) {
          int v = root_var(tile);
          if (v < 0) fail(e.loc, "thread_elements() of a simdgroup_matrix outside a local variable");
          else divergent_.insert(v);
        }
      return true;
    });
    for (bool grew = true; grew;) {
      grew = false;
      auto copy = [&](int to, const Expr& from) {
        if (to >= 0 && from.type.kind == Type::Kind::SimdMatrix && divergent_.count(root_var(&from)) &&
            divergent_.insert(to).second)
          grew = true;
      };
      walk_stmts(*k_.body, [&](const Stmt& s) {
        if (s.kind == Stmt::Kind::Decl && s.expr) copy(s.var, *s.expr);
        return true;
      });
      walk_stmt_exprs(*k_.body, [&](const Expr& e) {
        if (e.kind == Expr::Kind::Assign && e.args[0]->type.kind == Type::Kind::SimdMatrix)
          copy(root_var(e.args[0].get()), *e.args[1]);
        return true;
      });
    }
  }

  void gather_in(Stmt& block) {
    for (size_t i = 0; i < block.stmts.size(); ++i) {
      Stmt& s = *block.stmts[i];
      for (StmtPtr* child : {&s.init, &s.body, &s.else_body})
        if (*child) gather_in(**child);
      if (s.kind == Stmt::Kind::Block) gather_in(s);
      std::vector<StmtPtr> before;
      const Expr* top = s.kind == Stmt::Kind::ExprStmt ? s.expr.get() : nullptr;
      if (top && top->kind == Expr::Kind::SimdMatrixOp) {
        std::vector<const Expr*> gathered;
        for (int a : read_tiles(*top)) {
          if (a >= (int)top->args.size() || !divergent_.count(root_var(top->args[a].get()))) continue;
          bool again = false;
          for (const Expr* g : gathered) again = again || same_expr(*g, *top->args[a]);
          if (again) continue;
          gathered.push_back(top->args[a].get());
          gather(*top->args[a], before);
        }
      }
      // A tile operation anywhere else (a condition, a comma) reading such
      // a tile has no statement to put the gather before.
      for (const ExprPtr* slot : {&s.expr, &s.step}) {
        if (!*slot) continue;
        walk_exprs(**slot, [&](const Expr& e) {
          if (&e == top || e.kind != Expr::Kind::SimdMatrixOp) return true;
          for (int a : read_tiles(e))
            if (a < (int)e.args.size() && divergent_.count(root_var(e.args[a].get())))
              fail(e.loc, "a simdgroup_matrix written through thread_elements(), read by '" + e.spelling +
                              "' inside an expression");
          return true;
        });
      }
      if (before.empty()) continue;
      const size_t n = before.size();
      block.stmts.insert(block.stmts.begin() + i, std::make_move_iterator(before.begin()),
                         std::make_move_iterator(before.end()));
      i += n;
    }
  }

  StmtPtr barrier(SourceLoc loc) {
    auto b = std::make_unique<Stmt>();
    b->kind = Stmt::Kind::Barrier;
    b->loc = loc;
    b->simdgroup_scope = true;
    b->mem_flags = 2;  // mem_threadgroup
    return b;
  }

  // The exchange array for tiles of `scalar`: 64 elements per SIMD group of
  // the largest threadgroup.
  int exchange(ScalarKind scalar, SourceLoc loc) {
    auto it = exchange_.find(scalar);
    if (it != exchange_.end()) return it->second;
    const int groups = kMaxThreadsPerThreadgroup / 32;
    k_.tg_allocs.push_back(TgAlloc{"mslport_tile_exchange_" + std::to_string(exchange_.size()),
                                   Type::array_of(Type::scalar_of(scalar), groups * 64), loc});
    return exchange_[scalar] = (int)k_.tg_allocs.size() - 1;
  }

  // tile: pairs -> threadgroup memory -> the whole tile in every lane.
  void gather(const Expr& tile, std::vector<StmtPtr>& out) {
    const SourceLoc loc = tile.loc;
    if (!analysis::is_repeatable(tile)) {
      fail(loc, "a simdgroup_matrix written through thread_elements() named by an expression with side effects");
      return;
    }
    if (sg_ < 0) sg_ = builtin_param(k_, BuiltinId::SimdgroupIndexInThreadgroup, "mslport_simdgroup");
    const Type elem = Type::scalar_of(tile.type.scalar);
    const int x = exchange(tile.type.scalar, loc);
    auto array = [&] {
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::TgAllocRef;
      e->type = k_.tg_allocs[x].type;
      e->index = x;
      e->loc = loc;
      return e;
    };
    auto base = [&] { return ubin(BinaryOp::Mul, make_param_ref(k_, sg_, loc), uint_lit(64, loc)); };
    out.push_back(barrier(loc));
    for (int i = 0; i < 2; ++i) {
      // exchange[sg * 64 + 2 * pair + i] = tile[pair][i]
      ExprPtr slot =
          ubin(BinaryOp::Add, base(),
               ubin(BinaryOp::Add, ubin(BinaryOp::Mul, lane_pair(k_, lane_, loc), uint_lit(2, loc)), uint_lit(i, loc)));
      ExprPtr pair = make_index(tile.clone(), lane_pair(k_, lane_, loc), Type::vector_of(tile.type.scalar, 2));
      ExprPtr value = make_index(std::move(pair), make_int(Type::scalar_of(ScalarKind::Int), i, loc), elem);
      out.push_back(make_expr_stmt(make_assign(make_index(array(), std::move(slot), elem), std::move(value), loc)));
    }
    out.push_back(barrier(loc));
    // simdgroup_load(tile, &exchange[sg * 64], 8, ulong2(0, 0), false)
    auto load = std::make_unique<Expr>();
    load->kind = Expr::Kind::SimdMatrixOp;
    load->matrix_op = SimdMatrixOpKind::Load;
    load->spelling = simd_matrix_op_name(SimdMatrixOpKind::Load);
    load->type = Type::void_type();
    load->loc = loc;
    const Type ulong_t = Type::scalar_of(ScalarKind::ULong);
    load->args.push_back(tile.clone());
    load->args.push_back(make_address_of_element(array(), base(), elem));
    load->args.back()->type = Type::pointer_to(elem, AddressSpace::Threadgroup, false);
    load->args.push_back(make_int(ulong_t, 8, loc));
    auto origin = std::make_unique<Expr>();
    origin->kind = Expr::Kind::VectorConstruct;
    origin->type = Type::vector_of(ScalarKind::ULong, 2);
    origin->loc = loc;
    origin->args.push_back(make_int(ulong_t, 0, loc));
    origin->args.push_back(make_int(ulong_t, 0, loc));
    load->args.push_back(std::move(origin));
    load->args.push_back(make_bool(false, loc));
    out.push_back(make_expr_stmt(std::move(load)));
  }

  void fail(SourceLoc loc, const std::string& what) {
    diags_.error(loc.valid() ? loc : k_.loc, what + " is not supported yet");
    ok_ = false;
  }

  Kernel& k_;
  DiagEngine& diags_;
  bool ok_ = true;
  int lane_ = -1, sg_ = -1;
  std::set<int> divergent_;
  std::map<ScalarKind, int> exchange_;
};

}  // namespace

bool lower_thread_elements(Kernel& k, DiagEngine& diags) {
  if (!k.body) return true;
  return Lowering(k, diags).run();
}

}  // namespace mslport::passes
