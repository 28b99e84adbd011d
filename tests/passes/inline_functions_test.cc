// passes::inline_functions on small kernels: the shape of what it leaves
// (results, flags, evaluation order); the feature kernels of metal_src/ run
// the same constructs against golden outputs on both targets.
#include "passes/inline_functions.h"

#include "ir/printer.h"
#include "ir/verifier.h"
#include "pass_test_util.h"
#include "passes/lower_execution_model.h"

using namespace mslport;
using namespace mslport::testing;
using ir::Expr;
using ir::Stmt;

namespace {

ir::Module inlined(const std::string& src) {
  auto m = parse_or_die(src);
  DiagEngine diags;
  EXPECT_TRUE(passes::inline_functions(m, diags));
  EXPECT_FALSE(diags.has_errors());
  EXPECT_TRUE(ir::verify_module(m, diags)) << (diags.diagnostics().empty() ? "" : diags.diagnostics()[0].message);
  for (auto& k : m.kernels) EXPECT_EQ(count_exprs(*k.body, Expr::Kind::UserCall), 0) << ir::print_kernel(m, k);
  return m;
}

std::string text(const ir::Module& m) { return ir::print_kernel(m, m.kernels[0]); }

}  // namespace

TEST(InlineFunctions, ReturnsInTailPositionBecomeAssignments) {
  auto m = inlined(R"(
float sign_of(float v) {
  if (v < 0.0f) return -1.0f;
  if (v > 0.0f) return 1.0f;
  return 0.0f;
}
kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = sign_of(o[i]); }
)");
  const auto& k = m.kernels[0];
  EXPECT_EQ(count_stmts(*k.body, Stmt::Kind::Return), 0);
  EXPECT_LT(find_var(k, "sign_of_result"), (int)k.vars.size());
  EXPECT_EQ(find_var(k, "sign_of_returned"), -1) << text(m);  // no flag needed
  EXPECT_HAS(text(m), "{  // inlined: sign_of");
  EXPECT_HAS(text(m), "o[i] = sign_of_result");
}

TEST(InlineFunctions, ReturnInsideLoopSetsFlagAndBreaks) {
  auto m = inlined(R"(
uint first_positive(device const float* v, uint n) {
  for (uint j = 0; j < n; ++j) {
    if (v[j] > 0.0f) return j;
  }
  return n;
}
kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = float(first_positive(o, 8)); }
)");
  const auto& k = m.kernels[0];
  EXPECT_GE(find_var(k, "first_positive_returned"), 0) << text(m);
  EXPECT_EQ(count_stmts(*k.body, Stmt::Kind::Break), 1);
  // The return after the loop only runs when the loop did not return.
  EXPECT_HAS(text(m), "if (!first_positive_returned)");
}

TEST(InlineFunctions, OutParametersWriteTheCallersVariables) {
  auto m = inlined(R"(
void split(float a, thread float& whole, thread float& frac) { whole = floor(a); frac = a - whole; }
kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float w, f;
  split(o[i], w, f);
  o[i] = w + f;
}
)");
  EXPECT_HAS(text(m), "w = floor(a)");
  EXPECT_HAS(text(m), "f = a - w");
}

TEST(InlineFunctions, ReferenceArgumentWithSideEffectsIsEvaluatedOnce) {
  auto m = inlined(R"(
void bump(thread float& v) { v += 1.0f; v += 2.0f; }
kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float a[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  uint j = 0;
  bump(a[j++]);
  o[i] = a[0] + float(j);
}
)");
  const auto& k = m.kernels[0];
  int increments = 0;
  ir::walk_stmt_exprs(*k.body, [&](const Expr& e) {
    if (e.kind == Expr::Kind::Unary && e.unary_op == ir::UnaryOp::PostInc) ++increments;
    return true;
  });
  EXPECT_EQ(increments, 1) << text(m);
  EXPECT_HAS(text(m), "%v_ref: thread float* = &a[j++]");
}

TEST(InlineFunctions, CallUnderShortCircuitRunsOnlyWhenItsOperandIsEvaluated) {
  auto m = inlined(R"(
bool big(float v) { float w = v * 2.0f; return w > 10.0f; }
kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  o[i] = (o[i] > 0.0f && big(o[i])) ? 1.0f : 0.0f;
}
)");
  // bool t = o[i] > 0; if (t) { ...big...; t = big_result; }
  EXPECT_HAS(text(m), "%cond: bool = o[i] > 0.0f");
  EXPECT_HAS(text(m), "if (cond) {");
}

TEST(InlineFunctions, CallInLoopConditionRunsBeforeEveryIteration) {
  auto m = inlined(R"(
bool more(float v) { float h = v; return h >= 2.0f; }
kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float m = o[i];
  while (more(m)) { m *= 0.5f; }
  o[i] = m;
}
)");
  EXPECT_HAS(text(m), "while (true) {");
  EXPECT_HAS(text(m), "if (!more_result) {");
}

