#include "back/openmp/raise/loop_schedule_points.h"
#include "ir/analysis/uniformity.h"
#include "ir/printer.h"
#include "passes/lower_execution_model.h"
#include "passes/pass_test_util.h"

using namespace mslport;
using namespace mslport::testing;
using ir::Stmt;

namespace {
const Stmt* first_loop(const ir::Kernel& k) {
  const Stmt* found = nullptr;
  ir::walk_stmts(*k.body, [&](const Stmt& s) {
    if (!found && s.kind == Stmt::Kind::For) found = &s;
    return !found;
  });
  return found;
}
bool starts_with_schedule_point(const Stmt& loop) {
  return !loop.body->stmts.empty() && loop.body->stmts[0]->kind == Stmt::Kind::Barrier && loop.body->stmts[0]->lockstep;
}
}  // namespace

namespace {
// The lowering as the OpenMP backend runs it: schedule points between the halves.
bool lower_with_schedule_points(ir::Module& m, ir::Kernel& k, DiagEngine& diags) {
  passes::Pipeline p(m, diags, nullptr);
  if (!passes::lower_statements(p, m, k, {})) return false;
  back::openmp::insert_loop_schedule_points(k);
  return passes::lower_synchronisation(p, m, k);
}
}  // namespace

TEST(LoopSchedulePoints, UniformLoopInsideTheWorkItemsGetsOne) {
  auto m = parse_or_die(R"(
kernel void k(device const float* w [[buffer(0)]], device const float* x [[buffer(1)]],
              device float* out [[buffer(2)]], constant uint& n [[buffer(3)]], constant uint& h [[buffer(4)]],
              uint i [[thread_position_in_grid]]) {
  if (i >= h) return;
  float sum = 0.0f;
  for (uint s = 0; s < n; s++) sum += w[s] * x[s * h + i];
  out[i] = sum;
}
)");
  auto& k = m.kernels[0];
  EXPECT_EQ(back::openmp::insert_loop_schedule_points(k), 1);
  ASSERT_NE(first_loop(k), nullptr);
  EXPECT_TRUE(starts_with_schedule_point(*first_loop(k)));
  // The whole lowering accepts it: the early return becomes the alive flag
  // and the loop stays a plain loop (uniform trip count).
  DiagEngine diags;
  auto m2 = parse_or_die(R"(
kernel void k(device const float* w [[buffer(0)]], device const float* x [[buffer(1)]],
              device float* out [[buffer(2)]], constant uint& n [[buffer(3)]], constant uint& h [[buffer(4)]],
              uint i [[thread_position_in_grid]]) {
  if (i >= h) return;
  float sum = 0.0f;
  for (uint s = 0; s < n; s++) sum += w[s] * x[s * h + i];
  out[i] = sum;
}
)");
  EXPECT_TRUE(lower_with_schedule_points(m2, m2.kernels[0], diags));
  EXPECT_FALSE(diags.has_errors());
}

TEST(LoopSchedulePoints, PerThreadLiteralNestedAndSyncLoopsGetNone) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], constant uint& n [[buffer(1)]],
              threadgroup float* sh [[threadgroup(0)]],
              uint lid [[thread_position_in_threadgroup]], uint i [[thread_position_in_grid]]) {
  float a = 0.0f;
  for (uint c = lid; c < out[1]; c += 32u) a += out[c];   // trip count differs, bound not uniform
  for (uint j = 0; j < 8u; j++) a += out[j];              // literal bound: unrolled by the compiler
  for (uint p = 0; p < n; p++) {                          // holds a break
    if (out[p] < 0.0f) break;
    a += out[p];
  }
  for (uint r = 0; r < n; r++) {                          // holds a barrier
    sh[lid] = a;
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  if (out[0] > 0.0f) {                                    // under a memory-dependent condition
    for (uint t = 0; t < n; t++) a += 1.0f;
  }
  out[i] = a;
}
)");
  EXPECT_EQ(back::openmp::insert_loop_schedule_points(m.kernels[0]), 0);
}

