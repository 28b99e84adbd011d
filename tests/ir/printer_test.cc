// The IR printer on hand-built IR (no front end): the text form is stable
// because tests and `mslport ir` users compare against it.
#include "ir/printer.h"

#include <gtest/gtest.h>

#include <cmath>

namespace mslport::ir {
namespace {

Type u32() { return Type::scalar_of(ScalarKind::UInt); }
Type f32() { return Type::scalar_of(ScalarKind::Float); }

ExprPtr param_ref(const Kernel& k, int i) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::ParamRef;
  e->type = k.params[i].type;
  e->index = i;
  return e;
}
ExprPtr float_lit(double v, const std::string& spelling) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::FloatLit;
  e->type = f32();
  e->float_value = v;
  e->spelling = spelling;
  return e;
}
ExprPtr make(Expr::Kind kind, Type t, std::vector<ExprPtr> args) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->type = std::move(t);
  e->args = std::move(args);
  return e;
}
template <typename... A>
std::vector<ExprPtr> list(A&&... a) {
  std::vector<ExprPtr> v;
  (v.push_back(std::forward<A>(a)), ...);
  return v;
}

Module small_module() {
  Module m;
  m.structs.push_back(StructDef{"Params", {{"n", Type::scalar_of(ScalarKind::Int), 0}, {"eps", f32(), 4}}, 8, 4, {}});
  m.constants.push_back(
      GlobalConst{"NSG", Type::scalar_of(ScalarKind::Int), make_int(Type::scalar_of(ScalarKind::Int), 8), {}});
  Kernel k;
  k.name = "demo";
  k.params.push_back(Param{Param::Kind::Buffer,
                           "x",
                           Type::pointer_to(f32(), AddressSpace::Device, true),
                           0,
                           false,
                           BuiltinId::ThreadPositionInGrid,
                           {}});
  k.params.push_back(Param{Param::Kind::Buffer,
                           "out",
                           Type::pointer_to(f32(), AddressSpace::Device, false),
                           1,
                           true,
                           BuiltinId::ThreadPositionInGrid,
                           {}});
  k.params.push_back(
      Param{Param::Kind::ConstantRef, "p", Type::struct_of(0), 3, false, BuiltinId::ThreadPositionInGrid, {}});
  k.params.push_back(Param{Param::Kind::ThreadgroupMemory,
                           "scratch",
                           Type::pointer_to(f32(), AddressSpace::Threadgroup, false),
                           0,
                           false,
                           BuiltinId::ThreadPositionInGrid,
                           {}});
  k.params.push_back(Param{Param::Kind::Builtin,
                           "tgpig",
                           Type::vector_of(ScalarKind::UInt, 3),
                           -1,
                           false,
                           BuiltinId::ThreadgroupPositionInGrid,
                           {}});
  k.params.push_back(Param{Param::Kind::Builtin, "lane", u32(), -1, false, BuiltinId::ThreadIndexInSimdgroup, {}});
  k.tg_allocs.push_back(TgAlloc{"part", Type::array_of(f32(), 8), {}});

  std::vector<StmtPtr> body;
  // %slot: const uint = tgpig.y
  int slot = add_var(k, "slot", u32(), {}, true);
  auto sw = make(Expr::Kind::Swizzle, u32(), list(param_ref(k, 4)));
  sw->components = {1};
  body.push_back(make_decl(slot, std::move(sw)));
  // if (slot >= cast<uint>(p.n)) { return }
  auto member = make(Expr::Kind::Member, Type::scalar_of(ScalarKind::Int), list(param_ref(k, 2)));
  member->index = 0;
  auto cond = make_binary(BinaryOp::Ge, Type::scalar_of(ScalarKind::Bool), make_var_ref(k, slot),
                          make(Expr::Kind::Cast, u32(), list(std::move(member))));
  auto ret = std::make_unique<Stmt>();
  ret->kind = Stmt::Kind::Return;
  std::vector<StmtPtr> then_body;
  then_body.push_back(std::move(ret));
  body.push_back(make_if(std::move(cond), make_block(std::move(then_body))));
  // %v: float = x[slot] * 2.0f + exp(-x[0])
  int v = add_var(k, "v", f32());
  auto idx = make(Expr::Kind::Index, f32(), list(param_ref(k, 0), make_var_ref(k, slot)));
  auto idx0 = make(Expr::Kind::Index, f32(), list(param_ref(k, 0), make_int(Type::scalar_of(ScalarKind::Int), 0)));
  auto call = make(Expr::Kind::Call, f32(), list(make_unary(UnaryOp::Neg, f32(), std::move(idx0))));
  call->spelling = "precise::exp";
  body.push_back(make_decl(
      v, make_binary(BinaryOp::Add, f32(), make_binary(BinaryOp::Mul, f32(), std::move(idx), float_lit(2.0, "2.0f")),
                     std::move(call))));
  // %s: float = simd_sum(v) [mask: lane < 16u]
  int s = add_var(k, "s", f32());
  auto coll = make(Expr::Kind::Collective, f32(), list(make_var_ref(k, v)));
  coll->collective_op = CollectiveOp::SimdSum;
  coll->mask = make_binary(BinaryOp::Lt, Type::scalar_of(ScalarKind::Bool), param_ref(k, 5), make_int(u32(), 16));
  body.push_back(make_decl(s, std::move(coll)));
  // part[lane] = s
  auto tg = make(Expr::Kind::TgAllocRef, k.tg_allocs[0].type, {});
  tg->index = 0;
  body.push_back(make_expr_stmt(
      make_assign(make(Expr::Kind::Index, f32(), list(std::move(tg), param_ref(k, 5))), make_var_ref(k, s))));
  // threadgroup_barrier(mem_threadgroup)
  auto bar = std::make_unique<Stmt>();
  bar->kind = Stmt::Kind::Barrier;
  bar->mem_flags = 2;
  body.push_back(std::move(bar));
  // for (%i: uint = 0u; i < 4u; i++) { out[i] += as_type<float>(i) }
  int i = add_var(k, "i", u32());
  auto loop = std::make_unique<Stmt>();
  loop->kind = Stmt::Kind::For;
  loop->init = make_decl(i, make_int(u32(), 0));
  loop->expr = make_binary(BinaryOp::Lt, Type::scalar_of(ScalarKind::Bool), make_var_ref(k, i), make_int(u32(), 4));
  loop->step = make_unary(UnaryOp::PostInc, u32(), make_var_ref(k, i));
  auto acc = make_assign(make(Expr::Kind::Index, f32(), list(param_ref(k, 1), make_var_ref(k, i))),
                         make(Expr::Kind::Bitcast, f32(), list(make_var_ref(k, i))));
  acc->assign_op = BinaryOp::Add;
  std::vector<StmtPtr> loop_body;
  loop_body.push_back(make_expr_stmt(std::move(acc)));
  loop->body = make_block(std::move(loop_body));
  body.push_back(std::move(loop));
  // %w: float4 = float4(v, v, 0.0f, -INFINITY)
  int w = add_var(k, "w", Type::vector_of(ScalarKind::Float, 4));
  auto vc = make(Expr::Kind::VectorConstruct, Type::vector_of(ScalarKind::Float, 4),
                 list(make_var_ref(k, v), make_var_ref(k, v), float_lit(0.0, "0.0f"),
                      make_unary(UnaryOp::Neg, f32(), float_lit(HUGE_VAL, "INFINITY"))));
  body.push_back(make_decl(w, std::move(vc)));
  // %arr: float[2] = {1.0f, NSG ? v : s}
  int arr = add_var(k, "arr", Type::array_of(f32(), 2));
  auto gc = make(Expr::Kind::GlobalConstRef, Type::scalar_of(ScalarKind::Int), {});
  gc->index = 0;
  auto cnd = make(Expr::Kind::Conditional, f32(), list(std::move(gc), make_var_ref(k, v), make_var_ref(k, s)));
  body.push_back(make_decl(
      arr, make(Expr::Kind::InitList, Type::array_of(f32(), 2), list(float_lit(1.0, "1.0f"), std::move(cnd)))));
  k.body = make_block(std::move(body));
  m.kernels.push_back(std::move(k));
  return m;
}

