// Brace initialisers shorter than their vector (front/vector_initializers.h):
// the text step alone, then whole parses.
#include "front/vector_initializers.h"

#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "test_support.h"

namespace mslport::front {
namespace {

using testing::init_of;

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

struct Parsed {
  std::optional<ir::Module> m;
  DiagEngine d;
};

std::unique_ptr<Parsed> parse(const std::string& name, const std::string& body) {
  auto p = std::make_unique<Parsed>();
  p->m = parse_metal_file(testing::write_temp_file(name, "#include <metal_stdlib>\nusing namespace metal;\n" + body),
                          p->d);
  return p;
}

TEST(VectorInitializers, ShortListsParseAsIfEveryElementWereWritten) {
  auto p = parse("short_lists.metal", R"(
kernel void k(device float4* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float4 a = {0.f};
  float4 b = {1.f, float(i)};
  int3 q = {};
  out[i] = a + b + float4(float3(q), 0);
}
)");
  ASSERT_TRUE(p->m) << (p->d.diagnostics().empty() ? "" : DiagEngine::render(p->d.diagnostics().front()));
  EXPECT_EQ(init_of(*p->m, "a"), "float4(0.f, 0.0f, 0.0f, 0.0f)");
  EXPECT_EQ(init_of(*p->m, "b"), "float4(1.f, cast<float>(i), 0.0f, 0.0f)");
  EXPECT_EQ(init_of(*p->m, "q"), "cast<int3>(0)");
}

// One template list, instantiated for two vector lengths: no count fits both.
TEST(VectorInitializers, ATemplateListWhoseInstancesDisagreeStaysAnError) {
  auto p = parse("disagree.metal", R"(
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
