// Where the OpenMP backend keeps each variable: a local in one work-item
// loop, a per-work-item array across barriers, or one threadgroup scalar.
#include <gtest/gtest.h>

#include "back/openmp/raise/storage.h"
#include "front/parse_metal.h"
#include "passes/lower_execution_model.h"
#include "test_support.h"

using namespace mslport;
using back::openmp::Storage;

namespace {

// The first kernel of a Metal file, after lower_execution_model, with the
// OpenMP backend's storage plan for it.
struct Planned {
  std::optional<ir::Module> m;
  back::openmp::StoragePlan plan;
  bool ok = false;
  Storage storage(const std::string& name) const {
    const auto& k = m->kernels[0];
    for (size_t v = 0; v < k.vars.size(); ++v)
      if (k.vars[v].name == name) return plan.storage[v];
    ADD_FAILURE() << "no variable " << name;
    return Storage::Local;
  }
};

Planned plan_file(const std::string& name, const std::string& source) {
  Planned p;
  DiagEngine diags;
  p.m = front::parse_metal_file(mslport::testing::write_temp_file(name, source), diags);
  if (!p.m || p.m->kernels.empty()) return p;
  auto& k = p.m->kernels[0];
  if (!passes::lower_execution_model(*p.m, k, diags)) return p;
  p.plan = back::openmp::plan_storage(k);
  p.ok = true;
  return p;
}

}  // namespace

TEST(StoragePlan, StorageFollowsBarriersAndUniformity) {
  auto p = plan_file("plan.metal", R"(#include <metal_stdlib>
using namespace metal;
kernel void k(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
              constant uint& n [[buffer(2)]], threadgroup float* sh [[threadgroup(0)]],
              uint tid [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]],
              uint tg [[threads_per_threadgroup]]) {
  const uint base = g * n;                 // uniform: one scalar per threadgroup
  float partial = in[base + tid];          // crosses the barrier: per work-item
  sh[tid] = partial;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  for (uint s = tg / 2; s > 0; s >>= 1) {  // uniform loop around barriers
    if (tid < s) sh[tid] += sh[tid + s];
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  float scaled = sh[0] * partial;          // used in one loop only: local
  out[base + tid] = scaled;
}
)");
  ASSERT_TRUE(p.ok);
  EXPECT_TRUE(p.plan.has_sync);
  EXPECT_EQ(p.storage("base"), Storage::Uniform);
  EXPECT_EQ(p.storage("s"), Storage::Uniform);
  EXPECT_EQ(p.storage("partial"), Storage::PerThread);
  EXPECT_EQ(p.storage("scaled"), Storage::Local);
}

TEST(StoragePlan, PureThreadIdArithmeticIsRecomputedNotStored) {
  auto p = plan_file("remat.metal", R"(#include <metal_stdlib>
using namespace metal;
kernel void k(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
              constant uint& n [[buffer(2)]], threadgroup float* sh [[threadgroup(0)]],
              uint tid [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]]) {
  const uint base = g * n;
  uint i = base + tid;              // pure, defined once: recomputed in each loop
  uint j = i * 2u;                  // built from another recomputed one
  uint moved = i;                   // written again below: stays an array
  float loaded = in[i];             // reads memory: stays an array
  sh[tid] = loaded;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  moved += 1u;
  out[i] = sh[tid ^ 1u] + loaded + float(j + moved);
}
)");
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(p.storage("base"), Storage::Uniform);
  EXPECT_EQ(p.storage("i"), Storage::Remat);
  EXPECT_EQ(p.storage("j"), Storage::Remat);
  EXPECT_EQ(p.storage("moved"), Storage::PerThread);
  EXPECT_EQ(p.storage("loaded"), Storage::PerThread);
}

TEST(StoragePlan, RecomputedValuesNeverDivideByAVariable) {
  // A dead work-item recomputes too: `q = i / n` could trap for n == 0
  // where the kernel's own code would not have divided.
  auto p = plan_file("remat_div.metal", R"(#include <metal_stdlib>
using namespace metal;
kernel void k(device float* out [[buffer(0)]], constant uint& n [[buffer(1)]],
              threadgroup float* sh [[threadgroup(0)]], uint tid [[thread_index_in_threadgroup]]) {
  if (n == 0u) return;
  uint q = tid / n;
  uint h = tid / 2u;
  sh[tid] = float(q + h);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[tid] = sh[tid ^ 1u] + float(q) + float(h);
}
)");
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(p.storage("q"), Storage::PerThread);
  EXPECT_EQ(p.storage("h"), Storage::Remat);
}

TEST(StoragePlan, AVariableWrittenInsideAPerWorkItemExpressionIsNotOneScalar) {
  // k's value is the same in every thread, but each thread increments it
  // in a statement that runs per work-item: one threadgroup scalar would be
  // incremented once per work-item.
  auto p = plan_file("side_effects.metal", R"(#include <metal_stdlib>
using namespace metal;
kernel void k(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
              threadgroup float* sh [[threadgroup(0)]], uint i [[thread_position_in_grid]],
              uint l [[thread_position_in_threadgroup]]) {
  sh[l] = 1.0f;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  float a[4];
  int k = 0;
  for (int j = 0; j < 4; ++j) a[j] = x[4 * i + k++];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[i] = a[0] + a[3] + sh[l] + float(k);
}
)");
  ASSERT_TRUE(p.ok);
  EXPECT_NE(p.storage("k"), Storage::Uniform);
}
