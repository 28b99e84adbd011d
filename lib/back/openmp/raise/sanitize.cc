// Why an IR step: the printer only prints. What is checked, and how each
// access is used (read, written, both, or only its address taken), is
// decided here once; the printer spells the intrinsics.
#include "back/openmp/raise/sanitize.h"

#include "ir/intrinsics.h"
#include "passes/hoist_collectives.h"

namespace mslport::back::openmp {
namespace {

using ir::Expr;
using ir::ExprPtr;
using ir::Stmt;

// The checker's Use values (sanitizer_rt.h), and kAddress: only the
// expression's address is taken, nothing is accessed.
enum Use {
  kRead = 0,
  kWrite = 1,
  kReadWrite = 2,
  kAtomicRead = 3,
  kAtomicWrite = 4,
  kAtomicReadWrite = 5,
  kAddress = 6
};

struct Instrumenter {
  ir::Kernel& k;
  SanitizerSites& sites;
  int alive_var = -1;

  // The region of an access through `base` (the array or pointer indexed or
  // dereferenced): a static threadgroup array or a buffer / threadgroup
  // parameter by id, a pointer into device or threadgroup memory to be
  // looked up at run time, or kRegionNotChecked (private arrays and
  // pointers, vectors, structs of constants).
  int region_of(const Expr& base) const {
    if (base.kind == Expr::Kind::TgAllocRef) return base.index;
    if (base.kind == Expr::Kind::ParamRef) {
      const ir::Param& p = k.params.at(base.index);
      if (p.kind == ir::Param::Kind::Buffer || p.kind == ir::Param::Kind::ThreadgroupMemory)
        return int(k.tg_allocs.size()) + base.index;
      return kRegionNotChecked;
    }
    if (!base.type.is_pointer()) return kRegionNotChecked;
    switch (base.type.space) {
      case ir::AddressSpace::Threadgroup: return kRegionFindThreadgroup;
      case ir::AddressSpace::Device:
      case ir::AddressSpace::Constant: return kRegionFindDevice;
      default: return kRegionNotChecked;
    }
  }

  // The region of the memory a pointer expression points into (simdgroup_load
  // / simdgroup_store): the allocation under `&a[i]`, `p + n` and casts when
  // it is known statically, else looked up at run time.
  int pointer_region(const Expr& ptr) const {
    const Expr* e = &ptr;
    for (;;) {
      if (e->kind == Expr::Kind::TgAllocRef || e->kind == Expr::Kind::ParamRef) {
        int r = region_of(*e);
        if (r != kRegionNotChecked) return r;
        break;
      }
      if (e->kind == Expr::Kind::Cast || (e->kind == Expr::Kind::Unary && e->unary_op == ir::UnaryOp::AddrOf) ||
          e->kind == Expr::Kind::Index) {
        e = e->args[0].get();
        continue;
      }
      if (e->kind == Expr::Kind::Binary && (e->binary_op == ir::BinaryOp::Add || e->binary_op == ir::BinaryOp::Sub)) {
        const Expr* l = e->args[0].get();
        const Expr* r = e->args[1].get();
        if (l->type.is_pointer() || l->type.is_array()) {
          e = l;
          continue;
        }
        if (r->type.is_pointer() || r->type.is_array()) {
          e = r;
          continue;
        }
      }
      break;
    }
    const int r = region_of(ptr);
    if (r != kRegionNotChecked) return r;
    return ptr.type.space == ir::AddressSpace::Threadgroup ? kRegionFindThreadgroup : kRegionFindDevice;
  }

  static ExprPtr int_lit(int v, const ir::SourceLoc& loc) {
    return ir::make_int(ir::Type::scalar_of(ir::ScalarKind::Int), v, loc);
  }

  // The memory an access through `base` reads: where its pointer points,
  // or threadgroup memory for a static threadgroup array.
  static ir::Type address_type(const Expr& base, const ir::Type& element) {
    if (base.type.is_pointer()) return ir::Type::pointer_to(element, base.type.space, base.type.is_const);
    return ir::Type::pointer_to(element, ir::AddressSpace::Threadgroup, false);
  }