TEST(LoopSchedulePoints, ThreadStridedLoopGetsAUniformTripCount) {
  // for (c = lane; c < n; c += 32)  =>  start = lane;
  //   for (it = 0; it < (n == 0 ? 0 : (n - 1) / 32 + 1); it += 1) { c = start + it * 32; if (c < n) ... }
  auto m = parse_or_die(R"(
kernel void k(device const float* w [[buffer(0)]], device float* out [[buffer(1)]],
              constant uint& n [[buffer(2)]], uint lane [[thread_index_in_simdgroup]],
              uint g [[threadgroup_position_in_grid]]) {
  float acc = 0.0f;
  for (uint c = lane; c < n; c += 32u) acc += w[c];
  out[g * 32u + lane] = acc;
}
)");
  auto& k = m.kernels[0];
  EXPECT_EQ(back::openmp::insert_loop_schedule_points(k), 2);  // the full iterations, the tail
  const Stmt* loop = first_loop(k);
  ASSERT_NE(loop, nullptr);
  EXPECT_TRUE(starts_with_schedule_point(*loop));
  ASSERT_EQ(loop->init->kind, Stmt::Kind::Decl);
  EXPECT_EQ(k.vars[loop->init->var].name.rfind("mslport_iter", 0), 0u);
  ir::analysis::UniformityInfo info = ir::analysis::analyze_uniformity(k);
  EXPECT_EQ(info.loop_level.at(loop), ir::analysis::Uniformity::Threadgroup);
  // The lane is below 32: the iterations every lane completes come first,
  // without the test; the tail keeps it.
  ASSERT_EQ(loop->body->stmts.size(), 3u);
  EXPECT_EQ(loop->body->stmts[1]->kind, Stmt::Kind::Decl);
  EXPECT_EQ(k.vars[loop->body->stmts[1]->var].name, "c_1");  // the tail declares c
  EXPECT_NE(loop->body->stmts[2]->kind, Stmt::Kind::If);
  EXPECT_EQ(ir::print_expr(m, k, *loop->expr), "mslport_iter0 < __mslport_full_trips(n, 32u, 32u)");
  std::string ir_text = ir::print_kernel(m, k);
  EXPECT_NE(ir_text.find("for (%mslport_tail0: uint = 0u; mslport_tail0 < (__mslport_strided_trips(n, 32u) - "
                         "__mslport_full_trips(n, 32u, 32u)); mslport_tail0 += 1u)"),
            std::string::npos)
      << ir_text;
  EXPECT_NE(ir_text.find("if (c < n) {"), std::string::npos) << ir_text;
}

TEST(LoopSchedulePoints, OnlyStartsWithAKnownBoundArePeeled) {
  // lid.x is below the threadgroup's x size; lane + 1 has no bound the pass
  // knows, so its loop keeps the test in every iteration.
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], constant uint& n [[buffer(1)]],
              uint3 lid [[thread_position_in_threadgroup]], uint lane [[thread_index_in_simdgroup]]) {
  for (uint i = lid.x; i < n; i += 64u) out[i] = 1.0f;
  for (uint j = lane + 1u; j < n; j += 32u) out[j] += 1.0f;
}
)");
  auto& k = m.kernels[0];
  EXPECT_EQ(back::openmp::insert_loop_schedule_points(k), 3);  // full + tail for i, one for j
  std::string ir_text = ir::print_kernel(m, k);
  EXPECT_NE(ir_text.find("__mslport_threadgroup_size_x()"), std::string::npos) << ir_text;
  EXPECT_EQ(ir_text.find("mslport_tail1"), std::string::npos) << ir_text;
  EXPECT_NE(ir_text.find("if (j < n) {"), std::string::npos) << ir_text;
}

