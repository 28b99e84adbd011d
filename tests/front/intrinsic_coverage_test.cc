// Every row of ir/intrinsic_table.def that both backends support is
// exercised by a kernel of metal_src/ that has golden cases: `mslport
// check --target all` (ctest check_metal_src) then runs it on both targets
// against an independent reference. A row without one fails here, named.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "front/parse_metal.h"
#include "ir/intrinsic_table.h"
#include "test_support.h"

namespace mslport {
namespace {

namespace fs = std::filesystem;
using ir::Intrinsic;

ir::Intrinsic matrix_intrinsic(ir::SimdMatrixOpKind op) {
  switch (op) {
    case ir::SimdMatrixOpKind::Load: return Intrinsic::SimdgroupLoad;
    case ir::SimdMatrixOpKind::Store: return Intrinsic::SimdgroupStore;
    case ir::SimdMatrixOpKind::Multiply: return Intrinsic::SimdgroupMultiply;
    case ir::SimdMatrixOpKind::MultiplyAccumulate: return Intrinsic::SimdgroupMultiplyAccumulate;
    case ir::SimdMatrixOpKind::Fill: return Intrinsic::MakeFilledSimdgroupMatrix;
    case ir::SimdMatrixOpKind::Diagonal: return Intrinsic::SimdgroupMatrixDiagonal;
  }
  return Intrinsic::None;
}

// The Metal functions a statement tree calls.
void note_uses(const ir::Stmt& body, std::set<Intrinsic>& used, std::set<int>& helpers) {
  ir::walk_stmts(body, [&](const ir::Stmt& s) {
    if (s.kind == ir::Stmt::Kind::Barrier)
      used.insert(s.simdgroup_scope ? Intrinsic::SimdgroupBarrier : Intrinsic::ThreadgroupBarrier);
    return true;
  });
  ir::walk_stmt_exprs(body, [&](const ir::Expr& e) {
    switch (e.kind) {
      case ir::Expr::Kind::Call:
        if (e.intrinsic != Intrinsic::None) used.insert(e.intrinsic);
        break;
      case ir::Expr::Kind::Collective: used.insert(ir::collective_intrinsic(e.collective_op)); break;
      case ir::Expr::Kind::SimdMatrixOp: used.insert(matrix_intrinsic(e.matrix_op)); break;
      case ir::Expr::Kind::Bitcast: used.insert(Intrinsic::AsType); break;
      case ir::Expr::Kind::UserCall: helpers.insert(e.index); break;
      default: break;
    }
    return true;
  });
}

TEST(IntrinsicTable, EveryRowBothBackendsSupportIsExercisedByAGoldenKernel) {
  front::ParseOptions options;
  options.include_dirs = {testing::source_path("metal_src/include")};
  options.macros = {front::define_macro("MSLPORT_FEATURE_BIAS=0.25f")};  // as mslport.toml gives metal_src
  std::set<Intrinsic> used;
  for (const auto& entry : fs::recursive_directory_iterator(testing::source_path("metal_src"))) {
    if (entry.path().extension() != ".metal") continue;
    DiagEngine diags;
    auto m = front::parse_metal_file(entry.path().string(), diags, options);
    ASSERT_TRUE(m) << entry.path();
    // The kernels with golden cases, and the helpers they call (transitively).
    std::set<int> helpers, seen;
    for (auto& k : m->kernels)
      if (k.body && fs::is_directory(testing::source_path("golden/" + k.name))) note_uses(*k.body, used, helpers);
    while (!helpers.empty()) {
      int f = *helpers.begin();
      helpers.erase(helpers.begin());
      if (!seen.insert(f).second) continue;
      const ir::Kernel& def = m->functions.at(f).def;
      if (def.body) note_uses(*def.body, used, helpers);
    }
  }
  std::string missing;
  for (auto& row : ir::intrinsic_table()) {
    if (row.group == ir::IntrinsicGroup::Internal || !row.on_openmp() || !row.on_opencl()) continue;
    if (!used.count(row.id)) missing += std::string(" ") + row.name;
  }
  EXPECT_EQ(missing, "") << "supported on both targets, but no metal_src/ kernel with golden cases calls:" << missing;
}

}  // namespace
}  // namespace mslport
