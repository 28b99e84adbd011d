// The source adaptations (front/adapt_source.h): what each rewrite writes,
// that lines stay where they were, and that text in comments and string
// literals is left alone.
#include "front/adapt_source.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "front/metal_lexer.h"

using namespace mslport::front;

namespace {
int lines(const std::string& s) { return (int)std::count(s.begin(), s.end(), '\n'); }

std::string adapted(const std::string& src, const AdaptOptions& o = {}) {
  AdaptResult r = adapt_metal_source(src, o);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(lines(r.text), lines(src)) << r.text;
  return r.text;
}
}  // namespace

#define EXPECT_CONTAINS(hay, needle) EXPECT_NE((hay).find(needle), std::string::npos) << (hay)

TEST(MetalLexer, CommentsStringsAndDirectives) {
  auto l = lex_metal("// [[kernel]]\n#define A(x) x \\\n  + 1\nint s = \"[[kernel]]\"; /* kernel */ char c = '\\'';\n");
  ASSERT_EQ(l.directive_names.size(), 1u);
  EXPECT_EQ(l.directive_names[0], "define");
  int in_directive = 0, kernels = 0;
  for (auto& t : l.tokens) {
    if (t.directive == 0) ++in_directive;
    if (t.ident("kernel")) ++kernels;
  }
  EXPECT_EQ(in_directive, 9);  // # define A ( x ) x + 1: the continued line included
  EXPECT_EQ(kernels, 0);
}

TEST(AdaptSource, KernelAttributeBecomesTheKeyword) {
  std::string out = adapted("[[kernel]] void f(device float* o [[buffer(0)]]) {}\n");
  EXPECT_EQ(out.substr(0, 11), "kernel void");
  EXPECT_CONTAINS(out, "[[buffer(0)]]");  // parameter attributes stay
}

// vec<bool, N> names the shim's bool vector struct: `vec` is an ext vector
// alias, which clang's OpenCL mode refuses for bool.
TEST(AdaptSource, BoolVecNamesTheShimsBoolVector) {
  std::string out = adapted("vec<bool, 3> a; metal::vec<bool,N> b; vec<float, 2> c; s.vec<bool, 2>();\n");
  EXPECT_CONTAINS(out, "__mslport_bool_vector< 3> a;");
  EXPECT_CONTAINS(out, "metal::__mslport_bool_vector<N> b;");
  EXPECT_CONTAINS(out, "vec<float, 2> c;");
  EXPECT_CONTAINS(out, "s.vec<bool, 2>()");
}

TEST(AdaptSource, HostNameAndMaxThreadsOnAPlainKernel) {
  std::string out = adapted(
      "[[host_name(\"scale\"), max_total_threads_per_threadgroup(256)]] kernel void f(uint i "
      "[[thread_position_in_grid]]) {\n"
      "}\n");
  EXPECT_CONTAINS(out, "__attribute__((annotate(\"mslport_host_name:\" \"scale\")))");
  EXPECT_CONTAINS(out, "{ constexpr unsigned __mslport_max_total_threads = (256);");
}

TEST(AdaptSource, TemplateKernelLosesTheOpenCLKernelQualifier) {
  std::string out = adapted(
      "template <typename T, int N>\n"
      "kernel void k(device T* o, uint i) {\n"
      "  threadgroup T a[N], b[4];\n"
      "  threadgroup T* p = a;\n"
      "}\n");
  EXPECT_CONTAINS(out, "__mkrn void k(");
  EXPECT_CONTAINS(out, "typedef threadgroup T __mslport_tg_a[N], __mslport_tg_b[4];");
  EXPECT_CONTAINS(out, "__mslport_tg_a& a = metal::__mslport_threadgroup_storage<__mslport_tg_a>();");
  EXPECT_CONTAINS(out, "threadgroup T* p = a;");  // a pointer to threadgroup memory is no threadgroup variable
}