TEST(LoopSchedulePoints, NestedLoopsContiguousAcrossThreadsAreChosen) {
  // fused_moe_wsum_norm_add's shape: the kk loop reads eo[kk * dim + i],
  // contiguous across threads, so it is turned inside out as well; the d
  // loop steps along d and stays in the work-item loop.
  auto m = parse_or_die(R"(
kernel void k(device const float* eo [[buffer(0)]], device const float* w [[buffer(1)]],
              device float* out [[buffer(2)]], constant uint& dim [[buffer(3)]], constant uint& top_k [[buffer(4)]],
              uint tid [[thread_index_in_threadgroup]], uint tg_size [[threads_per_threadgroup]]) {
  for (uint i = tid; i < dim; i += tg_size) {
    float v = 0.0f;
    for (uint kk = 0; kk < top_k; ++kk) v += eo[kk * dim + i] * w[kk];
    float dot = 0.0f;
    for (uint d = 0; d < top_k; ++d) dot += eo[i * top_k + d];
    out[i] = v + dot;
  }
}
)");
  auto& k = m.kernels[0];
  // Full iterations: the i loop and its kk loop; the tail: the i loop only
  // (kk is under the tail's per-thread test there).
  EXPECT_EQ(back::openmp::insert_loop_schedule_points(k), 3) << ir::print_kernel(m, k);
}

TEST(LoopSchedulePoints, LiteralLoopsOfANestStayInTheWorkItemLoop) {
  // The strided loop over i (uniform trip count after the rewrite: its full
  // iterations and its tail) and, in the full iterations, the loop over k
  // get points; the literal loop over j stays in the work-item loop.
  auto m = parse_or_die(R"(
kernel void k(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
              constant uint& n [[buffer(2)]], constant uint& top_k [[buffer(3)]],
              uint tid [[thread_index_in_threadgroup]], uint tg_size [[threads_per_threadgroup]]) {
  for (uint i = tid; i < n; i += tg_size) {
    float v = 0.0f;
    for (uint k = 0; k < top_k; ++k) {
      for (uint j = 0; j < 4u; ++j) v += x[(k * 4u + j) * n + i];
    }
    out[i] = v;
  }
}
)");
  EXPECT_EQ(back::openmp::insert_loop_schedule_points(m.kernels[0]), 3);
}

TEST(LoopSchedulePoints, LoopsOnlySomeThreadsReachAreLeftAlone) {
  auto m = parse_or_die(R"(
kernel void k(device float* out [[buffer(0)]], constant uint& n [[buffer(1)]],
              uint tid [[thread_index_in_threadgroup]]) {
  if (tid == 0u) {
    float s = 0.0f;
    for (uint e = 0; e < n; ++e) s += out[e];
    out[n] = s;
  }
}
)");
  EXPECT_EQ(back::openmp::insert_loop_schedule_points(m.kernels[0]), 0);
}

TEST(LoopSchedulePoints, UniformBranchesOverPerThreadAccessesGetOne) {
  // `if (k > 0u) m += a[tid]` after an early return: a point in the branch,
  // so it runs once per threadgroup (no masked loads of a buffer the
  // condition says not to touch). Not for a branch without per-thread
  // accesses, nor for one whose condition reads memory.
  auto m = parse_or_die(R"(
kernel void k(device const float* a [[buffer(0)]], device const float* b [[buffer(1)]],
              device float* out [[buffer(2)]], constant uint& n [[buffer(3)]], constant uint& kk [[buffer(4)]],
              uint tid [[thread_position_in_grid]]) {
  if (tid >= n) return;
  float s = 0.0f;
  if (kk > 0u) s += a[tid];
  if (kk > 1u) { s += b[tid]; } else { s -= b[tid]; }
  if (kk > 2u) s += 1.0f;
  if (a[0] > 0.0f) s += b[tid];
  out[tid] = s;
}
)");
  auto& k = m.kernels[0];
  EXPECT_EQ(back::openmp::insert_loop_schedule_points(k), 3);  // kk > 0, both branches of kk > 1
}

