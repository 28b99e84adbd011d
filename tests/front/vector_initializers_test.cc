// Brace initialisers shorter than their vector (front/vector_initializers.h):
// the text step alone, then whole parses.
#include "front/vector_initializers.h"

#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "ir/printer.h"
#include "passes/pass_test_util.h"
#include "test_support.h"

namespace mslport::front {
namespace {

using testing::init_of;
using testing::parse_snippet;

// One list, through the many-list entry point parse_metal uses.
bool complete_vector_initializer(std::string* text, unsigned brace_offset, unsigned missing) {
  return complete_vector_initializers(text, {ShortVectorInitializer{nullptr, brace_offset, missing}}) == 1;
}

std::string completed(std::string text, unsigned missing) {
  unsigned at = (unsigned)text.find('{');
  if (!complete_vector_initializer(&text, at, missing)) return "<unchanged: " + text + ">";
  return text;
}

TEST(VectorInitializers, ZerosGoAfterTheLastElement) {
  EXPECT_EQ(completed("float4 a = {0.f};", 3), "float4 a = {0.f, 0, 0, 0};");
  EXPECT_EQ(completed("float4 a = {x, f(y, z)};", 2), "float4 a = {x, f(y, z), 0, 0};");
  EXPECT_EQ(completed("float4 a = {g({1, 2}), s[1]};", 1), "float4 a = {g({1, 2}), s[1], 0};");
}

TEST(VectorInitializers, EmptyListsAndTrailingCommasTakeNoLeadingComma) {
  EXPECT_EQ(completed("int3 q = {};", 3), "int3 q = {0, 0, 0};");
  EXPECT_EQ(completed("float2 v = {1.f,\n};", 1), "float2 v = {1.f,\n0};");
}

TEST(VectorInitializers, CommentsAndLiteralsAreNotBraces) {
  EXPECT_EQ(completed("float2 v = {1.f /* } */};", 1), "float2 v = {1.f /* } */, 0};");
  EXPECT_EQ(completed("float2 v = {1.f // }\n};", 1), "float2 v = {1.f // }\n, 0};");
  EXPECT_EQ(completed("int2 v = {'}'};", 1), "int2 v = {'}', 0};");
}

TEST(VectorInitializers, NothingHappensWithoutABraceOrItsMatch) {
  std::string t = "float4 a = ZERO4;";
  EXPECT_FALSE(complete_vector_initializer(&t, 11, 3));
  EXPECT_EQ(t, "float4 a = ZERO4;");
  t = "float4 a = {0.f;";
  EXPECT_FALSE(complete_vector_initializer(&t, 11, 3));
  EXPECT_EQ(t, "float4 a = {0.f;");
}

TEST(VectorInitializers, ShortListsParseAsIfEveryElementWereWritten) {
  auto p = parse_snippet("short_lists.metal", R"(
kernel void k(device float4* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float4 a = {0.f};
  float4 b = {1.f, float(i)};
  int3 q = {};
  out[i] = a + b + float4(float3(q), 0);
}
)");
  ASSERT_PARSED(p);
  EXPECT_EQ(init_of(*p->m, "a"), "float4(0.f, 0.0f, 0.0f, 0.0f)");
  EXPECT_EQ(init_of(*p->m, "b"), "float4(1.f, cast<float>(i), 0.0f, 0.0f)");
  EXPECT_EQ(init_of(*p->m, "q"), "cast<int3>(0)");
}

// A table of a few thousand short lists (each once lexed from its `{` to the
// end of the file: quadratic). Every list is completed, in three shapes: one
// element, a trailing comma, and a comment holding a `}`.
TEST(VectorInitializers, AFileOfThousandsOfListsIsCompletedWhole) {
  const int n = 3000;
  std::string table = "constant float4 table[" + std::to_string(n) + "] = {\n";
  std::string expected = "constant table: float4[" + std::to_string(n) + "] = {";
  for (int j = 0; j < n; ++j) {
    std::string a = std::to_string(j) + ".0f", b = std::to_string(j) + ".5f";
    if (j % 3 == 0) {
      table += "  {" + a + "},\n";
      expected += "float4(" + a + ", 0.0f, 0.0f, 0.0f)";
    } else if (j % 3 == 1) {
      table += "  {" + a + ", " + b + ",},\n";
      expected += "float4(" + a + ", " + b + ", 0.0f, 0.0f)";
    } else {
      table += "  {" + a + " /* } */, " + b + ", 1.f}, // }\n";
      expected += "float4(" + a + ", " + b + ", 1.f, 0.0f)";
    }
    if (j + 1 < n) expected += ", ";
  }
  table += "};\n";
  expected += "}\n";
  auto p = parse_snippet("many_lists.metal", table + R"(
kernel void k(device float4* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  out[i] = table[i % 3000];
}
)");
  ASSERT_PARSED(p);
  EXPECT_HAS(ir::print_module(*p->m), expected);
}

// Lists given together, in any order, are completed as one at a time would
// be; a list given twice is completed once.
TEST(VectorInitializers, ListsGivenTogetherAreEachCompletedOnce) {
  std::string text = "float4 a = {1.f}; int2 b[2] = {{}, {2,}}; float3 c = {x /* } */};";
  auto at = [&](const char* s) { return (unsigned)text.find(s); };
  std::vector<ShortVectorInitializer> lists = {{nullptr, at("{x"), 2},
                                               {nullptr, at("{1.f"), 3},
                                               {nullptr, at("{}"), 2},
                                               {nullptr, at("{2,"), 1},
                                               {nullptr, at("{1.f"), 3}};
  EXPECT_EQ(complete_vector_initializers(&text, lists), 4u);
  EXPECT_EQ(text, "float4 a = {1.f, 0, 0, 0}; int2 b[2] = {{0, 0}, {2,0}}; float3 c = {x /* } */, 0, 0};");
  // A `{` inside a directive is lexed from the brace, as before.
  EXPECT_EQ(completed("#define Z {1.f}\nfloat4 z = Z;", 3), "#define Z {1.f, 0, 0, 0}\nfloat4 z = Z;");
}

// One template list, instantiated for two vector lengths: no count fits both.
TEST(VectorInitializers, ATemplateListWhoseInstancesDisagreeStaysAnError) {
  auto p = parse_snippet("disagree.metal", R"(
template <int N> float last(float x) { vec<float, N> v = {x}; return v[N - 1]; }
kernel void k(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  out[i] = last<2>(1.f) + last<3>(1.f);
}
)");
  EXPECT_FALSE(p->m);
  bool told = false;
  for (auto& d : p->d.diagnostics()) told = told || d.message.find("too few elements") != std::string::npos;
  EXPECT_TRUE(told);
}

}  // namespace
}  // namespace mslport::front