TEST(InlineFunctions, HelpersCallingHelpersAreInlinedToTheEnd) {
  auto m = inlined(R"(
float sq(float v) { float r = v * v; return r; }
float sum_sq(float a, float b) { float s = sq(a); s += sq(b); return s; }
kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = sum_sq(o[i], 2.0f); }
)");
  EXPECT_HAS(text(m), "// inlined: sum_sq");
  EXPECT_HAS(text(m), "// inlined: sq");
}

TEST(InlineFunctions, BarrierInHelperIsLoweredLikeOneInTheKernel) {
  auto m = inlined(R"(
float exchange(threadgroup float* buf, float v, uint lid) {
  buf[lid] = v;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  return buf[lid ^ 1];
}
kernel void k(device float* o [[buffer(0)]], uint lid [[thread_position_in_threadgroup]]) {
  threadgroup float buf[64];
  o[lid] = exchange(buf, o[lid], lid);
}
)");
  auto& k = m.kernels[0];
  EXPECT_EQ(count_stmts(*k.body, Stmt::Kind::Barrier), 1);
  DiagEngine diags;
  EXPECT_TRUE(passes::lower_execution_model(m, k, diags));
}

TEST(InlineFunctions, BarrierInHelperCalledFromDivergentCodeIsDiagnosed) {
  auto m = inlined(R"(
void sync_all() { threadgroup_barrier(mem_flags::mem_threadgroup); }
kernel void k(device float* o [[buffer(0)]], uint lid [[thread_position_in_threadgroup]]) {
  if (lid < 4u) { sync_all(); }
}
)");
  DiagEngine diags;
  EXPECT_FALSE(passes::lower_execution_model(m, m.kernels[0], diags));
  ASSERT_TRUE(diags.has_errors());
}

TEST(InlineFunctions, ValueArgumentWhoseAddressIsTakenIsCopied) {
  // f(&x, x): the body writes x through p, then reads its copy of x.
  auto m = inlined(R"(
float f(thread float* p, float v) { *p = 5.0f; return v; }
kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float x = o[i];
  o[i] = f(&x, x);
}
)");
  EXPECT_HAS(text(m), "%v: float = x");
}

TEST(InlineFunctions, KernelConstantReferenceBufferPassesToAReferenceParameter) {
  // `constant Args&` names an object: the verifier (which runs before
  // inlining) takes it as the argument of a helper's reference parameter.
  auto m = parse_or_die(R"(
struct Args { int n; float s; };
template <typename A> void scale(A args, device float* o, uint i) { if ((int)i < args.n) o[i] *= args.s; }
kernel void k(constant Args& args [[buffer(0)]], device float* o [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  scale<constant Args&>(args, o, i);
}
)");
  DiagEngine diags;
  EXPECT_TRUE(ir::verify_module(m, diags)) << (diags.diagnostics().empty() ? "" : diags.diagnostics()[0].message);
  EXPECT_TRUE(passes::inline_functions(m, diags));
  EXPECT_HAS(text(m), "args.s");
}

TEST(InlineFunctions, ArrayReferenceArgumentIsBoundOnce) {
  // `values` names grid[k]: the body's write to k (through `which`) and the
  // argument's increment do not move it, and no pointer to an array (a type
  // the printers cannot spell) is made.
  auto m = inlined(R"(
void negate_last(thread float (&values)[3], thread uint& which) { which = 0; values[2] = -values[2]; }
float first(thread float (&values)[3]) { return values[0]; }
kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float grid[2][3] = {{1.0f, 2.0f, 3.0f}, {4.0f, 5.0f, 6.0f}};
  uint k = i % 2;
  negate_last(grid[k], k);
  uint j = 1;
  float f = first(grid[j++]);
  o[i] = grid[1][2] + f + first(grid[i % 2]);
}
)");
  EXPECT_HAS(text(m), R"(%values_index: const uint = k
      k = 0u
      grid[values_index][2] = -grid[values_index][2])");
  EXPECT_HAS(text(m), R"(%values_index_1: const uint = j++
      first_result = grid[values_index_1][0])");
  // Nothing the call writes can change i % 2: the argument is used as written.
  EXPECT_HAS(text(m), "first_result_1 = grid[i % 2u][0]");
  EXPECT_EQ(text(m).find("float[3]*"), std::string::npos) << text(m);
}

TEST(InlineFunctions, ArrayReferenceArgumentOfAnotherFormIsRefused) {
  auto m = parse_or_die(R"(
float first(thread float (&values)[3]) { return values[0]; }
kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float a[3] = {1.0f, 2.0f, 3.0f}, b[3] = {4.0f, 5.0f, 6.0f};
  o[i] = first(i > 2 ? a : b);
}
)");
  DiagEngine diags;
  EXPECT_FALSE(passes::inline_functions(m, diags));
  ASSERT_EQ(diags.error_count(), 1);
  EXPECT_EQ(diags.diagnostics()[0].message,
            "the array given to reference parameter 'values' of 'first' is not supported yet: only an array "
            "variable, an element of an array of arrays or a member");
}