  // `*__mslport_san_access(site, use, region, address)`: the element `address` points to, checked.
  ExprPtr checked(ExprPtr address, int use, int region, const ir::SourceLoc& loc) {
    const ir::Type element = *address->type.elem;
    const ir::Type pointer = address->type;
    std::vector<ExprPtr> args;
    args.push_back(int_lit(sites.site(loc), loc));
    args.push_back(int_lit(use, loc));
    args.push_back(int_lit(region, loc));
    args.push_back(std::move(address));
    return ir::make_unary(ir::UnaryOp::Deref, element, ir::make_call(kSanAccess, pointer, std::move(args), loc), loc);
  }

  // `&e`, pointing into the memory of `base`.
  static ExprPtr address_of(ExprPtr e, const Expr& base) {
    const ir::SourceLoc loc = e->loc;
    const ir::Type t = address_type(base, e->type);
    return ir::make_unary(ir::UnaryOp::AddrOf, t, std::move(e), loc);
  }

  // The indices of an access `a[i][j]` are instrumented as reads; the chain
  // of subscripts itself is the address.
  void index_chain(ExprPtr& s) {
    if (s->kind != Expr::Kind::Index) {
      slot(s, kRead);
      return;
    }
    index_chain(s->args[0]);
    slot(s->args[1], kRead);
  }

  // The object an element or field access `e` is part of: down through
  // fields (`.f`) and subscripts of arrays, to a subscript of a pointer,
  // `*p`, `p->f` or a threadgroup array.
  static const Expr* access_root(const Expr& e) {
    const Expr* x = &e;
    while ((x->kind == Expr::Kind::Member && !x->arrow) ||
           (x->kind == Expr::Kind::Index && x->args[0]->type.kind == ir::Type::Kind::Array))
      x = x->args[0].get();
    return x;
  }

  // The memory `root` (an access_root) is in: its pointer, or the array.
  static const Expr* root_memory(const Expr& root) {
    if (root.kind == Expr::Kind::Index || root.kind == Expr::Kind::Member ||
        (root.kind == Expr::Kind::Unary && root.unary_op == ir::UnaryOp::Deref))
      return root.args[0].get();
    return &root;
  }

  // The reads an access chain makes besides the element itself: its
  // subscripts and the pointer it goes through.
  void chain_reads(ExprPtr& s) {
    Expr& e = *s;
    if (e.kind == Expr::Kind::Member) {
      if (e.arrow) slot(e.args[0], kRead);
      else chain_reads(e.args[0]);
      return;
    }
    if (e.kind == Expr::Kind::Index) {
      if (e.args[0]->type.kind == ir::Type::Kind::Array) chain_reads(e.args[0]);
      else slot(e.args[0], kRead);
      slot(e.args[1], kRead);
      return;
    }
    if (e.kind == Expr::Kind::Unary && e.unary_op == ir::UnaryOp::Deref) slot(e.args[0], kRead);
  }

