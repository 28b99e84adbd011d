// Program scope: struct layouts, program-scope constants (also as array
// bounds), static threadgroup arrays, dynamic threadgroup parameters, and
// finding kernels in files of any formatting.
#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "front/snippet.h"
#include "ir/printer.h"
#include "test_support.h"

namespace mslport::front {
namespace {

TEST(Module, StructLayoutUsesMetalAlignment) {
  DiagEngine d;
  auto m = parse("layout.metal", R"(
struct Inner { half h; float2 f; };
struct S {
  float a;
  float3 b;   // 16-byte aligned, 16 bytes
  half c;
  int2 d;
  char e;
  Inner in;
  uint arr[3];
};
kernel void k(constant S& s [[buffer(0)]], device float* o [[buffer(1)]]) { o[0] = s.a; }
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  ASSERT_EQ(m->structs.size(), 2u);
  const auto& inner = m->structs[0];
  EXPECT_EQ(inner.name, "Inner");
  EXPECT_EQ(inner.fields[1].offset, 8);
  EXPECT_EQ(inner.size, 16);
  const auto& s = m->structs[1];
  EXPECT_EQ(s.name, "S");
  std::vector<std::pair<std::string, int>> want = {{"a", 0},  {"b", 16},  {"c", 32},  {"d", 40},
                                                   {"e", 48}, {"in", 56}, {"arr", 72}};
  ASSERT_EQ(s.fields.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(s.fields[i].name, want[i].first);
    EXPECT_EQ(s.fields[i].offset, want[i].second) << want[i].first;
  }
  EXPECT_EQ(s.align, 16);
  EXPECT_EQ(s.size, 96);
  EXPECT_EQ(s.loc.line, 5);
}

TEST(Module, ProgramScopeConstantsAndArrayBounds) {
  DiagEngine d;
  auto m = parse("consts.metal", R"(
constant int NSG = 8;
constant float SCALE = 0.5f;
#define TILE 4
kernel void k(device float* o [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  threadgroup float partial[NSG * TILE];
  partial[tid] = SCALE * TILE;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  o[tid] = partial[tid] + NSG;
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  ASSERT_EQ(m->constants.size(), 2u);
  EXPECT_EQ(m->constants[0].name, "NSG");
  EXPECT_EQ(ir::type_name(*m, m->constants[0].type), "int");
  ASSERT_TRUE(m->constants[0].init);
  EXPECT_EQ(m->constants[0].init->kind, ir::Expr::Kind::IntLit);
  EXPECT_EQ(m->constants[0].init->int_value, 8);
  EXPECT_EQ(m->constants[1].init->kind, ir::Expr::Kind::FloatLit);
  EXPECT_EQ(m->constants[1].init->float_value, 0.5);
  const auto& k = m->kernels[0];
  ASSERT_EQ(k.tg_allocs.size(), 1u);
  EXPECT_EQ(k.tg_allocs[0].name, "partial");
  EXPECT_EQ(ir::type_name(*m, k.tg_allocs[0].type), "float[32]");  // folded bound
  EXPECT_EQ(k.tg_allocs[0].loc.line, 8);
  // The declaration statement disappears; uses are TgAllocRef; #define'd
  // values are literals; constants are GlobalConstRef.
  bool saw_tg = false, saw_const = false, saw_decl = false, saw_tile = false;
  ir::walk_stmts(*k.body, [&](const ir::Stmt& s) {
    saw_decl |= s.kind == ir::Stmt::Kind::Decl;
    return true;
  });
  ir::walk_stmt_exprs(*k.body, [&](const ir::Expr& e) {
    saw_tg |= e.kind == ir::Expr::Kind::TgAllocRef;
    saw_const |= e.kind == ir::Expr::Kind::GlobalConstRef;
    saw_tile |= e.kind == ir::Expr::Kind::FloatLit && e.float_value == 4.0;  // TILE (int) as float
    return true;
  });
  EXPECT_TRUE(saw_tg);
  EXPECT_TRUE(saw_const);
  EXPECT_TRUE(saw_tile);
  EXPECT_FALSE(saw_decl);
}

TEST(Module, ScalarThreadgroupVariable) {
  DiagEngine d;
  auto m = parse("tgscalar.metal", R"(
kernel void k(device float* o [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  threadgroup float broadcast;
  if (tid == 0) broadcast = 2.0f;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  o[tid] = broadcast;
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  ASSERT_EQ(m->kernels[0].tg_allocs.size(), 1u);
  EXPECT_EQ(ir::type_name(*m, m->kernels[0].tg_allocs[0].type), "float");
}

TEST(Module, StaticThreadgroupMemoryLimit) {
  DiagEngine d;
  auto m = parse("toobig.metal", R"(
kernel void big(device float* o [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  threadgroup float a[4096];
  threadgroup float b[4096];
  a[tid] = 1.0f; b[tid] = 2.0f;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  o[tid] = a[tid] + b[tid];
}
)",
                 d);
  // Exactly 32 KB is allowed.
  EXPECT_TRUE(m) << first_error(d);
  DiagEngine d2;
  auto m2 = parse("toobig2.metal", R"(
kernel void big(device float* o [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  threadgroup float a[4096];
  threadgroup float b[4097];
  o[tid] = a[tid] + b[tid];
}
)",
                  d2);
  EXPECT_FALSE(m2);
  ASSERT_EQ(d2.error_count(), 1);
  EXPECT_EQ(d2.diagnostics()[0].message,
            "kernel 'big' declares 32772 bytes of threadgroup memory; Metal allows at most 32768");
  EXPECT_EQ(d2.diagnostics()[0].loc.line, 4);
  EXPECT_EQ(d2.diagnostics()[0].loc.col, 13);
}

TEST(Module, KernelInFileWithoutIndentationOrInclude) {
  // No leading whitespace anywhere, attributes on their own lines, the
  // #include of <metal_simdgroup_matrix> form, comments in the header.
  std::string src =
      "#include <metal_simdgroup_matrix>\n"
      "#include <metal_math>\n"
      "using namespace metal;\n"
      "kernel void\n"
      "scale_rows(\n"
      "device const float* in // comment\n"
      "[[buffer(0)]],\n"
      "device float* out\n"
      "[[buffer(1)]],\n"
      "constant uint& n [[buffer(2)]],\n"
      "uint2 gid [[thread_position_in_grid]]\n"
      ")\n"
      "{\n"
      "if (gid.x >= n) return;\n"
      "out[gid.y * n + gid.x] = in[gid.y * n + gid.x] * 2.0f;\n"
      "}\n";
  DiagEngine d;
  auto m = parse_metal_file(testing::write_temp_file("noindent.metal", src), d);
  ASSERT_TRUE(m) << first_error(d);
  ASSERT_EQ(m->kernels.size(), 1u);
  const auto& k = m->kernels[0];
  EXPECT_EQ(k.name, "scale_rows");
  EXPECT_EQ(k.loc.line, 5);
  ASSERT_EQ(k.params.size(), 4u);
  EXPECT_EQ(k.params[1].index, 1);
  EXPECT_FALSE(k.params[1].implicit_index);
  EXPECT_EQ(k.params[3].builtin, ir::BuiltinId::ThreadPositionInGrid);
}

TEST(Module, HelperFunctionsAreNotKernels) {
  DiagEngine d;
  auto m = parse("helpers.metal", R"(
inline float twice(float x) { return 2.0f * x; }
kernel void a(device float* o [[buffer(0)]]) { o[0] = twice(o[1]); }
kernel void b(device float* o [[buffer(0)]]) { o[0] = 1.0f; }
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  ASSERT_EQ(m->kernels.size(), 2u);
  EXPECT_EQ(m->kernels[0].name, "a");
  EXPECT_EQ(m->kernels[1].name, "b");
  EXPECT_EQ(ir::print_expr(*m, m->kernels[0], *m->kernels[0].body->stmts[0]->expr), "o[0] = 2.0f * o[1]");
}

TEST(Module, ParseOptions) {
  std::string src =
      "#include <metal_stdlib>\nusing namespace metal;\n"
      "kernel void k(device float* o [[buffer(0)]]) { o[0] = SCALE; }\n";
  std::string path = testing::write_temp_file("options.metal", src);
  // -D through extra_args; the built-in shim given explicitly.
  ParseOptions opt;
  opt.extra_args = {"-DSCALE=2.5f"};
  opt.shim_dir = testing::source_path("lib/front/metal_include");
  DiagEngine d;
  auto m = parse_metal_file(path, d, opt);
  ASSERT_TRUE(m) << first_error(d);
  EXPECT_EQ(ir::print_expr(*m, m->kernels[0], *m->kernels[0].body->stmts[0]->expr), "o[0] = 2.5f");
  // A shim directory without metal_stdlib: said before clang runs.
  ParseOptions bad;
  bad.shim_dir = "/nonexistent-shim";
  DiagEngine d2;
  EXPECT_FALSE(parse_metal_file(path, d2, bad));
  ASSERT_EQ(d2.error_count(), 1);
  EXPECT_EQ(d2.diagnostics()[0].message,
            "mslport's Metal headers are missing: no /nonexistent-shim/metal_stdlib (reinstall mslport)");
}

}  // namespace
}  // namespace mslport::front
