#include "passes/loop_schedule_points.h"

#include "passes/lower_execution_model.h"
#include "pass_test_util.h"

using namespace mslport;
using namespace mslport::testing;
using ir::Stmt;

namespace {
const Stmt* first_loop(const ir::Kernel& k) {
  const Stmt* found = nullptr;
  ir::walk_stmts(*k.body, [&](const Stmt& s) {
    if (!found && s.kind == Stmt::Kind::For) found = &s;
    return !found;
  });
  return found;
}
bool starts_with_schedule_point(const Stmt& loop) {
  return !loop.body->stmts.empty() && loop.body->stmts[0]->kind == Stmt::Kind::Barrier &&
         loop.body->stmts[0]->lockstep;
}
}  // namespace

TEST(LoopSchedulePoints, UniformLoopInsideTheWorkItemsGetsOne) {
  auto m = parse_or_die(R"(
kernel void k(device const float* w [[buffer(0)]], device const float* x [[buffer(1)]],
              device float* out [[buffer(2)]], constant uint& n [[buffer(3)]], constant uint& h [[buffer(4)]],
              uint i [[thread_position_in_grid]]) {
  if (i >= h) return;
  float sum = 0.0f;
  for (uint s = 0; s < n; s++) sum += w[s] * x[s * h + i];
  out[i] = sum;
}
)");
  auto& k = m.kernels[0];
  EXPECT_EQ(passes::insert_loop_schedule_points(k), 1);
  ASSERT_NE(first_loop(k), nullptr);
  EXPECT_TRUE(starts_with_schedule_point(*first_loop(k)));
  // The whole lowering accepts it: the early return becomes the alive flag
  // and the loop stays a plain loop (uniform trip count).
  DiagEngine diags;
  passes::LowerOptions opt;
  opt.schedule_loops = true;
  auto m2 = parse_or_die(R"(
kernel void k(device const float* w [[buffer(0)]], device const float* x [[buffer(1)]],
              device float* out [[buffer(2)]], constant uint& n [[buffer(3)]], constant uint& h [[buffer(4)]],
              uint i [[thread_position_in_grid]]) {
  if (i >= h) return;
  float sum = 0.0f;
  for (uint s = 0; s < n; s++) sum += w[s] * x[s * h + i];
  out[i] = sum;
}
)");
  EXPECT_TRUE(passes::lower_execution_model(m2, m2.kernels[0], diags, opt));
  EXPECT_FALSE(diags.has_errors());
}

TEST(LoopSchedulePoints, PerThreadLiteralNestedAndSyncLoopsGetNone) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], constant uint& n [[buffer(1)]],
              threadgroup float* sh [[threadgroup(0)]],
              uint lid [[thread_position_in_threadgroup]], uint i [[thread_position_in_grid]]) {
  float a = 0.0f;
  for (uint c = lid; c < n; c += 32u) a += out[c];        // trip count differs per thread
  for (uint j = 0; j < 8u; j++) a += out[j];              // literal bound: unrolled by the compiler
  for (uint p = 0; p < n; p++)                            // holds a loop
    for (uint q = 0; q < n; q++) a += out[p * n + q];
  for (uint r = 0; r < n; r++) {                          // holds a barrier
    sh[lid] = a;
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  if (out[0] > 0.0f) {                                    // under a memory-dependent condition
    for (uint t = 0; t < n; t++) a += 1.0f;
  }
  out[i] = a;
}
)");
  EXPECT_EQ(passes::insert_loop_schedule_points(m.kernels[0]), 0);
}
