// Diagnostics: unsupported constructs and clang's own errors are reported
// with the user's exact file:line:col, never dropped silently.
#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "test_support.h"

namespace mslport::front {
namespace {

struct Result {
  std::string path;
  std::optional<ir::Module> m;
  DiagEngine d;
};

std::unique_ptr<Result> parse(const std::string& name, const std::string& body) {
  auto r = std::make_unique<Result>();
  r->path = testing::write_temp_file(name, "#include <metal_stdlib>\nusing namespace metal;\n" + body);
  r->m = parse_metal_file(r->path, r->d);
  return r;
}

// Expects exactly one error, with this message at this line:col.
void expect_error(const Result& r, const std::string& msg, int line, int col) {
  EXPECT_FALSE(r.m);
  ASSERT_EQ(r.d.error_count(), 1) << (r.d.diagnostics().empty() ? "" : DiagEngine::render(r.d.diagnostics()[0]));
  const Diagnostic& e = r.d.diagnostics()[0];
  EXPECT_EQ(e.severity, Severity::Error);
  EXPECT_EQ(e.message, msg);
  EXPECT_EQ(e.loc.file, r.path);
  EXPECT_EQ(e.loc.line, line);
  EXPECT_EQ(e.loc.col, col);
}

TEST(Diagnostics, ClangSyntaxErrorKeepsUserLocation) {
  auto r = parse("syntax.metal",
                 "kernel void k(device float* o [[buffer(0)]]) {\n"
                 "  float a = 1.0f\n"
                 "  o[0] = a;\n"
                 "}\n");
  expect_error(*r, "expected ';' at end of declaration", 4, 17);
  // Rendered in clang's form with the source line and a caret.
  EXPECT_EQ(DiagEngine::render(r->d.diagnostics()[0]),
            r->path + ":4:17: error: expected ';' at end of declaration\n  float a = 1.0f\n                ^\n");
}

TEST(Diagnostics, ClangSemanticError) {
  auto r = parse("undeclared.metal",
                 "kernel void k(device float* o [[buffer(0)]]) {\n"
                 "  o[0] = nope + 1.0f;\n"
                 "}\n");
  expect_error(*r, "use of undeclared identifier 'nope'", 4, 10);
}

TEST(Diagnostics, GotoIsUnsupported) {
  auto r = parse("goto.metal",
                 "kernel void k(device float* o [[buffer(0)]]) {\n"
                 "  o[0] = 1.0f;\n"
                 "  goto done;\n"
                 "  o[1] = 1.0f;\n"
                 "done:\n"
                 "  return;\n"
                 "}\n");
  EXPECT_FALSE(r->m);
  ASSERT_EQ(r->d.error_count(), 2);
  EXPECT_EQ(r->d.diagnostics()[0].message, "goto is not supported yet");
  EXPECT_EQ(r->d.diagnostics()[0].loc.line, 5);
  EXPECT_EQ(r->d.diagnostics()[0].loc.col, 3);
  EXPECT_EQ(r->d.diagnostics()[1].loc.line, 7);
  EXPECT_EQ(r->d.diagnostics()[1].loc.col, 1);
}

TEST(Diagnostics, VirtualFunctionCallIsNamed) {
  auto r = parse("virtual.metal",
                 "struct S { virtual float f() const { return 1.0f; } };\n"
                 "kernel void k(device float* o [[buffer(0)]]) {\n"
                 "  S s;\n"
                 "  o[0] = s.f();\n"
                 "}\n");
  expect_error(*r, "call of virtual function 'f' is not supported yet", 6, 10);
}

TEST(Diagnostics, HelperWithStatementsIsBuiltAsFunction) {
  auto r = parse("helper.metal",
                 "float twice(float x) { float y = x; return 2.0f * y; }\n"
                 "kernel void k(device float* o [[buffer(0)]]) {\n"
                 "  o[0] = twice(o[1]);\n"
                 "}\n");
  ASSERT_TRUE(r->m) << (r->d.diagnostics().empty() ? "" : DiagEngine::render(r->d.diagnostics()[0]));
  ASSERT_EQ(r->m->functions.size(), 1u);
  EXPECT_EQ(r->m->functions[0].def.name, "twice");
}

TEST(Diagnostics, RecursionIsUnsupported) {
  auto r = parse("recursion.metal",
                 "float f(float x) { return x < 1.0f ? x : f(x * 0.5f); }\n"
                 "kernel void k(device float* o [[buffer(0)]]) {\n"
                 "  o[0] = f(o[1]);\n"
                 "}\n");
  expect_error(*r, "recursive call to 'f' in a function that returns an expression: this recursion is not supported yet", 3, 42);
}

TEST(Diagnostics, SwizzleInsideMacroBody) {
  auto r = parse("macroswizzle.metal",
                 "#define SWAP(v) v.yx\n"
                 "kernel void k(device float2* o [[buffer(0)]]) {\n"
                 "  float2 a = o[0];\n"
                 "  o[1] = SWAP(a);\n"
                 "}\n");
  expect_error(*r, "vector component access inside a macro body is not supported yet", 6, 10);
}

TEST(Diagnostics, BreakInsideSwitchCase) {
  auto r = parse("switchbreak.metal",
                 "kernel void k(device float* o [[buffer(0)]], uint tid [[thread_position_in_grid]]) {\n"
                 "  switch (tid) {\n"
                 "    case 0: if (tid > 4) break; o[0] = 1.0f; break;\n"
                 "    default: break;\n"
                 "  }\n"
                 "}\n");
  expect_error(*r, "break before the end of a switch case is not supported yet", 5, 13);
}

TEST(Diagnostics, AtomicsTakeOnlyTheRelaxedOrder) {
  auto r = parse("atomic.metal",
                 "kernel void k(device atomic_uint* c [[buffer(0)]]) {\n"
                 "  atomic_fetch_add_explicit(c, 1u, memory_order_relaxed);\n"
                 "  atomic_fetch_add_explicit(c, 1u, memory_order_seq_cst);\n"
                 "}\n");
  EXPECT_FALSE(r->m);
  ASSERT_EQ(r->d.error_count(), 1);
  EXPECT_EQ(r->d.diagnostics()[0].message,
            "a memory order other than memory_order_relaxed for 'atomic_fetch_add_explicit' is not supported yet");
  EXPECT_EQ(r->d.diagnostics()[0].loc.line, 5);
  EXPECT_EQ(r->d.diagnostics()[0].loc.col, 36);
}

TEST(Diagnostics, TexturesAreUnsupported) {
  auto r = parse("texture.metal",
                 "kernel void k(texture2d<float, access::read_write> t [[texture(0)]],\n"
                 "              device float* o [[buffer(0)]]) { o[0] = 1.0f; }\n");
  expect_error(*r, "textures and samplers are not supported yet", 3, 56);
}

TEST(Diagnostics, ProgramScopeVariableMustBeConstant) {
  auto r = parse("global.metal",
                 "device float* g;\n"
                 "kernel void k(device float* o [[buffer(0)]]) { o[0] = 1.0f; }\n");
  EXPECT_FALSE(r->m);
  ASSERT_GE(r->d.error_count(), 1);
  EXPECT_EQ(r->d.diagnostics()[0].loc.line, 3);
}

TEST(Diagnostics, MissingFile) {
  DiagEngine d;
  auto m = parse_metal_file("/nonexistent/dir/x.metal", d);
  EXPECT_FALSE(m);
  ASSERT_EQ(d.error_count(), 1);
  EXPECT_EQ(d.diagnostics()[0].message, "cannot open file '/nonexistent/dir/x.metal'");
}

TEST(Diagnostics, InMemorySourceUsesGivenPath) {
  DiagEngine d;
  auto m = parse_metal_source("virtual/k.metal",
                              "#include <metal_stdlib>\nusing namespace metal;\n"
                              "kernel void k(device float* o [[buffer(0)]]) { o[0] = bogus; }\n",
                              d);
  EXPECT_FALSE(m);
  ASSERT_EQ(d.error_count(), 1);
  EXPECT_EQ(d.diagnostics()[0].loc.file, "virtual/k.metal");
  EXPECT_EQ(d.diagnostics()[0].loc.line, 3);
  EXPECT_EQ(d.diagnostics()[0].loc.col, 55);
}

}  // namespace
}  // namespace mslport::front
