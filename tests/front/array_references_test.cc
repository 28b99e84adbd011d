// References to arrays (`thread float (&row)[3] = grid[k];`, var_decl in
// lib/front/build_stmt.cc): each use is the array the reference names, the
// values that pick it evaluated once where it is bound; and the forms that
// are refused.
#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "front/snippet.h"
#include "ir/printer.h"
#include "test_support.h"

namespace mslport::front {
namespace {

TEST(ArrayReferences, UsesNameTheArray) {
  DiagEngine d;
  auto m = parse("names.metal", R"(
struct P { float w[4]; float rows[2][4]; };
struct S { float v[4]; };
constant float kTable[2][4] = {{1.0f, 2.0f, 3.0f, 4.0f}, {5.0f, 6.0f, 7.0f, 8.0f}};
kernel void k(device float* o [[buffer(0)]], constant P& p [[buffer(1)]], device S* s [[buffer(2)]],
              uint i [[thread_position_in_grid]], uint lid [[thread_position_in_threadgroup]]) {
  float grid[2][3] = {{1.0f, 2.0f, 3.0f}, {4.0f, 5.0f, 6.0f}};
  uint k = i % 2;
  thread float (&row)[3] = grid[k];
  k = 0;
  row[2] = 5.0f;
  auto& again = row;
  again[0] += 1.0f;
  threadgroup float tiles[2][8];
  threadgroup float (&t)[8] = tiles[lid % 2];
  t[lid % 8] = 1.0f;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  constant const float (&w)[4] = p.w;
  constant const float (&r)[4] = p.rows[1];
  constant const float (&c)[4] = kTable[1];
  device float (&v)[4] = s[i].v;
  v[1] = w[2] + r[3] + c[0];
  float sum = 0.0f;
  for (float x : row) sum += x;
  o[i] = sum + t[3] + float(sizeof(row) / sizeof(row[0]));
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  const std::string ir = ir::print_kernel(*m, m->kernels[0]);
  // grid[k] is bound once: k = 0 afterwards moves nothing; a reference to
  // the reference names the same row.
  EXPECT_NE(ir.find(R"(    %k: uint = i % 2u
    %row_index: const uint = k
    k = 0u
    grid[row_index][2] = 5.0f
    grid[row_index][0] += 1.0f
    %t_index: const uint = lid % 2u
    tiles[t_index][lid % 8u] = 1.0f
)"),
            std::string::npos)
      << ir;
  EXPECT_NE(ir.find(R"(    %v_pointer: const device S* = s
    %v_index: const uint = i
    v_pointer[v_index].v[1] = (p.w[2] + p.rows[1][3]) + kTable[1][0]
)"),
            std::string::npos)
      << ir;
  // A range-for over the reference walks the row; sizeof keeps the bound.
  EXPECT_NE(ir.find("%x: float = grid[row_index][x_index]"), std::string::npos) << ir;
  EXPECT_NE(ir.find("o[i] = (sum + tiles[t_index][3]) + cast<float>(12ul / 4ul)"), std::string::npos) << ir;
}

TEST(ArrayReferences, InHelpers) {
  DiagEngine d;
  auto m = parse("helpers.metal", R"(
float last(thread float (&a)[3], int j) {
  thread float (&b)[3] = a;
  j = 0;
  return b[2] + float(j);
}
kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float grid[2][3] = {{1.0f, 2.0f, 3.0f}, {4.0f, 5.0f, 6.0f}};
  o[i] = last(grid[i % 2], 1);
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  ASSERT_EQ(m->functions.size(), 1u);
  const std::string f = ir::print_function(*m, m->functions[0]);
  EXPECT_NE(f.find("return a[2] + cast<float>(j)"), std::string::npos) << f;
}

TEST(ArrayReferences, RefusedOnceAtTheDeclaration) {
  DiagEngine d;
  auto m = parse("refused.metal", R"(kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float a[2] = {1.0f, 2.0f}, b[2] = {3.0f, 4.0f};
  thread float (&r)[2] = i > 2 ? a : b;
  r[0] = 5.0f;
  o[i] = r[1];
}
)",
                 d);
  EXPECT_FALSE(m);
  // One diagnostic: the uses of r say nothing more.
  ASSERT_EQ(d.error_count(), 1) << first_error(d);
  const Diagnostic& e = d.diagnostics().front();
  EXPECT_EQ(e.message,
            "reference 'r' to an array bound to 'i > 2 ? a : b' is not supported yet: only to an array variable, an "
            "element of an array of arrays or a member");
  EXPECT_EQ(e.loc.line, 5);
  EXPECT_EQ(e.loc.col, 18);
}

}  // namespace
}  // namespace mslport::front
