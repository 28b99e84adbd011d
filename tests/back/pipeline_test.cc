// Every step of both backends' pipelines leaves valid IR (ir::verify_kernel
// after each) on every kernel of metal_src/ and of the corpus, and the
// pipeline reports the step that broke it.
#include "passes/pipeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "back/opencl/emit_opencl.h"
#include "back/openmp/emit_openmp.h"
#include "back/openmp/raise/sanitize.h"
#include "front/parse_metal.h"
#include "test_support.h"

using namespace mslport;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> sources() {
  std::vector<std::string> out;
  for (const char* dir : {"metal_src", "../shared/corpus"}) {
    const fs::path root = mslport::testing::source_path(dir);
    if (!fs::is_directory(root)) continue;
    for (auto& e : fs::recursive_directory_iterator(root))
      if (e.path().extension() == ".metal") out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string rendered(const DiagEngine& d) {
  std::string s;
  for (auto& x : d.diagnostics()) s += DiagEngine::render(x);
  return s;
}

}  // namespace

TEST(Pipeline, EveryStepOfBothTargetsLeavesValidIR) {
  passes::PipelineOptions options;
  options.verify_each = true;
  std::vector<std::string> steps;
  options.steps_run = &steps;
  const std::vector<std::string> files = sources();
  ASSERT_GE(files.size(), 20u);
  // metal_src/'s feature kernels need its include directory and one define.
  front::ParseOptions parse;
  parse.include_dirs = {mslport::testing::source_path("metal_src/include")};
  parse.macros = {front::define_macro("MSLPORT_FEATURE_BIAS=0.25f")};
  for (const std::string& f : files) {
    DiagEngine diags;
    auto m = front::parse_metal_file(f, diags, parse);
    ASSERT_TRUE(m) << f << rendered(diags);
    back::openmp::EmitOptions omp;
    omp.pipeline = &options;
    back::openmp::EmitResult omp_out;
    EXPECT_TRUE(back::openmp::emit_module(*m, omp, diags, &omp_out)) << f << rendered(diags);
    omp.sanitize = back::openmp::kSanitizeRace | back::openmp::kSanitizeBounds;
    EXPECT_TRUE(back::openmp::emit_module(*m, omp, diags, &omp_out)) << f << " (sanitized)" << rendered(diags);
    back::opencl::EmitOptions cl;
    cl.pipeline = &options;
    back::opencl::EmitResult cl_out;
    EXPECT_TRUE(back::opencl::emit_module(*m, cl, diags, &cl_out)) << f << rendered(diags);
  }
  // The steps both pipelines ran, among them each backend's own.
  for (const char* step : {"rename_reserved", "hoist_collectives", "predicate_sync", "loop_schedule_points", "sanitize",
                           "plan_loops", "memory_types", "simd_collectives", "struct_layout"})
    EXPECT_NE(std::find(steps.begin(), steps.end(), step), steps.end()) << step;
}

TEST(Pipeline, NamesTheStepThatLeftInvalidIR) {
  const std::string path = mslport::testing::write_temp_file("pipeline_broken.metal", R"(#include <metal_stdlib>
using namespace metal;
kernel void k(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 1.0f; }
)");
  DiagEngine diags;
  auto m = front::parse_metal_file(path, diags);
  ASSERT_TRUE(m);
  passes::PipelineOptions options;
  options.verify_each = true;
  passes::Pipeline p(*m, diags, &options);
  ir::Kernel& k = m->kernels[0];
  EXPECT_TRUE(p.run("fine", k, [] { return true; }));
  // An assignment to a literal: not an lvalue.
  EXPECT_FALSE(p.run("breaks_it", k, [&] {
    ir::Expr& assign = *k.body->stmts[0]->expr;
    assign.args[0] = ir::make_int(assign.args[0]->type, 0);
    return true;
  }));
  const std::string text = rendered(diags);
  EXPECT_NE(text.find("assignment to a non-lvalue"), std::string::npos) << text;
  EXPECT_NE(text.find("the IR is invalid after the step 'breaks_it'"), std::string::npos) << text;
  // Without verify_each the same step passes unnoticed.
  DiagEngine quiet;
  passes::Pipeline unchecked(*m, quiet, nullptr);
  EXPECT_TRUE(unchecked.run("breaks_it", k, [] { return true; }));
}

TEST(Pipeline, PrintsTheIRAroundTheStepsAskedFor) {
  const std::string path = mslport::testing::write_temp_file("pipeline_print.metal", R"(#include <metal_stdlib>
using namespace metal;
kernel void first(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 1.0f; }
kernel void second(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 2.0f; }
)");
  DiagEngine diags;
  auto m = front::parse_metal_file(path, diags);
  ASSERT_TRUE(m);
  passes::PipelineOptions options;
  std::ostringstream out;
  options.out = &out;
  options.print_before = {"hoist_collectives"};
  options.print_after = {"eliminate_returns"};
  options.kernel = 1;
  back::openmp::EmitOptions omp;
  omp.pipeline = &options;
  back::openmp::EmitResult r;
  ASSERT_TRUE(back::openmp::emit_module(*m, omp, diags, &r)) << rendered(diags);
  const std::string text = out.str();
  EXPECT_NE(text.find("// -- IR before hoist_collectives (kernel second)\nkernel second"), std::string::npos) << text;
  EXPECT_NE(text.find("// -- IR after eliminate_returns (kernel second)"), std::string::npos) << text;
  EXPECT_EQ(text.find("kernel first"), std::string::npos) << text;
  EXPECT_EQ(text.find("predicate_sync"), std::string::npos) << text;
}
