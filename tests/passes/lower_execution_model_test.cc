#include "passes/lower_execution_model.h"

#include "passes/eliminate_returns.h"
#include "passes/hoist_collectives.h"
#include "passes/normalize_blocks.h"
#include "passes/predicate_sync.h"
#include "pass_test_util.h"

using namespace mslport;
using namespace mslport::testing;
using ir::Expr;
using ir::Stmt;

TEST(HoistCollectives, NestedCollectiveGetsItsOwnStatement) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  out[tid] = simd_sum(float(tid)) * 2.0f;
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  passes::normalize_blocks(k);
  ASSERT_TRUE(passes::hoist_collectives(k, diags));
  ASSERT_EQ(k.body->stmts.size(), 2u);
  EXPECT_TRUE(passes::is_canonical_collective_stmt(*k.body->stmts[0]));
  EXPECT_EQ(count_exprs(*k.body->stmts[1], Expr::Kind::Collective), 0);
}

TEST(HoistCollectives, ConditionalEvaluationIsReported) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  out[tid] = tid > 3u ? simd_sum(1.0f) : 0.0f;
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  passes::normalize_blocks(k);
  EXPECT_FALSE(passes::hoist_collectives(k, diags));
  ASSERT_TRUE(diags.has_errors());
  EXPECT_NE(diags.diagnostics()[0].message.find("conditionally"), std::string::npos);
  EXPECT_EQ(diags.diagnostics()[0].loc.line, 5);
}

TEST(EliminateReturns, DivergentReturnBeforeCollectiveBecomesFlag) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], constant uint& n [[buffer(1)]],
              uint tid [[thread_index_in_threadgroup]]) {
  if (tid >= n) return;
  float s = simd_sum(1.0f);
  out[tid] = s;
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  ASSERT_TRUE(passes::lower_execution_model(m, k, diags));
  EXPECT_EQ(count_stmts(*k.body, Stmt::Kind::Return), 0);
  int alive = find_var(k, passes::kAliveVarName);
  ASSERT_GE(alive, 0);
  const Expr* c = find_collective(*k.body);
  ASSERT_NE(c, nullptr);
  ASSERT_NE(c->mask, nullptr);
  bool uses_alive = false;
  ir::walk_exprs(*c->mask, [&](const Expr& e) {
    if (e.kind == Expr::Kind::VarRef && e.index == alive) uses_alive = true;
    return true;
  });
  EXPECT_TRUE(uses_alive);
}

TEST(EliminateReturns, UniformReturnIsKept) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], constant uint& rows [[buffer(1)]],
              threadgroup float* sh [[threadgroup(0)]],
              uint row [[threadgroup_position_in_grid]], uint tid [[thread_index_in_threadgroup]]) {
  if (row >= rows) { return; }
  sh[tid] = 1.0f;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[row] = sh[0];
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  ASSERT_TRUE(passes::lower_execution_model(m, k, diags));
  EXPECT_EQ(find_var(k, passes::kAliveVarName), -1);
  EXPECT_EQ(count_stmts(*k.body, Stmt::Kind::Return), 1);
}

TEST(PredicateSync, CollectiveInDivergentIfGetsMask) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], constant uint& n [[buffer(1)]],
              uint lane [[thread_index_in_simdgroup]], uint tid [[thread_index_in_threadgroup]]) {
  if (lane < n) {
    float v = float(lane);
    float s = simd_sum(v);
    out[tid] = s;
  }
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  ASSERT_TRUE(passes::lower_execution_model(m, k, diags));
  // The collective now sits at the top level of the kernel, with a mask.
  bool top_level = false;
  for (auto& s : k.body->stmts)
    if (passes::is_canonical_collective_stmt(*s)) {
      top_level = true;
      const Expr& c = s->kind == Stmt::Kind::Decl ? *s->expr : *s->expr->args[1];
      EXPECT_NE(c.mask, nullptr);
    }
  EXPECT_TRUE(top_level);
}

TEST(PredicateSync, BarrierInDivergentIfIsAnError) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  if (tid < 4u) {
    out[tid] = 1.0f;
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  EXPECT_FALSE(passes::lower_execution_model(m, k, diags));
  ASSERT_TRUE(diags.has_errors());
  EXPECT_NE(diags.diagnostics()[0].message.find("threadgroup_barrier in divergent control flow"), std::string::npos);
  EXPECT_EQ(diags.diagnostics()[0].loc.line, 7);
}

TEST(PredicateSync, BarrierAfterDivergentReturnIsAllowed) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], threadgroup float* sh [[threadgroup(0)]],
              constant uint& n [[buffer(1)]], uint tid [[thread_index_in_threadgroup]]) {
  if (tid >= n) return;
  sh[tid] = 1.0f;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[tid] = sh[0];
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  EXPECT_TRUE(passes::lower_execution_model(m, k, diags));
  // The barrier is now reached by every thread.
  bool top_level_barrier = false;
  for (auto& s : k.body->stmts) top_level_barrier |= s->kind == Stmt::Kind::Barrier;
  EXPECT_TRUE(top_level_barrier);
}

TEST(PredicateSync, CollectiveInDivergentLoopIteratesWhileAnyThreadDoes) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  float acc = 0.0f;
  for (uint i = tid; i < 100u; i += 7u) {
    acc += simd_sum(float(i));
  }
  out[tid] = acc;
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  ASSERT_TRUE(passes::lower_execution_model(m, k, diags));
  const Stmt* loop = nullptr;
  for (auto& s : k.body->stmts)
    if (s->kind == Stmt::Kind::While) loop = s.get();
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->expr->kind, Expr::Kind::Call);
  EXPECT_EQ(loop->expr->spelling, passes::kThreadgroupAny);
  const Expr* c = find_collective(*loop->body);
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c->mask, nullptr);
}

TEST(PredicateSync, BarrierInDivergentLoopIsAnError) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], threadgroup float* sh [[threadgroup(0)]],
              uint tid [[thread_index_in_threadgroup]]) {
  for (uint i = tid; i < 100u; i += 7u) {
    sh[tid] = float(i) + simd_sum(1.0f);
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  out[tid] = sh[0];
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  EXPECT_FALSE(passes::lower_execution_model(m, k, diags));
  ASSERT_TRUE(diags.has_errors());
  EXPECT_NE(diags.diagnostics()[0].message.find("loop whose trip count differs"), std::string::npos);
  EXPECT_EQ(diags.diagnostics()[0].loc.line, 8);
}
