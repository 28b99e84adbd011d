// Front end: template kernels and their instances, member functions, host
// names and [[max_total_threads_per_threadgroup]], function constants, and
// partial translation (kernels left out with their reasons).
#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "ir/printer.h"
#include "test_support.h"

using namespace mslport;

namespace {

struct Parsed {
  std::optional<ir::Module> m;
  DiagEngine diags;
  std::vector<SkippedKernel> skipped;
  std::string rendered() const {
    std::string s;
    for (auto& d : diags.diagnostics()) s += DiagEngine::render(d);
    return s;
  }
};

std::unique_ptr<Parsed> parse(const std::string& name, const std::string& body, front::ParseOptions o = {},
                              bool partial = false) {
  auto p = std::make_unique<Parsed>();
  std::string path =
      mslport::testing::write_temp_file(name, "#include <metal_stdlib>\nusing namespace metal;\n" + body);
  p->m = front::parse_metal_file(path, p->diags, o, partial ? &p->skipped : nullptr);
  return p;
}

const ir::Kernel* kernel(const ir::Module& m, const std::string& name) { return m.find_kernel(name); }

}  // namespace

TEST(Templates, EachInstanceIsAKernelUnderItsHostName) {
  auto p = parse("tmpl.metal", R"(
template <typename T, int N>
kernel void fill(device T* o [[buffer(0)]], uint lid [[thread_position_in_threadgroup]]) {
  threadgroup T tile[N];
  tile[lid % N] = T(1);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  o[lid] = tile[(lid + 1) % N];
}
#define inst(name, T, N) template [[host_name(name)]] [[kernel]] decltype(fill<T, N>) fill<T, N>;
inst("fill_f32", float, 8)
inst("fill_f16", half, 16)
template [[host_name("fill_i32")]] kernel void fill<int, 4>(device int*, uint);
)");
  ASSERT_TRUE(p->m) << p->rendered();
  ASSERT_EQ(p->m->kernels.size(), 3u);
  const ir::Kernel* f16 = kernel(*p->m, "fill_f16");
  ASSERT_NE(f16, nullptr);
  ASSERT_EQ(f16->tg_allocs.size(), 1u);
  EXPECT_EQ(f16->tg_allocs[0].type, ir::Type::array_of(ir::Type::scalar_of(ir::ScalarKind::Half), 16));
  EXPECT_EQ(f16->params[0].type.elem->scalar, ir::ScalarKind::Half);
  const ir::Kernel* i32 = kernel(*p->m, "fill_i32");
  ASSERT_NE(i32, nullptr);
  EXPECT_EQ(i32->tg_allocs[0].type.count, 4);
}

TEST(Templates, TwoKernelsWithOneHostNameAreAnError) {
  auto p = parse("dup.metal", R"(
template <typename T> kernel void k(device T* o [[buffer(0)]]) { o[0] = T(1); }
template [[host_name("same")]] kernel void k<float>(device float*);
template [[host_name("same")]] kernel void k<half>(device half*);
)");
  EXPECT_FALSE(p->m);
  EXPECT_NE(p->rendered().find("a second kernel named 'same'"), std::string::npos) << p->rendered();
}

TEST(KernelAttributes, HostNameAndMaxThreadsPerThreadgroup) {
  auto p = parse("attrs.metal", R"(
[[kernel, host_name("renamed"), max_total_threads_per_threadgroup(2 * 64)]]
void original(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = 1.0f; }
)");
  ASSERT_TRUE(p->m) << p->rendered();
  ASSERT_EQ(p->m->kernels.size(), 1u);
  EXPECT_EQ(p->m->kernels[0].name, "renamed");
  EXPECT_EQ(p->m->kernels[0].max_total_threads_per_threadgroup, 128);
}

TEST(FunctionConstants, ValueAndDefinednessSelectTheCode) {
  front::ParseOptions o;
  o.function_constants["use_bias"] = "true";
  o.function_constants["1"] = "3";  // by index: `scale`
  auto p = parse("fc.metal", R"(
constant bool use_bias [[function_constant(0)]];
constant int scale [[function_constant(1)]];
constant float unset_gain [[function_constant(2)]];
constant bool has_gain = is_function_constant_defined(unset_gain);
kernel void k(device float* o [[buffer(0)]], device const float* bias [[buffer(1), function_constant(use_bias)]],
              uint i [[thread_position_in_grid]]) {
  float v = o[i] * float(scale);
  if (use_bias) v += bias[i];
  if (has_gain) v *= unset_gain;
  o[i] = v;
}
)",
                 o);
  ASSERT_TRUE(p->m) << p->rendered();
  std::string ir = ir::print_module(*p->m);
  EXPECT_NE(ir.find("bias[i]"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("unset_gain"), std::string::npos) << ir;  // the untaken branch is gone
  EXPECT_EQ(p->m->kernels[0].params.size(), 3u);
}

