// Vectors initialised with parentheses (front/vector_direct_initializers.h):
// the text step alone, then whole parses.
#include "front/vector_direct_initializers.h"

#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "ir/printer.h"
#include "passes/pass_test_util.h"
#include "test_support.h"

namespace mslport::front {
namespace {

using testing::parse_snippet;

// Rewrites the declaration whose name is the first occurrence of `name`,
// reported twice (a template's two instances).
std::string constructed(std::string text, const std::string& name) {
  VectorDirectInitializer d;
  d.name = (unsigned)text.find(name);
  if (construct_vector_direct_initializers(&text, {d, d}) != 1) return "<unchanged: " + text + ">";
  return text;
}

TEST(VectorDirectInitializers, TheDeclarationTakesTheConstructor) {
  EXPECT_EQ(constructed("short2 offset(a % 4, a / 4);", "offset"),
            "short2 offset = ::metal::__mslport_make_vector<decltype(offset)>(a % 4, a / 4);");
  EXPECT_EQ(constructed("const vec<T, 4> q(xy, 0, 1), r(2);", "q"),
            "const vec<T, 4> q = ::metal::__mslport_make_vector<decltype(q)>(xy, 0, 1), r(2);");
}

TEST(VectorDirectInitializers, OtherPlacesAreLeftAlone) {
  for (const auto& [t, name] : std::vector<std::pair<std::string, std::string>>{
           {"x = vec<float, 2>(a, b);", "vec"},  // a cast: not a name then `(`
           {"o.f(a, b);", "f"},                  // a member call
           {"short2 v = {a, b};", "v"}})         // no parenthesis after the name
    EXPECT_EQ(constructed(t, name), "<unchanged: " + t + ">") << t;
}

TEST(VectorDirectInitializers, ParsedDeclarationsConstructTheirVectors) {
  auto p = parse_snippet("vec_direct.metal", R"(
template <typename T> T pair_sum(T a, T b) {
  vec<T, 2> v(a, b);
  return v.x + v.y;
}
kernel void k(device short2* o [[buffer(0)]], device float* f [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  short2 offset(i % 4, i / 4);
  const float4 w(f[0]);
  o[i] = offset;
  f[i] = w.y + pair_sum(f[1], f[2]);
}
)");
  ASSERT_PARSED(p);
  std::string text = ir::print_module(*p->m);
  EXPECT_NE(text.find("short2(cast<short>(i % 4u), cast<short>(i / 4u))"), std::string::npos) << text;
  EXPECT_NE(text.find("float2(a, b)"), std::string::npos) << text;
}

}  // namespace
}  // namespace mslport::front
