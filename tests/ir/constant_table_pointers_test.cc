#include "ir/analysis/constant_table_pointers.h"

#include "passes/pass_test_util.h"

using namespace mslport;
using namespace mslport::testing;

namespace {

const char* kTable = R"(
constant float kGrid[4][2] = {{1.0f, 2.0f}, {3.0f, 4.0f}, {5.0f, 6.0f}, {7.0f, 8.0f}};
)";

}  // namespace

TEST(ConstantTablePointers, LearnsThroughArithmeticCastsAndCopies) {
  auto m = parse_or_die(std::string(kTable) + R"(
kernel void k(device float* out [[buffer(0)]], constant float* w [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  constant float* p = kGrid[i % 4];      // a row, decaying
  constant float* q;
  q = p + 1;                             // learnt from p, in a later round of the walk
  constant float* r = (constant float*)q;
  constant float* b = w + i;             // a buffer pointer
  out[i] = *r + b[0] + p[0];
}
)");
  const auto& k = m.kernels.at(0);
  auto t = ir::analysis::analyze_constant_table_pointers(k);
  for (const char* v : {"p", "q", "r"}) {
    EXPECT_TRUE(t.into_table[find_var(k, v)]) << v;
    EXPECT_FALSE(t.elsewhere[find_var(k, v)]) << v;
  }
  EXPECT_FALSE(t.into_table[find_var(k, "b")]);
  EXPECT_TRUE(t.elsewhere[find_var(k, "b")]);
  EXPECT_TRUE(ir::analysis::conflicting_table_pointers(k, t).empty());
  EXPECT_TRUE(ir::analysis::table_pointer_misuses(k, t).empty());
}

TEST(ConstantTablePointers, AVariableSetToBothKindsConflicts) {
  auto m = parse_or_die(std::string(kTable) + R"(
kernel void k(device float* out [[buffer(0)]], constant float* w [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  constant float* p = kGrid[0];
  if (i > 3u) { p = w; }
  out[i] = p[1];
}
)");
  const auto& k = m.kernels.at(0);
  auto t = ir::analysis::analyze_constant_table_pointers(k);
  auto both = ir::analysis::conflicting_table_pointers(k, t);
  ASSERT_EQ(both.size(), 1u);
  EXPECT_EQ(both[0], find_var(k, "p"));
}

TEST(ConstantTablePointers, ComparingWithABufferPointerIsAMisuse) {
  auto m = parse_or_die(std::string(kTable) + R"(
kernel void k(device float* out [[buffer(0)]], constant float* w [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  constant float* p = kGrid[i % 4];
  constant float* q = kGrid[1];
  out[i] = (p == q ? 1.0f : 0.0f) + (p == w ? 1.0f : 0.0f);
}
)");
  const auto& k = m.kernels.at(0);
  auto t = ir::analysis::analyze_constant_table_pointers(k);
  auto misuses = ir::analysis::table_pointer_misuses(k, t);
  // p == q compares two table pointers: fine; p == w is the one misuse.
  ASSERT_EQ(misuses.size(), 1u);
  EXPECT_EQ(misuses[0]->kind, ir::Expr::Kind::VarRef);
  EXPECT_EQ(misuses[0]->index, find_var(k, "p"));
}

TEST(ConstantTablePointers, LvalueRootLooksThroughSubscriptsAndMembers) {
  auto m = parse_or_die(std::string(kTable) + R"(
kernel void k(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  out[i] = kGrid[i % 4][1];
}
)");
  const auto& k = m.kernels.at(0);
  const ir::Expr* read = nullptr;
  ir::walk_stmt_exprs(*k.body, [&](const ir::Expr& x) {
    if (!read && x.kind == ir::Expr::Kind::Index && x.args[0]->kind == ir::Expr::Kind::Index) read = &x;
    return true;
  });
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(ir::analysis::lvalue_root(*read)->kind, ir::Expr::Kind::GlobalConstRef);
  auto t = ir::analysis::analyze_constant_table_pointers(k);
  EXPECT_TRUE(t.lvalue_in_table(*read));
}