TEST(Printer, Module) {
  Module m = small_module();
  EXPECT_EQ(print_module(m), R"(struct Params (size 8, align 4)
  0 n: int
  4 eps: float
constant NSG: int = 8

kernel demo
  param 0 buffer(0) x: device const float*
  param 1 buffer(1, implicit) out: device float*
  param 2 buffer(3) p: constant Params&
  param 3 threadgroup(0) scratch: threadgroup float*
  param 4 builtin threadgroup_position_in_grid tgpig: uint3
  param 5 builtin thread_index_in_simdgroup lane: uint
  threadgroup part: float[8]
  body {
    %slot: const uint = tgpig.y
    if (slot >= cast<uint>(p.n)) {
      return
    }
    %v: float = (x[slot] * 2.0f) + precise::exp(-x[0])
    %s: float = simd_sum(v) [mask: lane < 16u]
    part[lane] = s
    threadgroup_barrier(mem_threadgroup)
    for (%i: uint = 0u; i < 4u; i++) {
      out[i] += as_type<float>(i)
    }
    %w: float4 = float4(v, v, 0.0f, -INFINITY)
    %arr: float[2] = {1.0f, NSG ? v : s}
  }
)");
}

TEST(Printer, ExprAndElseIf) {
  Module m = small_module();
  const Kernel& k = m.kernels[0];
  EXPECT_EQ(print_expr(m, k, *k.body->stmts[1]->expr), "slot >= cast<uint>(p.n)");
  // else { if ... } prints as else-if; an empty else is omitted.
  Kernel k2;
  k2.name = "k2";
  auto brk = [] {
    auto s = std::make_unique<Stmt>();
    s->kind = Stmt::Kind::Break;
    return s;
  };
  std::vector<StmtPtr> inner_then, outer_then, else_block;
  inner_then.push_back(brk());
  outer_then.push_back(brk());
  else_block.push_back(make_if(make_bool(false), make_block(std::move(inner_then)), make_block()));
  std::vector<StmtPtr> body;
  body.push_back(make_if(make_bool(true), make_block(std::move(outer_then)), make_block(std::move(else_block))));
  k2.body = make_block(std::move(body));
  EXPECT_EQ(print_kernel(m, k2),
            "kernel k2\n  body {\n    if (true) {\n      break\n    } else if (false) {\n"
            "      break\n    }\n  }\n");
}

}  // namespace
}  // namespace mslport::ir