TEST(AdaptSource, TemplateKernelThreadgroupArrayInitializerIsLeftOut) {
  // MLX's `threadgroup float local_buffer[SIMD_SIZE] = {0};`: the bounds,
  // then an initializer, which a port leaves out (with a warning).
  AdaptResult r = adapt_metal_source(
      "template <typename T>\n"
      "kernel void k(device T* o, uint i) {\n"
      "  threadgroup float a[32] = {0}, b[2];\n"
      "}\n");
  EXPECT_CONTAINS(r.text, "typedef threadgroup float __mslport_tg_a[32], __mslport_tg_b[2];");
  EXPECT_CONTAINS(r.text, "__mslport_tg_b& b = metal::__mslport_threadgroup_storage<__mslport_tg_b>();");
  EXPECT_EQ(r.text.find("{0}"), std::string::npos);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].first, 3);
}

TEST(AdaptSource, ExplicitInstantiationsNameTheirInstance) {
  std::string out = adapted(
      "template [[host_name(\"k_f32\")]] kernel void k<float, 4>(device float*, uint);\n"
      "template [[host_name(\"k_f16\")]] [[kernel]] decltype(k<half, 4>) k<half, 4>;\n"
      "template struct Foo<float>;\n");
  EXPECT_CONTAINS(out, "annotate(\"mslport_instance:\" \"k_f32\"))) void __MSLPORT_INSTANCE() { (void)&k<float, 4>; }");
  EXPECT_CONTAINS(out, "annotate(\"mslport_instance:\" \"k_f16\"))) void __MSLPORT_INSTANCE() { (void)&k<half, 4>; }");
  EXPECT_CONTAINS(out, "template struct Foo<float>;");  // not a kernel: clang's business
}

TEST(AdaptSource, InstantiationMacroIsRewrittenInItsDefinition) {
  std::string src =
      "#define instantiate_kernel(name, func, ...) \\\n"
      "  template [[host_name(name)]] [[kernel]] decltype(func<__VA_ARGS__>) func<__VA_ARGS__>;\n"
      "instantiate_kernel(\"k_\" #x, k, float)\n";
  std::string out = adapted(src);
  EXPECT_CONTAINS(out,
                  "annotate(\"mslport_instance:\" name))) void __MSLPORT_INSTANCE() { (void)&func<__VA_ARGS__>; }");
  EXPECT_CONTAINS(out, " \\\n");  // the macro still continues on its second line
}

TEST(AdaptSource, FunctionConstantsTakeTheirValues) {
  AdaptOptions o;
  o.function_constants["use_bias"] = "true";
  o.function_constants["1"] = "7";
  o.checked_function_constants = {"gain"};  // optional: is_function_constant_defined(gain) somewhere
  AdaptResult r = adapt_metal_source(
      "constant bool use_bias [[function_constant(0)]];\n"
      "constant int width [[function_constant(1)]];\n"
      "constant float gain [[function_constant(2)]];\n",
      o);
  EXPECT_CONTAINS(r.text, "constant bool use_bias = (true); constant bool __mslport_fc_defined_use_bias = true;");
  EXPECT_CONTAINS(r.text, "constant int width = (7); constant bool __mslport_fc_defined_width = true;");
  EXPECT_CONTAINS(r.text, "extern constant float gain ; constant bool __mslport_fc_defined_gain = false;");
  EXPECT_EQ(r.function_constants.at("gain"), 2);
  EXPECT_FALSE(r.function_constant_defined.at("gain"));
}

TEST(AdaptSource, RequiredFunctionConstantsWithoutValuesAreSetByTheHost) {
  // No is_function_constant_defined names `rows`: Metal's host must set it,
  // so without a value it is extern (no value while compiling) and its index
  // (an expression of macros) is a constant clang evaluates.
  AdaptResult r = adapt_metal_source("#define BASE 40\nconstant uint rows [[function_constant(BASE + 2)]];\n");
  EXPECT_CONTAINS(r.text,
                  "extern constant uint rows ; constant bool __mslport_fc_defined_rows = true; constant int "
                  "__mslport_fc_index_rows = (BASE + 2);");
  EXPECT_EQ(r.host_set_function_constants, std::set<std::string>{"rows"});
  EXPECT_TRUE(r.function_constant_defined.at("rows"));
}

