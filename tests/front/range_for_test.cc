// Range-based for loops (lib/front/range_for.cc): the counted loop each
// becomes, the range evaluated once, and the ranges that are refused.
#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "front/snippet.h"
#include "ir/printer.h"
#include "test_support.h"

namespace mslport::front {
namespace {

TEST(RangeFor, CountedLoops) {
  DiagEngine d;
  auto m = parse("counted.metal", R"(
struct S { float w[3]; };
kernel void k(device float* o [[buffer(0)]], device S& s [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  float a[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  int n[2] = {5, 6};
  float sum = 0.0f;
  for (float v : a) sum += v;
  for (thread float& v : a) v *= 2.0f;
  for (const float& f : n) sum += f;
  for (device float& w : s.w) w = sum;
  array<float, 2> m = {{1.0f, 2.0f}};
  for (auto& e : m) e += 1.0f;
  o[i] = sum + m[0];
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  // By value: a variable initialised from the element; by reference: the
  // element itself at each use; a const reference to a converted element:
  // a copy.
  EXPECT_EQ(ir::print_kernel(*m, m->kernels[0]), R"(kernel k
  param 0 buffer(0) o: device float*
  param 1 buffer(1) s: device S*
  param 2 builtin thread_position_in_grid i: uint
  body {
    %a: float[4] = {1.0f, 2.0f, 3.0f, 4.0f}
    %n: int[2] = {5, 6}
    %sum: float = 0.0f
    for (%v_index: int = 0; v_index < 4; ++v_index) {
      %v: float = a[v_index]
      sum += v
    }
    for (%v_index_1: int = 0; v_index_1 < 4; ++v_index_1) {
      a[v_index_1] *= 2.0f
    }
    for (%f_index: int = 0; f_index < 2; ++f_index) {
      %f: const float = cast<float>(n[f_index])
      sum += f
    }
    for (%w_index: int = 0; w_index < 3; ++w_index) {
      (*s).w[w_index] = sum
    }
    %m: array_float_2 = {{1.0f, 2.0f}}
    for (%e_index: int = 0; e_index < 2; ++e_index) {
      m.__elems[e_index] += 1.0f
    }
    o[i] = sum + m.__elems[0ul]
  }
)");
}

TEST(RangeFor, NestedRowsBreakAndContinue) {
  DiagEngine d;
  auto m = parse("nested.metal", R"(
kernel void k(device uint* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float grid[2][3] = {{1.0f, -2.0f, 9.0f}, {4.0f, 5.0f, 6.0f}};
  uint c = 0;
  for (const auto& row : grid)
    for (float g : row) {
      if (g < 0.0f) continue;
      if (g > 8.0f) break;
      ++c;
    }
  o[i] = c;
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  const std::string ir = ir::print_kernel(*m, m->kernels[0]);
  // The row is the outer element itself (no pointer to an array), and the
  // inner range reads through the outer counter.
  EXPECT_NE(ir.find(R"(    for (%row_index: int = 0; row_index < 2; ++row_index) {
      for (%g_index: int = 0; g_index < 3; ++g_index) {
        %g: float = grid[row_index][g_index]
        if (g < 0.0f) {
          continue
        }
        if (g > 8.0f) {
          break
        }
        ++c
      }
    })"),
            std::string::npos)
      << ir;
}

TEST(RangeFor, RangeIsEvaluatedOnce) {
  DiagEngine d;
  auto m = parse("once.metal", R"(
struct S { float w[2]; };
kernel void k(device S* s [[buffer(0)]], device float* o [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  float rows[3][2] = {{1.0f, 2.0f}, {3.0f, 4.0f}, {5.0f, 6.0f}};
  uint r = i % 2;
  float sum = 0.0f;
  for (float v : rows[r]) { sum += v; r = 2; }
  device S* p = s;
  for (device float& w : p[i].w) { w = sum; p = s + 1; }
  o[i] = sum;
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  const std::string ir = ir::print_kernel(*m, m->kernels[0]);
  // C++ binds the range once: the body's writes to r and p do not move it.
  EXPECT_NE(ir.find(R"(    %range_index: const uint = r
    for (%v_index: int = 0; v_index < 2; ++v_index) {
      %v: float = rows[range_index][v_index]
      sum += v
      r = 2u
    })"),
            std::string::npos)
      << ir;
  EXPECT_NE(ir.find(R"(    %range_pointer: const device S* = p
    %range_index_1: const uint = i
    for (%w_index: int = 0; w_index < 2; ++w_index) {
      range_pointer[range_index_1].w[w_index] = sum
      p = s + 1
    })"),
            std::string::npos)
      << ir;
}

TEST(RangeFor, InHelpersAndTemplates) {
  DiagEngine d;
  auto m = parse("helpers.metal", R"(
struct Window {
  float vals[2];
  float total() const { float s = 0.0f; for (float v : this->vals) s += v; return s; }
};
template <typename T, size_t N> T sum_of(thread const array<T, N>& a) {
  T s = T(0);
  for (const auto& v : a) s += v;
  return s;
}
kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  Window w = {{1.0f, 2.0f}};
  array<float, 3> m = {{1.0f, 2.0f, 3.0f}};
  o[i] = w.total() + sum_of(m);
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  ASSERT_EQ(m->functions.size(), 2u);
  EXPECT_NE(ir::print_function(*m, m->functions[0]).find("%v: float = self.vals[v_index]"), std::string::npos)
      << ir::print_function(*m, m->functions[0]);
  EXPECT_NE(ir::print_function(*m, m->functions[1]).find("s += a.__elems[v_index]"), std::string::npos)
      << ir::print_function(*m, m->functions[1]);
}

struct Refused {
  const char* source;
  const char* message;
  int line, col;
};

TEST(RangeFor, RefusedForms) {
  const Refused cases[] = {
      {R"(struct Span {
  thread float* p;
  thread float* begin() { return p; }
  thread float* end() { return p + 2; }
};
kernel void k(device float* o [[buffer(0)]]) {
  float a[2] = {1.0f, 2.0f};
  Span s = {a};
  for (float v : s) o[0] += v;
}
)",
       "range-based for over 'Span' is not supported yet: only over arrays of known size and metal::array (not a "
       "class's own begin() and end())",
       11, 18},
      {R"(kernel void k(device float* o [[buffer(0)]]) {
  float a[2] = {1.0f, 2.0f};
  for (int n = 0; float v : a) o[n++] = v;
}
)",
       "range-based for statement with an init-statement (C++20) is not supported yet", 5, 3},
      {R"(struct P { float a; float b; };
kernel void k(device float* o [[buffer(0)]]) {
  P ps[2] = {{1.0f, 2.0f}, {3.0f, 4.0f}};
  for (auto [x, y] : ps) o[0] += x * y;
}
)",
       "range-based for with a structured binding is not supported yet", 6, 13},
      {R"(#define EACH(v, r) for (float v : r)
kernel void k(device float* o [[buffer(0)]]) {
  float a[2] = {1.0f, 2.0f};
  EACH(v, a) o[0] += v;
}
)",
       "range-based for statement written inside a macro is not supported yet", 6, 3},
      {R"(kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float a[2] = {1.0f, 2.0f}, b[2] = {3.0f, 4.0f};
  for (float v : (i > 2 ? a : b)) o[0] += v;
}
)",
       "range-based for over the expression '( i > 2 ? a : b )' is not supported yet", 5, 18},
  };
  for (const Refused& c : cases) {
    DiagEngine d;
    auto m = parse("refused.metal", c.source, d);
    EXPECT_FALSE(m) << c.source;
    ASSERT_GE(d.error_count(), 1) << c.source;
    const Diagnostic* error = nullptr;
    for (const auto& x : d.diagnostics())
      if (x.severity == Severity::Error && !error) error = &x;
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message, c.message);
    EXPECT_EQ(error->loc.line, c.line) << c.message;
    EXPECT_EQ(error->loc.col, c.col) << c.message;
  }
}

}  // namespace
}  // namespace mslport::front