TEST(FunctionConstants, AbsentParameterAndUnsetValueAreErrors) {
  auto p = parse("fc_bad.metal", R"(
constant bool use_bias [[function_constant(0)]];
constant float gain [[function_constant(1)]];
constant bool has_gain = is_function_constant_defined(gain);  // optional: no value is no value
kernel void k(device float* o [[buffer(0)]], device const float* bias [[buffer(1), function_constant(use_bias)]],
              uint i [[thread_position_in_grid]]) {
  o[i] = bias[i] * gain;
}
)",
                 [] {
                   front::ParseOptions o;
                   o.function_constants["use_bias"] = "false";
                   return o;
                 }());
  EXPECT_FALSE(p->m);
  std::string r = p->rendered();
  EXPECT_NE(r.find("parameter 'bias' does not exist with these function constants"), std::string::npos) << r;
  EXPECT_NE(r.find("function constant 'gain' [[function_constant(1)]] has no value here"), std::string::npos) << r;
}

TEST(PartialTranslation, UnsupportedKernelsAreLeftOutWithTheirReasons) {
  auto p = parse("partial.metal", R"(
kernel void good(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = 1.0f; }
kernel void textured(texture2d<float, access::read> t [[texture(0)]], device float* o [[buffer(0)]],
                     uint2 i [[thread_position_in_grid]]) { o[i.x] = t.read(i).x; }
kernel void broken(device float* o [[buffer(0)]]) { o[0] = undefined_name; }
)",
                 {}, /*partial=*/true);
  ASSERT_TRUE(p->m) << p->rendered();
  ASSERT_EQ(p->m->kernels.size(), 1u);
  EXPECT_EQ(p->m->kernels[0].name, "good");
  ASSERT_EQ(p->skipped.size(), 2u);
  EXPECT_EQ(p->skipped[0].name, "textured");
  EXPECT_EQ(p->skipped[0].reasons[0].message, "textures and samplers are not supported yet");
  EXPECT_EQ(p->skipped[0].reasons[0].loc.line, 5);
  EXPECT_EQ(p->skipped[1].name, "broken");
  EXPECT_NE(p->skipped[1].reasons[0].message.find("undefined_name"), std::string::npos);
  EXPECT_FALSE(p->diags.has_errors());
}

// A member function that returns a reference and is one `return` (an
// accessor) is the lvalue it names; a kernel's builtin passed to a helper's
// reference parameter becomes a local the helper may write.
TEST(MemberFunctions, AccessorReturningAReferenceIsTheLvalueItNames) {
  auto p = parse("accessor.metal", R"(
template <typename T, int N> struct Arr {
  T e[N];
  thread T& operator[](uint i) thread { return e[i]; }
  device T& operator[](uint i) device { return e[i]; }
};
struct Buf { Arr<float, 4> a; };
void bump(thread uint& i) { i += 1u; }
kernel void k(device Buf& b [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  Arr<float, 4> local;
  local[tid % 4u] = 2.0f;
  bump(tid);
  b.a[tid % 4u] = local[(tid - 1u) % 4u];
}
)");
  ASSERT_TRUE(p->m) << p->rendered();
  std::string ir = ir::print_module(*p->m);
  EXPECT_NE(ir.find("local.e[tid_local % 4u] = 2.0f"), std::string::npos) << ir;
  EXPECT_NE(ir.find("(*b).a.e[tid_local % 4u] = local.e[(tid_local - 1u) % 4u]"), std::string::npos) << ir;
  EXPECT_NE(ir.find("%tid_local: uint = tid"), std::string::npos) << ir;
}

TEST(LibraryConstructs, DesignatorsReferencesAndParameterCopies) {
  auto p = parse("constructs.metal", R"(
kernel void k(device float* o [[buffer(0)]], device float* d [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  float a[4] = { [1 ... 2] = 0.5f };
  float b[3] = { 7.0f, [2] = 1.0f };
  thread float& first = a[0];
  first = 3.0f;
  d += 4;
  o[i] = a[1] + b[2] + first + d[i];
}
)");
  ASSERT_TRUE(p->m) << p->rendered();
  std::string ir = ir::print_module(*p->m);
  EXPECT_NE(ir.find("%a: float[4] = {0.0f, 0.5f, 0.5f, 0.0f}"), std::string::npos) << ir;
  EXPECT_NE(ir.find("%b: float[3] = {7.0f, 0.0f, 1.0f}"), std::string::npos) << ir;
  EXPECT_NE(ir.find("%first: const thread float* = &a[0]"), std::string::npos) << ir;  // a const pointer variable
  EXPECT_NE(ir.find("*first = 3.0f"), std::string::npos) << ir;
  EXPECT_NE(ir.find("%d_local: device float* = d"), std::string::npos) << ir;
  EXPECT_NE(ir.find("d_local += 4"), std::string::npos) << ir;
}

TEST(LibraryConstructs, MatricesAreStructsOfColumnsWithInlinedOperators) {
  auto p = parse("matrix.metal", R"(
kernel void k(device float4* o [[buffer(0)]], constant float4x4& m [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  float4x4 t = transpose(m);
  o[i] = t * o[i] + m[1];
}
)");
  ASSERT_TRUE(p->m) << p->rendered();
  std::string ir = ir::print_module(*p->m);
  EXPECT_NE(ir.find("struct matrix_float_4_4 (size 64, align 16)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("call transpose_float_4_4(m)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("m.columns[1]"), std::string::npos) << ir;
}
