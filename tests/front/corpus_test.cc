// The user's corpus (../shared/corpus, referenced by path, never copied):
// every file translates completely.
#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "ir/printer.h"

namespace mslport::front {
namespace {

std::string corpus(const std::string& name) { return std::string(MSLPORT_SOURCE_DIR) + "/../shared/corpus/" + name; }

std::string all_errors(const DiagEngine& d) {
  std::string s;
  for (auto& x : d.diagnostics()) s += DiagEngine::render(x);
  return s;
}

struct CorpusCase {
  const char* file;
  size_t kernels;
};

class CorpusFile : public ::testing::TestWithParam<CorpusCase> {};

TEST_P(CorpusFile, TranslatesWithoutErrors) {
  DiagEngine d;
  auto m = parse_metal_file(corpus(GetParam().file), d);
  ASSERT_TRUE(m) << all_errors(d);
  EXPECT_EQ(d.error_count(), 0) << all_errors(d);
  EXPECT_EQ(m->kernels.size(), GetParam().kernels);
  for (auto& k : m->kernels) {
    EXPECT_FALSE(k.params.empty()) << k.name;
    ASSERT_TRUE(k.body) << k.name;
    EXPECT_FALSE(k.body->stmts.empty()) << k.name;
    // Every expression has a location in the user's file.
    ir::walk_stmt_exprs(*k.body, [&](const ir::Expr& e) {
      EXPECT_TRUE(e.loc.valid()) << k.name << ": " << ir::print_expr(*m, k, e);
      EXPECT_EQ(e.loc.file, corpus(GetParam().file));
      return true;
    });
  }
  EXPECT_FALSE(ir::print_module(*m).empty());
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusFile,
                         ::testing::Values(CorpusCase{"moe_post_ops.metal", 4}, CorpusCase{"fused_norm_ops.metal", 8},
                                           CorpusCase{"moe_gate.metal", 1}, CorpusCase{"moe_quant_shaders.metal", 57}),
                         [](const auto& info) {
                           std::string n = info.param.file;
                           return n.substr(0, n.find('.'));
                         });

TEST(Corpus, MoePostOpsDetails) {
  DiagEngine d;
  auto m = parse_metal_file(corpus("moe_post_ops.metal"), d);
  ASSERT_TRUE(m) << all_errors(d);
  const ir::Kernel* k = m->find_kernel("weighted_sum_residual_norm_stacked_f32");
  ASSERT_TRUE(k);
  ASSERT_EQ(k->tg_allocs.size(), 2u);
  EXPECT_EQ(ir::type_name(*m, k->tg_allocs[0].type), "float[8]");  // WSUM_NORM_NSG folded
  int barriers = 0, collectives = 0;
  ir::walk_stmts(*k->body, [&](const ir::Stmt& s) {
    if (s.kind == ir::Stmt::Kind::Barrier) {
      ++barriers;
      EXPECT_EQ(s.mem_flags, 2u);
    }
    return true;
  });
  ir::walk_stmt_exprs(*k->body, [&](const ir::Expr& e) {
    collectives += e.kind == ir::Expr::Kind::Collective;
    return true;
  });
  EXPECT_EQ(barriers, 2);
  EXPECT_EQ(collectives, 1);
  ASSERT_EQ(m->constants.size(), 2u);
  EXPECT_EQ(m->constants[0].name, "WSUM_NORM_THREADS");
}

TEST(Corpus, MoeQuantShadersSimdgroupMatrix) {
  DiagEngine d;
  auto m = parse_metal_file(corpus("moe_quant_shaders.metal"), d);
  ASSERT_TRUE(m) << all_errors(d);
  int matrix_vars = 0, loads = 0, transposed = 0;
  for (auto& k : m->kernels) {
    for (auto& v : k.vars) matrix_vars += v.type.kind == ir::Type::Kind::SimdMatrix;
    ir::walk_stmt_exprs(*k.body, [&](const ir::Expr& e) {
      if (e.kind == ir::Expr::Kind::SimdMatrixOp && e.matrix_op == ir::SimdMatrixOpKind::Load) {
        ++loads;
        EXPECT_EQ(e.args.size(), 5u);  // defaults are explicit
        if (e.args.size() == 5 && e.args[4]->kind == ir::Expr::Kind::BoolLit && e.args[4]->int_value) ++transposed;
      }
      return true;
    });
  }
  EXPECT_GT(matrix_vars, 0);
  EXPECT_EQ(loads, 6);
  EXPECT_EQ(transposed, 2);
}

}  // namespace
}  // namespace mslport::front