  // Instruments the expression in `s`, used as `use`.
  void slot(ExprPtr& s, int use) {
    Expr& e = *s;
    if (use != kAddress && e.type.kind != ir::Type::Kind::Array) {
      // An element or a field in checked memory (`p[i]`, `tg[i][j]`,
      // `p[i].f`, `(*p).a[k]`, `p->f`) is checked as itself, not as the
      // whole struct or array it is part of.
      if (e.kind == Expr::Kind::Index || e.kind == Expr::Kind::Member) {
        const Expr* root = access_root(e);
        const bool via_pointer = root->kind == Expr::Kind::Index || (root->kind == Expr::Kind::Member && root->arrow) ||
                                 (root->kind == Expr::Kind::Unary && root->unary_op == ir::UnaryOp::Deref);
        const Expr* memory = root_memory(*root);
        const int region = via_pointer || root->kind == Expr::Kind::TgAllocRef ? region_of(*memory) : kRegionNotChecked;
        if (region != kRegionNotChecked && (root != &e || e.kind == Expr::Kind::Member)) {
          chain_reads(s);
          const ir::Type t = address_type(*memory, e.type);
          const ir::SourceLoc loc = e.loc;
          s = checked(ir::make_unary(ir::UnaryOp::AddrOf, t, std::move(s), loc), use, region, loc);
          return;
        }
      }
      if (e.kind == Expr::Kind::Index) {
        const Expr* base = e.args[0].get();
        while (base->kind == Expr::Kind::Index && base->type.kind == ir::Type::Kind::Array) base = base->args[0].get();
        const int region = region_of(*base);
        if (region != kRegionNotChecked) {
          index_chain(s);
          const ir::Type t = address_type(*base, e.type);
          const ir::SourceLoc loc = e.loc;
          s = checked(ir::make_unary(ir::UnaryOp::AddrOf, t, std::move(s), loc), use, region, loc);
          return;
        }
      }
      if (e.kind == Expr::Kind::Unary && e.unary_op == ir::UnaryOp::Deref) {
        const int region = region_of(*e.args[0]);
        if (region != kRegionNotChecked) {
          slot(e.args[0], kRead);
          const ir::SourceLoc loc = e.loc;
          s = checked(std::move(e.args[0]), use, region, loc);
          return;
        }
      }
      if (e.kind == Expr::Kind::TgAllocRef) {
        const int region = e.index;
        const ir::SourceLoc loc = e.loc;
        const Expr& base = e;
        s = checked(address_of(std::move(s), base), use, region, loc);
        return;
      }
    }
    visit(&e, use);
  }

  // The operands of `e`, each with the use `e` gives it.
  void visit(Expr* e, int use) {
    if (!e) return;
    switch (e->kind) {
      case Expr::Kind::Unary: {
        int u = kRead;
        if (e->unary_op == ir::UnaryOp::AddrOf) u = kAddress;
        if (ir::is_increment(e->unary_op)) u = kReadWrite;
        slot(e->args[0], u);
        return;
      }
      case Expr::Kind::Assign:
        slot(e->args[0], e->assign_op ? kReadWrite : kWrite);
        slot(e->args[1], kRead);
        return;
      case Expr::Kind::Call:
        if (e->intrinsic != ir::Intrinsic::None &&
            ir::intrinsic_info(e->intrinsic).effect == ir::IntrinsicEffect::Atomic) {
          atomic_call(*e);
          return;
        }
        for (auto& a : e->args) slot(a, kRead);
        return;
      case Expr::Kind::Member:
      case Expr::Kind::Swizzle: slot(e->args[0], e->kind == Expr::Kind::Member && e->arrow ? kRead : use); return;
      default:
        for (auto& a : e->args) slot(a, kRead);
        if (e->mask) slot(e->mask, kRead);
        return;
    }
  }

  // An atomic function's object is checked as an atomic access: atomics of
  // different threads do not race with each other, a plain access and an
  // atomic one do. `&x` becomes `&*__mslport_san_access(..., &x)`.
  void atomic_call(Expr& call) {
    for (auto& a : call.args) slot(a, kRead);  // the operands, and the reads inside the object's address
    ExprPtr& object = call.args[0];
    const int use = call.intrinsic == ir::Intrinsic::AtomicLoad    ? kAtomicRead
                    : call.intrinsic == ir::Intrinsic::AtomicStore ? kAtomicWrite
                                                                   : kAtomicReadWrite;
    const int region = pointer_region(*object);
    const ir::SourceLoc loc = call.loc;
    const ir::Type pointer = object->type;
    object = ir::make_unary(ir::UnaryOp::AddrOf, pointer, checked(std::move(object), use, region, loc), loc);
  }

