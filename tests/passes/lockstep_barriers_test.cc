#include "passes/lockstep_barriers.h"

#include "pass_test_util.h"
#include "passes/lower_execution_model.h"

using namespace mslport;
using namespace mslport::testing;
using ir::Stmt;

namespace {
int top_level_barriers(const ir::Kernel& k) {
  int n = 0;
  for (auto& s : k.body->stmts) n += s->kind == Stmt::Kind::Barrier;
  return n;
}
}  // namespace

TEST(LockstepBarriers, ReadThenWriteOfThreadgroupMemoryGetsABarrier) {
  // Every thread reads sh[0], then thread 0's slot is overwritten: on Metal
  // the SIMD group's lanes all read before any writes.
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], threadgroup float* sh [[threadgroup(0)]],
              uint tid [[thread_index_in_threadgroup]]) {
  sh[tid] = float(tid);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  float first = sh[0];
  sh[tid] = first + 1.0f;
  out[tid] = first;
}
)");
  auto& k = m.kernels[0];
  EXPECT_EQ(top_level_barriers(k), 1);
  EXPECT_EQ(passes::insert_lockstep_barriers(k), 1);
  EXPECT_EQ(top_level_barriers(k), 2);
  // The new barrier sits right before the write.
  ASSERT_EQ(k.body->stmts[3]->kind, Stmt::Kind::Barrier);
}

TEST(LockstepBarriers, IndependentAccessesGetNone) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], threadgroup float* sh [[threadgroup(0)]],
              uint tid [[thread_index_in_threadgroup]]) {
  sh[tid] = float(tid);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  float a = sh[0];
  float b = sh[1];
  out[tid] = a + b;
}
)");
  auto& k = m.kernels[0];
  EXPECT_EQ(passes::insert_lockstep_barriers(k), 0);
}

TEST(LockstepBarriers, KernelsWithoutSynchronisationAreLeftAlone) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_position_in_grid]]) {
  threadgroup float sh[32];
  sh[tid % 32u] = 1.0f;
  out[tid] = sh[tid % 32u];
}
)");
  EXPECT_EQ(passes::insert_lockstep_barriers(m.kernels[0]), 0);
}
