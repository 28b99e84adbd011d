// Statements: declarations, control flow, barriers, switch lowering, and the
// printed form of a whole small kernel.
#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "front/snippet.h"
#include "ir/printer.h"
#include "test_support.h"

namespace mslport::front {
namespace {

TEST(Statements, PrintedSmallKernel) {
  DiagEngine d;
  auto m = parse("small.metal", R"(
struct P { int n; float eps; };
constant int NSG = 2;
kernel void rms(device const float* x [[buffer(0)]],
                device float* out [[buffer(1)]],
                constant P& p [[buffer(2)]],
                uint3 tgpig [[threadgroup_position_in_grid]],
                uint tid [[thread_index_in_threadgroup]],
                uint lane [[thread_index_in_simdgroup]],
                uint sg [[simdgroup_index_in_threadgroup]]) {
  const uint row = tgpig.y;
  if (row >= uint(p.n)) return;
  float acc = 0.0f, extra;
  for (uint i = tid; i < 64; i += 32) { float v = x[row * 64 + i]; acc += v * v; }
  threadgroup float part[NSG];
  float s = simd_sum(acc);
  if (lane == 0) part[sg] = s;
  threadgroup_barrier(mem_flags::mem_threadgroup | mem_flags::mem_device);
  int k = 0;
  while (k < 2) { k++; if (k == 1) continue; else break; }
  do { k--; } while (k > 0);
  for (;;) { break; }
  float arr[3] = {1.0f, 2.0f};
  out[row] = rsqrt(part[0] + part[1] + p.eps) + arr[0];
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  EXPECT_EQ(ir::print_module(*m), R"(struct P (size 8, align 4)
  0 n: int
  4 eps: float
constant NSG: int = 2

kernel rms
  param 0 buffer(0) x: device const float*
  param 1 buffer(1) out: device float*
  param 2 buffer(2) p: constant P&
  param 3 builtin threadgroup_position_in_grid tgpig: uint3
  param 4 builtin thread_index_in_threadgroup tid: uint
  param 5 builtin thread_index_in_simdgroup lane: uint
  param 6 builtin simdgroup_index_in_threadgroup sg: uint
  threadgroup part: float[2]
  body {
    %row: const uint = tgpig.y
    if (row >= cast<uint>(p.n)) {
      return
    }
    %acc: float = 0.0f
    %extra: float
    for (%i: uint = tid; i < 64u; i += 32u) {
      %v: float = x[(row * 64u) + i]
      acc += v * v
    }
    %s: float = simd_sum(acc)
    if (lane == 0u) {
      part[sg] = s
    }
    threadgroup_barrier(mem_device | mem_threadgroup)
    %k: int = 0
    while (k < 2) {
      k++
      if (k == 1) {
        continue
      } else {
        break
      }
    }
    do {
      k--
    } while (k > 0)
    for (; ; ) {
      break
    }
    %arr: float[3] = {1.0f, 2.0f}
    out[row] = rsqrt((part[0] + part[1]) + p.eps) + arr[0]
  }
)");
  // Source locations of statements point at the user's lines.
  const auto& body = m->kernels[0].body->stmts;
  EXPECT_EQ(body[0]->loc.line, 13);
  EXPECT_EQ(body[1]->kind, ir::Stmt::Kind::If);
  EXPECT_EQ(body[1]->loc.line, 14);
  EXPECT_EQ(body[1]->loc.col, 3);
}

TEST(Statements, BarriersAndFlags) {
  DiagEngine d;
  auto m = parse("barriers.metal", R"(
kernel void k(device float* o [[buffer(0)]]) {
  threadgroup_barrier(mem_flags::mem_none);
  threadgroup_barrier(mem_flags::mem_device);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  threadgroup_barrier(mem_flags::mem_texture);
  simdgroup_barrier(mem_flags::mem_threadgroup);
  o[0] = 1.0f;
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  const auto& s = m->kernels[0].body->stmts;
  ASSERT_EQ(s.size(), 6u);
  unsigned want[] = {0, 1, 2, 4, 2};
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(s[i]->kind, ir::Stmt::Kind::Barrier) << i;
    EXPECT_EQ(s[i]->mem_flags, want[i]) << i;
    EXPECT_EQ(s[i]->simdgroup_scope, i == 4) << i;
    EXPECT_EQ(s[i]->loc.line, 5 + i);
    EXPECT_EQ(s[i]->loc.col, 3);
  }
}

TEST(Statements, SwitchBecomesIfChain) {
  DiagEngine d;
  auto m = parse("switch.metal", R"(
kernel void k(device float* o [[buffer(0)]], uint tid [[thread_position_in_grid]]) {
  float v;
  switch (tid % 4) {
    case 0: v = 1.0f; break;
    case 1: case 2: { v = 2.0f; break; }
    default: v = 3.0f; break;
  }
  o[tid] = v;
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  EXPECT_NE(ir::print_kernel(*m, m->kernels[0])
                .find("} else if ((switch_value == 1u) || (switch_value == 2u)) {\n"
                      "      v = 2.0f\n    } else {"),
            std::string::npos)
      << ir::print_kernel(*m, m->kernels[0]);

  DiagEngine d2;
  auto m2 = parse("switch2.metal", R"(
kernel void k(device float* o [[buffer(0)]], uint tid [[thread_position_in_grid]]) {
  float v;
  switch (tid % 4) {
    case 0: v = 1.0f; break;
    case 1: case 2: v = 2.0f; o[0] = v; break;
    default: v = 3.0f; break;
  }
  o[tid] = v;
}
)",
                  d2);
  ASSERT_TRUE(m2) << first_error(d2);
  std::string printed = ir::print_kernel(*m2, m2->kernels[0]);
  EXPECT_NE(printed.find(R"(    %switch_value: const uint = tid % 4u
    if (switch_value == 0u) {
      v = 1.0f
    } else if ((switch_value == 1u) || (switch_value == 2u)) {
      v = 2.0f
      o[0] = v
    } else {
      v = 3.0f
    }
)"),
            std::string::npos)
      << printed;
}

TEST(Statements, SwitchFallthroughIsRejected) {
  DiagEngine d;
  auto m = parse("fallthrough.metal", R"(
kernel void k(device float* o [[buffer(0)]], uint tid [[thread_position_in_grid]]) {
  switch (tid) {
    case 0: o[0] = 1.0f;
    case 1: o[1] = 1.0f; break;
    case 2: if (tid > 4) break; o[2] = 1.0f; break;
  }
}
)",
                 d);
  EXPECT_FALSE(m);
  ASSERT_EQ(d.error_count(), 1);
  EXPECT_EQ(d.diagnostics()[0].message, "switch case that falls through to the next case is not supported yet");
  EXPECT_EQ(d.diagnostics()[0].loc.line, 6);
  EXPECT_EQ(d.diagnostics()[0].loc.col, 5);
}

TEST(Statements, LocalsArePointersAndUniquelyNamed) {
  DiagEngine d;
  auto m = parse("locals.metal", R"(
kernel void k(device const float* w [[buffer(0)]], threadgroup float* shared [[threadgroup(0)]],
              device float* o [[buffer(1)]], uint tid [[thread_index_in_threadgroup]]) {
  threadgroup float* half_ = shared + 16;
  device const float* row = w + tid * 4;
  float acc = 0.0f;
  for (int i = 0; i < 4; ++i) { float acc2 = row[i]; acc += acc2; }
  for (int i = 0; i < 4; ++i) { float acc2 = half_[i]; acc += acc2; }
  { float acc = 1.0f; o[0] = acc; }
  #pragma unroll
  for (int i = 0; i < 2; ++i) acc += 1.0f;
  o[tid] = acc;
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  const auto& k = m->kernels[0];
  std::vector<std::string> names;
  for (auto& v : k.vars) names.push_back(v.name);
  EXPECT_EQ(names, (std::vector<std::string>{"half_", "row", "acc", "i", "acc2", "i_1", "acc2_1", "acc_1", "i_2"}));
  EXPECT_EQ(ir::type_name(*m, k.vars[0].type), "threadgroup float*");
  EXPECT_EQ(ir::type_name(*m, k.vars[1].type), "device const float*");
}

}  // namespace
}  // namespace mslport::front
