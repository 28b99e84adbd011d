// The intrinsic table: rows in enumerator order with unique names, and
// docs/msl-support.md is what ir::render_msl_support makes of it
// (MSLPORT_UPDATE_DOCS=1 rewrites the file instead of failing).
#include "ir/intrinsic_table.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "ir/intrinsic_docs.h"
#include "ir/ir.h"
#include "test_support.h"

namespace mslport::ir {
namespace {

TEST(IntrinsicTable, RowsAreInEnumeratorOrderWithUniqueNames) {
  std::set<std::string> names;
  for (auto& row : intrinsic_table()) {
    EXPECT_EQ(&intrinsic_info(row.id), &row) << row.name;
    EXPECT_TRUE(names.insert(row.name).second) << row.name;
    EXPECT_EQ(intrinsic_named(row.name), row.id) << row.name;
  }
  EXPECT_FALSE(intrinsic_named("not_a_metal_function"));
}

TEST(IntrinsicTable, CollectivesMapToTheirRows) {
  for (int op = 0; op <= static_cast<int>(CollectiveOp::QuadActiveThreadsMask); ++op) {
    auto c = static_cast<CollectiveOp>(op);
    Intrinsic id = collective_intrinsic(c);
    ASSERT_NE(id, Intrinsic::None) << op;
    EXPECT_EQ(intrinsic_info(id).form, IntrinsicForm::Collective);
    EXPECT_EQ(collective_from_name(intrinsic_info(id).name), c);
  }
}

TEST(IntrinsicTable, SupportDocIsCurrent) {
  const std::string path = testing::source_path("docs/msl-support.md");
  const std::string want = render_msl_support();
  if (std::getenv("MSLPORT_UPDATE_DOCS")) {
    std::ofstream(path) << want;
    return;
  }
  std::ifstream in(path);
  std::stringstream have;
  have << in.rdbuf();
  EXPECT_EQ(have.str(), want) << "docs/msl-support.md is stale: run MSLPORT_UPDATE_DOCS=1 build/tests/test_ir "
                                 "--gtest_filter='IntrinsicTable.*'";
}

}  // namespace
}  // namespace mslport::ir