TEST(LoopSchedulePoints, UniformBranchesStayBranchesUnderAnEarlyReturnOnParametersAndTheirValues) {
  // After the return, `if (kk > 0u)` (a parameter) stays a branch the
  // threadgroup takes once, and so does `if (m > 2u)`: m = kk * 2u, a value
  // of parameters, is assigned for every thread, the returned ones too, so
  // they agree on the branch (predicate_sync.cc). Before, m was assigned for
  // the others only, and the branch became a per-thread mask.
  auto m = parse_or_die(R"(
kernel void k(device const float* a [[buffer(0)]], device float* out [[buffer(1)]],
              constant uint& n [[buffer(2)]], constant uint& kk [[buffer(3)]],
              uint tid [[thread_position_in_grid]]) {
  if (tid >= n) return;
  float s = 0.0f;
  uint m = kk * 2u;
  if (kk > 0u) s += a[tid];
  if (m > 2u) s += a[tid + 1u];
  out[tid] = s;
}
)");
  DiagEngine diags;
  ASSERT_TRUE(lower_with_schedule_points(m, m.kernels[0], diags));
  std::string ir_text = ir::print_kernel(m, m.kernels[0]);
  EXPECT_NE(ir_text.find("if (kk > 0u) {"), std::string::npos) << ir_text;
  EXPECT_NE(ir_text.find("    m = kk * 2u\n"), std::string::npos) << ir_text;  // at the top level, not under alive
  EXPECT_NE(ir_text.find("if (m > 2u) {"), std::string::npos) << ir_text;
  EXPECT_EQ(ir_text.find("mslport_mask"), std::string::npos) << ir_text;
}

TEST(LoopSchedulePoints, StreamedReadsGetAPrefetchHintInTheFullIterations) {
  // The iterations every thread completes start with a hint for each device
  // buffer read at `P[v]` / `P[U + v]` with P and U the same for the
  // threadgroup, the first two seen: `row[i]` and `x[g * n + i]`. Not for
  // `x[i]` (a buffer read at v alone is the same for every threadgroup),
  // `h[g * n + i]` (a third), a second loop's `row[i]` (streamed by the
  // first), or `o[g * n + j]`, which is written.
  auto m = parse_or_die(R"(
kernel void k(device const ushort* w [[buffer(0)]], device const float* x [[buffer(1)]],
              device const half* h [[buffer(2)]], device half* o [[buffer(3)]], constant uint& n [[buffer(4)]],
              uint g [[threadgroup_position_in_grid]], uint lid [[thread_position_in_threadgroup]],
              uint tgs [[threads_per_threadgroup]]) {
  device const ushort* row = w + g * n;
  float acc = 0.0f;
  for (uint i = lid; i < n; i += tgs) acc += x[i] * float(row[i]) + x[g * n + i] + float(h[g * n + i]);
  for (uint j = lid; j < n; j += tgs) o[g * n + j] = half(acc * float(row[j]));
}
)");
  auto& k = m.kernels[0];
  EXPECT_EQ(back::openmp::insert_loop_schedule_points(k), 4);
  const std::string ir_text = ir::print_kernel(m, k);
  auto count = [&](const std::string& needle) {
    size_t n = 0;
    for (size_t at = 0; (at = ir_text.find(needle, at)) != std::string::npos; ++at) ++n;
    return n;
  };
  EXPECT_EQ(count("__mslport_prefetch_ahead("), 2u) << ir_text;
  EXPECT_EQ(count("__mslport_prefetch_ahead(&row[mslport_iter0 * tgs], tgs * 2u, "
                  "__mslport_threadgroup_size_x() * 2u)"),
            1u)
      << ir_text;
  EXPECT_EQ(count("__mslport_prefetch_ahead(&x[(g * n) + (mslport_iter0 * tgs)], tgs * 4u, "
                  "__mslport_threadgroup_size_x() * 4u)"),
            1u)
      << ir_text;
  // In the full iterations' loop, after its schedule point.
  const Stmt* loop = first_loop(k);
  ASSERT_NE(loop, nullptr);
  EXPECT_TRUE(starts_with_schedule_point(*loop));
  ASSERT_GE(loop->body->stmts.size(), 3u);
  EXPECT_EQ(loop->body->stmts[1]->kind, Stmt::Kind::ExprStmt);
  EXPECT_EQ(loop->body->stmts[1]->expr->spelling, back::openmp::kPrefetchAhead);
}