  // simdgroup_matrix operations: the tile's accesses belong to the SIMD
  // group as a whole, and every operation counts for the divergence check.
  void tiles(ExprPtr& s) {
    for (auto& a : s->args) tiles(a);
    if (s->mask) tiles(s->mask);
    Expr& e = *s;
    if (e.kind != Expr::Kind::SimdMatrixOp || e.matrix_op == ir::SimdMatrixOpKind::Fill ||
        e.matrix_op == ir::SimdMatrixOpKind::Diagonal)
      return;
    const ir::SourceLoc loc = e.loc;
    std::vector<ExprPtr> args;
    args.push_back(int_lit(sites.site(loc), loc));
    if (e.matrix_op == ir::SimdMatrixOpKind::Load || e.matrix_op == ir::SimdMatrixOpKind::Store) {
      args.push_back(int_lit(pointer_region(*e.args[1]), loc));
      for (auto& a : e.args) args.push_back(std::move(a));
      s = ir::make_call(e.matrix_op == ir::SimdMatrixOpKind::Load ? kSanTileLoad : kSanTileStore, e.type,
                        std::move(args), loc);
      return;
    }
    const ir::Type t = e.type;
    args.push_back(std::move(s));
    s = ir::make_call(kSanTileOp, t, std::move(args), loc);
  }

  void expressions(Stmt& st) {
    for (ExprPtr* e : {&st.expr, &st.step}) {
      if (!*e) continue;
      slot(*e, kRead);
      tiles(*e);
    }
  }

  ir::StmtPtr event(const char* name, std::vector<ExprPtr> args, const ir::SourceLoc& loc) {
    auto s = ir::make_expr_stmt(ir::make_call(name, ir::Type::void_type(), std::move(args), loc));
    s->loc = loc;
    return s;
  }

  // The statements that mark an ordering point, after the point.
  std::vector<ir::StmtPtr> events_after(const Stmt& s) {
    std::vector<ir::StmtPtr> out;
    if (s.kind == Stmt::Kind::Barrier && !s.lockstep) {
      // lockstep barriers emulate SIMD lock-step: no Metal ordering point.
      if (s.simdgroup_scope) {
        out.push_back(event(kSanSimdSync, {}, s.loc));
      } else {
        std::vector<ExprPtr> args;
        args.push_back(int_lit(sites.site(s.loc), s.loc));
        args.push_back(ir::make_bool((s.mem_flags & 1) != 0, s.loc));
        out.push_back(event(kSanBarrier, std::move(args), s.loc));
      }
    }
    // A SIMD-group function orders the accesses of its group's lanes.
    if (passes::is_canonical_collective_stmt(s)) out.push_back(event(kSanSimdSync, {}, s.loc));
    // An early return (eliminate_returns' `alive = false`), for the
    // divergence check of later barriers.
    if (alive_var >= 0 && s.kind == Stmt::Kind::ExprStmt && s.expr->kind == Expr::Kind::Assign && !s.expr->assign_op &&
        s.expr->args[0]->kind == Expr::Kind::VarRef && s.expr->args[0]->index == alive_var) {
      std::vector<ExprPtr> args;
      args.push_back(int_lit(sites.site(s.loc), s.loc));
      out.push_back(event(kSanReturned, std::move(args), s.loc));
    }
    return out;
  }

  void block(Stmt& b) {
    std::vector<ir::StmtPtr> out;
    for (auto& c : b.stmts) {
      statement(*c);
      std::vector<ir::StmtPtr> events = events_after(*c);
      out.push_back(std::move(c));
      for (auto& e : events) out.push_back(std::move(e));
    }
    b.stmts = std::move(out);
  }

  void statement(Stmt& s) {
    expressions(s);
    if (s.kind == Stmt::Kind::Block) block(s);
    if (s.init) statement(*s.init);
    if (s.body) statement(*s.body);
    if (s.else_body) statement(*s.else_body);
  }
};

}  // namespace

bool is_sanitizer_sync_event(const Stmt& s) {
  return s.kind == Stmt::Kind::ExprStmt && s.expr->kind == Expr::Kind::Call &&
         (s.expr->spelling == kSanBarrier || s.expr->spelling == kSanSimdSync);
}

void instrument_for_sanitizer(ir::Kernel& k, SanitizerSites& sites) {
  if (!k.body) return;
  Instrumenter in{k, sites};
  for (size_t i = 0; i < k.vars.size(); ++i)
    if (k.vars[i].name == ir::kAliveVarName) in.alive_var = int(i);
  in.statement(*k.body);
}

}  // namespace mslport::back::openmp
