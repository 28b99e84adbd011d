#include "passes/lower_execution_model.h"

#include "pass_test_util.h"
#include "passes/eliminate_returns.h"
#include "passes/hoist_collectives.h"
#include "passes/normalize_blocks.h"
#include "passes/predicate_sync.h"

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

TEST(HoistCollectives, ConditionalOperandMovesIntoABranch) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  out[tid] = tid > 3u ? simd_sum(1.0f) : 0.0f;
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  passes::normalize_blocks(k);
  ASSERT_TRUE(passes::hoist_collectives(k, diags));
  // T t; if (tid > 3u) { s = simd_sum(1.0f); t = s; } else { t = 0.0f; }  out[tid] = t;
  ASSERT_EQ(k.body->stmts.size(), 3u);
  const Stmt& branch = *k.body->stmts[1];
  ASSERT_EQ(branch.kind, Stmt::Kind::If);
  ASSERT_NE(branch.else_body, nullptr);
  EXPECT_TRUE(passes::is_canonical_collective_stmt(*branch.body->stmts[0]));
  EXPECT_EQ(count_exprs(*branch.else_body, Expr::Kind::Collective), 0);
  EXPECT_EQ(count_exprs(*k.body->stmts[2], Expr::Kind::Collective), 0);
}

TEST(HoistCollectives, RightOfShortCircuitRunsOnlyWhenEvaluated) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  bool a = tid > 3u && simd_any(tid > 9u);
  bool b = tid > 3u || simd_all(tid > 1u);
  out[tid] = a && b ? 1.0f : 0.0f;
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  passes::normalize_blocks(k);
  ASSERT_TRUE(passes::hoist_collectives(k, diags));
  // bool t = tid > 3u; if (t) { ...simd_any...; t = ...; }  and  if (!t2) { ...simd_all... }
  std::vector<const Stmt*> ifs;
  for (auto& s : k.body->stmts)
    if (s->kind == Stmt::Kind::If) ifs.push_back(s.get());
  ASSERT_EQ(ifs.size(), 2u);
  EXPECT_EQ(ifs[0]->expr->kind, Expr::Kind::VarRef);
  EXPECT_EQ(ifs[1]->expr->kind, Expr::Kind::Unary);
  EXPECT_EQ(count_exprs(*ifs[0]->body, Expr::Kind::Collective), 1);
  EXPECT_EQ(count_exprs(*ifs[1]->body, Expr::Kind::Collective), 1);
}

TEST(HoistCollectives, LoopConditionIsTestedAtTheTopOfTheBody) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  float v = out[tid];
  while (simd_any(v > 1.0f)) { v *= 0.5f; }
  out[tid] = v;
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  passes::normalize_blocks(k);
  ASSERT_TRUE(passes::hoist_collectives(k, diags));
  const Stmt& loop = *k.body->stmts[1];
  ASSERT_EQ(loop.kind, Stmt::Kind::For);
  EXPECT_EQ(loop.expr, nullptr);
  // { any = simd_any(v > 1); if (!any) break; v *= 0.5f; }
  ASSERT_EQ(loop.body->stmts.size(), 3u);
  EXPECT_TRUE(passes::is_canonical_collective_stmt(*loop.body->stmts[0]));
  EXPECT_EQ(loop.body->stmts[1]->kind, Stmt::Kind::If);
  EXPECT_EQ(count_stmts(*loop.body->stmts[1], Stmt::Kind::Break), 1);
}

TEST(HoistCollectives, IncrementWithCollectiveAndContinueIsReported) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  for (uint i = 0; i < 4u; i += uint(simd_sum(1.0f))) {
    if (out[i] < 0.0f) continue;
    out[i] = 1.0f;
  }
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  passes::normalize_blocks(k);
  EXPECT_FALSE(passes::hoist_collectives(k, diags));
  ASSERT_TRUE(diags.has_errors());
  EXPECT_NE(diags.diagnostics()[0].message.find("increment of a loop with 'continue'"), std::string::npos);
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

TEST(PredicateSync, BreakAndContinueInDivergentLoopBecomeMasks) {
  auto m = parse_or_die(R"(
kernel void k(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
              uint tid [[thread_index_in_threadgroup]]) {
  float acc = 0.0f;
  for (uint i = 0; i < tid; ++i) {
    if (x[i] < -2.0f) break;
    if (x[i] < 0.0f) continue;
    acc += simd_sum(x[i]);
  }
  out[tid] = acc;
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  ASSERT_TRUE(passes::lower_execution_model(m, k, diags));
  EXPECT_EQ(count_stmts(*k.body, Stmt::Kind::Break), 0);
  EXPECT_EQ(count_stmts(*k.body, Stmt::Kind::Continue), 0);
  const Expr* c = find_collective(*k.body);
  ASSERT_NE(c, nullptr);
  ASSERT_NE(c->mask, nullptr);
  // The collective's mask reads the iteration mask that break and continue clear.
  int it = find_var(k, "mslport_iter_mask1");
  ASSERT_GE(it, 0);
  bool reads_it = false;
  for (auto& s : k.body->stmts)
    ir::walk_stmt_exprs(*s, [&](const Expr& e) {
      reads_it = reads_it || (e.kind == Expr::Kind::VarRef && e.index == it);
      return true;
    });
  EXPECT_TRUE(reads_it);
}

TEST(PredicateSync, UniformBreakInDivergentRegionIsPredicated) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], constant uint& stop [[buffer(1)]],
              uint lane [[thread_index_in_simdgroup]]) {
  float s = 0.0f;
  if (lane < 20u) {
    for (uint i = 0; i < 4u; ++i) {
      if (i == stop) break;
      s += simd_sum(1.0f);
    }
  }
  out[lane] = s;
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  ASSERT_TRUE(passes::lower_execution_model(m, k, diags));
  // Threads outside the branch would never take the break: the loop runs
  // while any thread still iterates, and no break is left.
  EXPECT_EQ(count_stmts(*k.body, Stmt::Kind::Break), 0);
  EXPECT_EQ(count_stmts(*k.body, Stmt::Kind::While), 1);
}

TEST(PredicateSync, ArrayInitialiserInDivergentCodeBecomesStores) {
  auto m = parse_or_die(R"(
kernel void k(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
              uint lane [[thread_index_in_simdgroup]]) {
  if (lane < 16u) {
    float acc[8] = {x[lane], 1.0f};
    float s = simd_sum(acc[0] + acc[7]);
    out[lane] = s;
  }
}
)");
  auto& k = m.kernels[0];
  DiagEngine diags;
  ASSERT_TRUE(passes::lower_execution_model(m, k, diags));
  EXPECT_EQ(count_exprs(*k.body, Expr::Kind::InitList), 0);
  // acc[0] and acc[1] stored, the other six zeroed by a loop.
  EXPECT_EQ(count_stmts(*k.body, Stmt::Kind::For), 1);
}
