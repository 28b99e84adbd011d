// Brace lists passed for vector parameters (front/vector_arguments.h): the
// text step alone, then whole parses.
#include "front/vector_arguments.h"

#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "ir/printer.h"
#include "passes/pass_test_util.h"
#include "test_support.h"

namespace mslport::front {
namespace {

using testing::init_of;
using testing::parse_snippet;

// Rewrites argument `arg` of the call starting at `callee` (its first
// occurrence) as a `type`, reported twice.
std::string constructed(std::string text, const std::string& callee, unsigned arg, const std::string& type = "uint3") {
  VectorArgumentList l;
  l.call = (unsigned)text.find(callee), l.argument = arg, l.vector_type = type;
  if (construct_vector_arguments(&text, {l, l}) != 1) return "<unchanged: " + text + ">";
  return text;
}

TEST(VectorArguments, TheListBecomesTheConstructor) {
  EXPECT_EQ(constructed("f({a, b, c});", "f", 0), "f(uint3{a, b, c});");
  EXPECT_EQ(constructed("x = ns::loc<IdxT, 2>({N * i.x, g(i.y, 1), i.z}, s);", "ns::", 0),
            "x = ns::loc<IdxT, 2>(uint3{N * i.x, g(i.y, 1), i.z}, s);");
  EXPECT_EQ(constructed("f(s, {a,\n b}, t);", "f", 1, "float2"), "f(s, float2{a,\n b}, t);");
}

TEST(VectorArguments, OtherArgumentsAreLeftAlone) {
  for (const auto& [t, arg] : std::vector<std::pair<std::string, unsigned>>{
           {"f(uint3{a, b});", 0},  // named already
           {"f(v, {a, b});", 0},    // not a list
           {"f({a, b});", 1},       // no such argument
           {"o.f({a, b});", 0}})    // a member call: the callee is not a plain name
    EXPECT_EQ(constructed(t, t.substr(0, 1), arg), "<unchanged: " + t + ">") << t;
}

TEST(VectorArguments, ListsWithTwoTypesAreLeftAlone) {
  std::string t = "f({a, b});";
  VectorArgumentList x{nullptr, 0, 0, "uint2"}, y{nullptr, 0, 0, "float2"};
  EXPECT_EQ(construct_vector_arguments(&t, {x, y}), 0u);
  EXPECT_EQ(t, "f({a, b});");
}

TEST(VectorArguments, TypesNamedByClang) {
  EXPECT_EQ(vector_type_named("'__private uint3' (vector of 3 'uint' values)"), "uint3");
  EXPECT_EQ(vector_type_named("'const float4 &'"), "float4");
  EXPECT_EQ(vector_type_named("'vec<half, 2>' (vector of 2 'half' values)"), "half2");
  EXPECT_EQ(vector_type_named("'Point' (aka 'Point')"), "");
}

// A plain function, a short list, a template with an explicit argument
// (MLX's elem_to_loc_2_nd<IdxT>({...}, ...)), a second argument, and
// `return {}` of a vector, which clang took already.
TEST(VectorArguments, ListsPassedAsVectorsAreConstructed) {
  auto p = parse_snippet("vec_args.metal", R"(
uint sum3(uint3 v) { return v.x + v.y + v.z; }
template <typename IdxT>
IdxT loc(uint3 e, constant const int* s) { return IdxT(e.x * s[0] + e.y * s[1] + e.z * s[2]); }
float dot2(float k, float2 v) { return k * (v.x + v.y); }
float2 pair(float a) { return {a, a + 1}; }
kernel void k(constant const int* s [[buffer(0)]], device uint* o [[buffer(1)]], device float* f [[buffer(2)]],
              uint3 index [[thread_position_in_grid]]) {
  uint a = sum3({index.x, 1u, 2u}) + sum3({index.x, 5u});
  uint b = loc<uint>({2 * index.x, index.y, index.z}, s);
  float c = dot2(0.5f, {f[0], f[1]});
  float2 d = pair(f[2]);
  o[index.x] = a + b;
  f[index.x] = c + d.x;
}
)");
  ASSERT_PARSED(p);
  std::string text = ir::print_module(*p->m);
  EXPECT_NE(text.find("uint3(index.x, 1u, 2u)"), std::string::npos) << text;
  EXPECT_NE(text.find("uint3(index.x, 5u, 0u)"), std::string::npos) << text;  // zero-filled, as Metal's list
  EXPECT_NE(text.find("uint3(2u * index.x, index.y, index.z)"), std::string::npos) << text;
  EXPECT_NE(text.find("float2(f[0], f[1])"), std::string::npos) << text;
}

// Overloads for two vector types: Metal's call is ambiguous too, and
// clang's diagnostic stands.
TEST(VectorArguments, AListForTwoVectorTypesStaysAnError) {
  auto p = parse_snippet("vec_args_two.metal", R"(
uint g(uint2 v) { return v.x; }
uint g(float2 v) { return 1; }
kernel void k(device uint* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  o[i] = g({i, i});
}
)");
  EXPECT_FALSE(p->m);
  ASSERT_FALSE(p->d.diagnostics().empty());
  std::string msg = DiagEngine::render(p->d.diagnostics().front());
  EXPECT_NE(msg.find("no matching function for call to 'g'"), std::string::npos) << msg;
}

}  // namespace
}  // namespace mslport::front