TEST(AdaptSource, FunctionConstantsCheckedForADefinitionAreOptional) {
  EXPECT_EQ(function_constants_checked("bool a = is_function_constant_defined(x) && is_function_constant_defined( y );"
                                       " int z = is_function_constant_defined(w + 1);"),
            (std::set<std::string>{"x", "y"}));
}

TEST(AdaptSource, ThreadMemberQualifierLeavesWithItsReturnSpace) {
  // SPIRV-Cross's spvUnsafeArray: both the const and the non-const
  // `thread` accessor lose the space, and so does the reference returned.
  std::string out = adapted(
      "struct A {\n"
      "  float e[4];\n"
      "  thread float& operator [] (size_t pos) thread { return e[pos]; }\n"
      "  constexpr const thread float& operator [] (size_t pos) const thread { return e[pos]; }\n"
      "  device float& operator [] (size_t pos) device { return e[pos]; }\n"
      "  void f(thread float& x) thread { x = e[0]; }\n"
      "};\n");
  EXPECT_CONTAINS(out, "       float& operator [] (size_t pos)        { return e[pos]; }");
  EXPECT_CONTAINS(out, "constexpr const        float& operator [] (size_t pos) const        { return e[pos]; }");
  EXPECT_CONTAINS(out, "device float& operator [] (size_t pos) device");
  EXPECT_CONTAINS(out, "void f(thread float& x)        {");  // a parameter keeps its space
}

TEST(AdaptSource, StaticCastToAVectorIsItsConstructor) {
  std::string out = adapted("int4 a = static_cast<int4>(v); float b = static_cast<float>(i);\n");
  EXPECT_CONTAINS(out, "int4 a = int4(v);");
  EXPECT_CONTAINS(out, "float b = static_cast<float>(i);");  // scalars are C++'s own
}

TEST(AdaptSource, NothingToDoLeavesTheTextAlone) {
  std::string src = "kernel void k(device float* o [[buffer(0)]]) { o[0] = 1.0f; } // [[kernel]]\n";
  AdaptResult r = adapt_metal_source(src);
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(r.text, src);
}

TEST(AdaptSource, CastsToVectorTypesBecomeConversions) {
  std::string out = adapted(
      "template <typename T4, class U> T4 f(device const half4* p, U u) {\n"
      "  float4 a = (float4)(*p) + (float4)p[1].xyzw;\n"
      "  int4 b = (int4)-a;\n"
      "  return (T4)(*p) + T4(u) + static_cast<T4>(u) + static_cast<float4>(b);\n"
      "}\n");
  EXPECT_CONTAINS(out, "float4 a = float4((*p)) + float4(p[1].xyzw);");
  EXPECT_CONTAINS(out, "int4 b = int4(-a);");
  EXPECT_CONTAINS(out,
                  "return ::metal::__mslport_convert<T4>((*p)) + ::metal::__mslport_convert<T4>(u) + "
                  "::metal::__mslport_convert<T4>(u) + float4(b);");
}

TEST(AdaptSource, ParenthesesThatAreNoCastAreLeftAlone) {
  // A statement's condition, a call of a parenthesised name with two
  // arguments, a name not known as a type, a declaration `T (x);`, a
  // template-id operand, and a cast inside a comment.
  std::string src =
      "template <typename T> void g(T x) {\n"
      "  if (T) x = 1;\n"
      "  y = (T)(a, b);\n"
      "  z = (S)(a);\n"
      "  T (w);\n"
      "  v = (float4)f<int>(a);\n"
      "  // (float4)(a)\n"
      "}\n";
  EXPECT_EQ(adapted(src), src);
}
