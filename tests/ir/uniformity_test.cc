#include "ir/analysis/uniformity.h"

#include "passes/pass_test_util.h"

using namespace mslport;
using namespace mslport::testing;
using ir::analysis::Uniformity;

TEST(Uniformity, ClassifiesValuesBySource) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
              constant uint& n [[buffer(2)]],
              uint tid [[thread_index_in_threadgroup]], uint tg [[threadgroup_position_in_grid]],
              uint sg [[simdgroup_index_in_threadgroup]]) {
  uint a = tg * n;          // threadgroup-uniform
  uint b = tid + a;         // varying
  uint c = sg * 2u;         // simdgroup-uniform
  float d = in[a];          // read from device memory: unknown
  uint e = 0;
  if (tid < 3u) { e = 1u; } // assigned under a divergent condition
  out[b] = float(c) + d + float(e);
}
)");
  ASSERT_EQ(m.kernels.size(), 1u);
  const auto& k = m.kernels[0];
  auto info = ir::analysis::analyze_uniformity(k);
  EXPECT_EQ(info.vars[find_var(k, "a")], Uniformity::Threadgroup);
  EXPECT_EQ(info.vars[find_var(k, "b")], Uniformity::Thread);
  EXPECT_EQ(info.vars[find_var(k, "c")], Uniformity::Simdgroup);
  EXPECT_EQ(info.vars[find_var(k, "d")], Uniformity::Unknown);
  EXPECT_EQ(info.vars[find_var(k, "e")], Uniformity::Thread);
}

TEST(Uniformity, TreeReductionLoopIsUniform) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], threadgroup float* sh [[threadgroup(0)]],
              uint tid [[thread_index_in_threadgroup]], uint n [[threads_per_threadgroup]]) {
  sh[tid] = 1.0f;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  for (uint s = n / 2; s > 0; s >>= 1) {
    if (tid < s) sh[tid] += sh[tid + s];
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  if (tid == 0) out[0] = sh[0];
}
)");
  const auto& k = m.kernels[0];
  auto info = ir::analysis::analyze_uniformity(k);
  EXPECT_EQ(info.vars[find_var(k, "s")], Uniformity::Threadgroup);
  for (auto& [stmt, level] : info.loop_level) EXPECT_EQ(level, Uniformity::Threadgroup);
}

TEST(Uniformity, DivergentBreakMakesLoopVarying) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  for (uint i = 0; i < 8u; ++i) {
    if (i == tid) break;
    out[i] = 1.0f;
  }
}
)");
  const auto& k = m.kernels[0];
  auto info = ir::analysis::analyze_uniformity(k);
  ASSERT_EQ(info.loop_level.size(), 1u);
  EXPECT_EQ(info.loop_level.begin()->second, Uniformity::Thread);
}

// A simdgroup_matrix is its SIMD group's: kept per work-item across a
// barrier, never one copy for the threadgroup (which the next SIMD group's
// load would overwrite). Its destination operand is written by the tile
// operation.
TEST(Uniformity, SimdgroupMatrixTilesBelongToTheirSimdGroup) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
              uint sg [[simdgroup_index_in_threadgroup]]) {
  simdgroup_float8x8 a, b;
  simdgroup_load(a, in + sg * 64, 8);
  b = make_filled_simdgroup_matrix<float, 8, 8>(1.0f);
  threadgroup_barrier(mem_flags::mem_none);
  simdgroup_multiply(a, a, b);
  simdgroup_store(a, out + sg * 64, 8);
}
)");
  const auto& k = m.kernels[0];
  auto info = ir::analysis::analyze_uniformity(k);
  EXPECT_EQ(info.vars[find_var(k, "a")], Uniformity::Simdgroup);
  EXPECT_EQ(info.vars[find_var(k, "b")], Uniformity::Simdgroup);
}

// A store through a thread pointer writes the private variables the
// pointer may reach: those whose address is taken, and arrays used as a
// pointer. They vary with what is stored; a variable whose address is not
// taken does not. A pointer into a varying variable varies too: each
// thread's copy is elsewhere.
TEST(Uniformity, StoresThroughThreadPointersReachAddressTakenVariables) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  float2 frags[2] = {float2(0.0f), float2(0.0f)};
  float arr[2] = {0.0f, 0.0f};
  float untouched = 1.0f;
  thread float* e = reinterpret_cast<thread float*>(&frags[0]);
  thread float* p = arr;
  e[1] = float(tid);
  *p = float(tid);
  out[tid] = frags[0].y + arr[0] + untouched;
}
)");
  const auto& k = m.kernels[0];
  auto info = ir::analysis::analyze_uniformity(k);
  EXPECT_EQ(info.vars[find_var(k, "frags")], Uniformity::Thread);
  EXPECT_EQ(info.vars[find_var(k, "arr")], Uniformity::Thread);
  EXPECT_EQ(info.vars[find_var(k, "untouched")], Uniformity::Threadgroup);
  EXPECT_EQ(info.vars[find_var(k, "e")], Uniformity::Thread);
}

TEST(Uniformity, AssignmentsOnAConditionRunAtTheConditionsLevel) {
  // The right of && and || and the arms of ?: run only where the condition
  // says: a counter incremented there differs between threads.
  auto m = parse_or_die(R"(
kernel void k(device int* out [[buffer(0)]], constant uint& n [[buffer(1)]],
              uint tid [[thread_index_in_threadgroup]]) {
  int c = 0, d = 0, e = 0, f = 0;
  bool t = (tid % 2u == 0u) && (c++ > 0);
  bool u = (tid > 3u) || (d++ > 0);
  int v = (tid > 1u) ? e++ : 0;
  bool w = (n > 2u) && (f++ > 0);
  out[tid] = c + d + e + f + int(t) + int(u) + v + int(w);
}
)");
  const auto& k = m.kernels[0];
  auto info = ir::analysis::analyze_uniformity(k);
  EXPECT_EQ(info.vars[find_var(k, "c")], Uniformity::Thread);
  EXPECT_EQ(info.vars[find_var(k, "d")], Uniformity::Thread);
  EXPECT_EQ(info.vars[find_var(k, "e")], Uniformity::Thread);
  EXPECT_EQ(info.vars[find_var(k, "f")], Uniformity::Threadgroup);
}
