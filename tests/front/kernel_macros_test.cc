// Kernel-defining macros expanded in the source text (front/kernel_macros.h):
// which macros, the preprocessor's #, ## and __VA_ARGS__, #undef, and lines
// kept where they were.
#include "front/kernel_macros.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace mslport::front;

namespace {
int lines(const std::string& s) { return (int)std::count(s.begin(), s.end(), '\n'); }
}  // namespace

#define EXPECT_CONTAINS(hay, needle) EXPECT_NE((hay).find(needle), std::string::npos) << (hay)
#define EXPECT_LACKS(hay, needle) EXPECT_EQ((hay).find(needle), std::string::npos) << (hay)

TEST(KernelMacros, ExpandsAKernelDefinitionAndKeepsLines) {
  const std::string src =
      "#define K(NAME, T) kernel void NAME(device T* o [[buffer(0)]], uint i [[thread_position_in_grid]]) \\\n"
      "  { o[i] = T(i); }\n"
      "K(fill_f32,\n"
      "  float)\n"
      "int after;\n";
  const std::string out = expand_kernel_macros(src);
  EXPECT_EQ(lines(out), lines(src));
  EXPECT_CONTAINS(out, "kernel void fill_f32(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]])");
  EXPECT_CONTAINS(out, "{ o[i] = float(i); }\n\nint after;");
  // The definition stays (harmless once nothing invokes it).
  EXPECT_CONTAINS(out, "#define K(NAME, T)");
}

TEST(KernelMacros, PastesStringifiesVariadicAndNestedMacros) {
  const std::string src =
      "#define BODY(N, ...) kernel void k_##N(device float* o) { o[0] = __VA_ARGS__; const char* s = #N; }\n"
      "#define TWO(N) BODY(N, 1.0f + 2.0f) BODY(N##_b, 3.0f)\n"
      "TWO(x)\n";
  const std::string out = expand_kernel_macros(src);
  EXPECT_CONTAINS(out, "kernel void k_x(device float* o) { o[0] = 1.0f + 2.0f; const char* s = \"x\"; }");
  EXPECT_CONTAINS(out, "kernel void k_x_b(device float* o) { o[0] = 3.0f; const char* s = \"x_b\"; }");
}

TEST(KernelMacros, LeavesOtherMacrosAndHonoursUndef) {
  const std::string src =
      "#define SQ(x) ((x) * (x))\n"
      "#define INST(T) template [[host_name(\"f_\" #T)]] [[kernel]] decltype(f<T>) f<T>;\n"
      "#define K(N) kernel void N(device float* o) { o[0] = SQ(2.0f); }\n"
      "K(a)\n"
      "INST(float)\n"
      "#undef K\n"
      "K(b)\n";
  const std::string out = expand_kernel_macros(src);
  // The kernel's body keeps SQ for clang; the instantiation macro (no body)
  // stays a macro; after #undef, K(b) is no longer expanded.
  EXPECT_CONTAINS(out, "kernel void a(device float* o) { o[0] = SQ(2.0f); }");
  EXPECT_CONTAINS(out, "\nINST(float)\n");
  EXPECT_CONTAINS(out, "\nK(b)\n");
}

TEST(KernelMacros, NoKernelMacrosLeaveTheTextAlone) {
  const std::string src = "#define A(x) x + 1\nkernel void k(device int* o) { o[0] = A(2); }\n";
  EXPECT_EQ(expand_kernel_macros(src), src);
}
