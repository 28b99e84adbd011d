// Compiles and runs C++/OpenMP output for small kernels: barriers in loops,
// collectives in divergent code, early returns, run-time divergence checks.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "back/openmp/emit_openmp.h"
#include "front/parse_metal.h"
#include "mslport/kernel_abi.h"
#include "support/subprocess.h"
#include "test_support.h"
#include "verify_each.h"

using namespace mslport;
namespace fs = std::filesystem;

namespace {

const char* kPrelude = "#include <metal_stdlib>\nusing namespace metal;\n";

class Compiled {
 public:
  // extra_flags: for the C++ compiler (e.g. -march=native, which the
  // runner uses and which turns on AVX-only paths of openmp_rt.h).
  explicit Compiled(const std::string& name, const std::string& metal, const std::string& extra_flags = "") {
    std::string path = mslport::testing::write_temp_file(name + ".metal", std::string(kPrelude) + metal);
    DiagEngine diags;
    auto m = front::parse_metal_file(path, diags);
    std::string rendered;
    for (auto& d : diags.diagnostics()) rendered += DiagEngine::render(d);
    if (!m) {
      error = "parse failed:\n" + rendered;
      return;
    }
    back::openmp::EmitOptions o;
    o.pipeline = mslport::testing::verify_each_step();
    o.tool_version = "test";
    o.header_name = name + ".h";
    back::openmp::EmitResult r;
    if (!back::openmp::emit_module(*m, o, diags, &r)) {
      for (auto& d : diags.diagnostics()) rendered += DiagEngine::render(d);
      error = "emit failed:\n" + rendered;
      return;
    }
    source = r.cpp_source;
    fs::path dir = fs::path(path).parent_path();
    std::ofstream(dir / (name + ".h")) << r.header_source;
    std::ofstream(dir / (name + ".cpp")) << r.cpp_source;
    std::string so = (dir / (name + ".so")).string();
    std::vector<std::string> argv = {
        "c++", "-std=c++17", "-O1", "-fopenmp", "-shared", "-fPIC", "-DMSLPORT_RUNNER_MODULE"};
    std::istringstream flags(extra_flags);
    for (std::string f; flags >> f;) argv.push_back(f);
    for (std::string a : {std::string("-I") + mslport::testing::source_path("lib/runtime/include"), std::string("-o"),
                          so, (dir / (name + ".cpp")).string()})
      argv.push_back(a);
    mslport::ProcessResult compiled = mslport::run_process(argv);
    if (!compiled.ok()) {
      error = "compile failed (" + compiled.describe() + "): " + compiled.output + "\n" + source;
      return;
    }
    handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      error = dlerror();
      return;
    }
    auto fn = (mslport_module_kernels_fn)dlsym(handle, MSLPORT_MODULE_KERNELS_SYMBOL);
    int n = 0;
    const mslport_kernel_info* ks = fn(&n);
    for (int i = 0; i < n; ++i) entries[ks[i].name] = ks[i].entry;
  }
  // Never dlclose: libgomp, loaded with the module, keeps worker threads alive.
  ~Compiled() = default;

  // Runs `kernel` on threadgroups x tptg (1-D); returns the entry's status.
  int run(const std::string& kernel, mslport_args& a, uint32_t groups, uint32_t tptg, uint32_t grid = 0,
          std::string* msg = nullptr) {
    mslport_dispatch d{{groups, 1, 1}, {tptg, 1, 1}, {grid ? grid : groups * tptg, 1, 1}};
    char buf[512] = {0};
    int rc = entries.at(kernel)(&a, &d, buf, sizeof buf);
    if (msg) *msg = buf;
    return rc;
  }

  std::string error, source;
  void* handle = nullptr;
  std::map<std::string, mslport_entry_fn> entries;
};

}  // namespace

TEST(OpenMPBackend, TreeReductionWithBarriersInLoop) {
  Compiled c("tree", R"(
kernel void tree(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                 threadgroup float* sh [[threadgroup(0)]],
                 uint tid [[thread_index_in_threadgroup]], uint n [[threads_per_threadgroup]],
                 uint g [[threadgroup_position_in_grid]]) {
  sh[tid] = in[g * n + tid];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  for (uint s = n / 2; s > 0; s >>= 1) {
    if (tid < s) sh[tid] += sh[tid + s];
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  if (tid == 0) out[g] = sh[0];
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  std::vector<float> in(3 * 128), out(3, -1.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 17);
  mslport_args a{};
  a.buffers[0] = in.data();
  a.buffers[1] = out.data();
  a.threadgroup_bytes[0] = 128 * 4;
  ASSERT_EQ(c.run("tree", a, 3, 128), 0);
  for (int g = 0; g < 3; ++g) {
    float want = 0;
    for (int i = 0; i < 128; ++i) want += in[g * 128 + i];
    EXPECT_FLOAT_EQ(out[g], want) << "group " << g;
  }
}

// thread_elements(): lane l owns (r, c) and (r, c + 1) of the tile, with
// MLX steel's map. Every lane writes its pair, the tile is stored whole (the
// pass gathers the pairs first), and the tile each SIMD group loaded before
// the gather's barriers is still its own afterwards.
TEST(OpenMPBackend, ThreadElementsFollowTheLaneMap) {
  Compiled c("elems", R"(
kernel void elems(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                  ushort lane [[thread_index_in_simdgroup]], ushort sg [[simdgroup_index_in_threadgroup]]) {
  simdgroup_float8x8 m, a;
  simdgroup_load(a, in + sg * 64, 8);
  m.thread_elements() = float2(lane, float(lane) + 0.5f);
  simdgroup_store(m, out + sg * 128, 8);
  simdgroup_store(a, out + sg * 128 + 64, 8);
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  std::vector<float> in(2 * 64), out(2 * 128, -1.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i);
  mslport_args a{};
  a.buffers[0] = in.data();
  a.buffers[1] = out.data();
  ASSERT_EQ(c.run("elems", a, 1, 64), 0);
  for (int sg = 0; sg < 2; ++sg) {
    for (int l = 0; l < 32; ++l) {
      const int q = l / 4, r = (q & 4) + (l / 2) % 4, col = (q & 2) * 2 + (l % 2) * 2;
      EXPECT_EQ(out[sg * 128 + r * 8 + col], float(l)) << "SIMD group " << sg << ", lane " << l;
      EXPECT_EQ(out[sg * 128 + r * 8 + col + 1], float(l) + 0.5f) << "SIMD group " << sg << ", lane " << l;
    }
    for (int i = 0; i < 64; ++i) EXPECT_EQ(out[sg * 128 + 64 + i], in[sg * 64 + i]) << "SIMD group " << sg;
  }
}

TEST(OpenMPBackend, SimdSumInDivergentCodeSumsOnlyActiveLanes) {
  Compiled c("divsum", R"(
kernel void divsum(device float* out [[buffer(0)]],
                   uint tid [[thread_index_in_threadgroup]], uint lane [[thread_index_in_simdgroup]],
                   uint sg [[simdgroup_index_in_threadgroup]]) {
  out[tid] = -1.0f;
  if (lane < 5u * (sg + 1u)) {
    out[tid] = simd_sum(float(lane));
  }
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  std::vector<float> out(96, -7.0f);
  mslport_args a{};
  a.buffers[0] = out.data();
  ASSERT_EQ(c.run("divsum", a, 1, 96), 0);
  for (int t = 0; t < 96; ++t) {
    int sg = t / 32, lane = t % 32, n = 5 * (sg + 1);
    float want = lane < n ? float(n * (n - 1) / 2) : -1.0f;
    EXPECT_EQ(out[t], want) << "thread " << t;
  }
}

TEST(OpenMPBackend, EarlyReturnedThreadsLeaveCollectives) {
  Compiled c("early", R"(
kernel void early(device float* out [[buffer(0)]], constant uint& n [[buffer(1)]],
                  uint tid [[thread_index_in_threadgroup]]) {
  if (tid >= n) return;
  float count = simd_sum(1.0f);
  out[tid] = count;
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  std::vector<float> out(64, -7.0f);
  uint32_t n = 40;
  mslport_args a{};
  a.buffers[0] = out.data();
  a.buffers[1] = &n;
  ASSERT_EQ(c.run("early", a, 1, 64), 0);
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(out[t], t < 32 ? 32.0f : (t < n ? 8.0f : -7.0f)) << t;
}

TEST(OpenMPBackend, BarrierUnderDivergentMemoryConditionIsARunTimeError) {
  Compiled c("memdiv", R"(
kernel void memdiv(device float* out [[buffer(0)]], device const int* flags [[buffer(1)]],
                   threadgroup float* sh [[threadgroup(0)]], uint tid [[thread_index_in_threadgroup]]) {
  if (flags[tid] > 0) {
    sh[tid] = 1.0f;
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  out[tid] = 2.0f;
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  std::vector<float> out(32);
  std::vector<int> flags(32, 1);
  mslport_args a{};
  a.buffers[0] = out.data();
  a.buffers[1] = flags.data();
  a.threadgroup_bytes[0] = 32 * 4;
  std::string msg;
  EXPECT_EQ(c.run("memdiv", a, 1, 32, 0, &msg), 0) << msg;  // uniform: fine
  flags[7] = 0;
  EXPECT_NE(c.run("memdiv", a, 1, 32, 0, &msg), 0);
  EXPECT_NE(msg.find("divergent control flow"), std::string::npos) << msg;
  EXPECT_NE(msg.find("memdiv.metal:6:"), std::string::npos) << msg;
}

TEST(OpenMPBackend, DispatchThreadsHasPartialEdgeThreadgroups) {
  Compiled c("partial", R"(
kernel void partial(device uint* out [[buffer(0)]], uint gid [[thread_position_in_grid]],
                    uint n [[threads_per_threadgroup]]) {
  out[gid] = n;
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  std::vector<uint32_t> out(100, 0xffffffffu);
  mslport_args a{};
  a.buffers[0] = out.data();
  ASSERT_EQ(c.run("partial", a, 4, 32, 100), 0);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(out[i], i < 96 ? 32u : 4u) << i;
}

TEST(OpenMPBackend, CollectiveInLoopWithPerSimdgroupTripCount) {
  // One SIMD group per row, rows strided by the number of SIMD groups: the
  // trip count differs between SIMD groups.
  Compiled c("rows", R"(
kernel void rows(device const float* m [[buffer(0)]], device float* out [[buffer(1)]],
                 constant uint& nrows [[buffer(2)]],
                 uint lane [[thread_index_in_simdgroup]], uint sg [[simdgroup_index_in_threadgroup]],
                 uint nsg [[simdgroups_per_threadgroup]]) {
  for (uint r = sg; r < nrows; r += nsg) {
    float s = simd_sum(m[r * 32 + lane]);
    if (lane == 0) out[r] = s;
  }
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  uint32_t nrows = 7;
  std::vector<float> m(nrows * 32), out(nrows, -1.0f);
  for (size_t i = 0; i < m.size(); ++i) m[i] = float(i % 13);
  mslport_args a{};
  a.buffers[0] = m.data();
  a.buffers[1] = out.data();
  a.buffers[2] = &nrows;
  ASSERT_EQ(c.run("rows", a, 1, 96), 0);
  for (uint32_t r = 0; r < nrows; ++r) {
    float want = 0;
    for (int l = 0; l < 32; ++l) want += m[r * 32 + l];
    EXPECT_EQ(out[r], want) << r;
  }
}

TEST(OpenMPBackend, UniformValueAfterDivergentReturnOnlyRunsOnLiveThreads) {
  // SIMD group 1 returns; the loop after the return must not run for it.
  Compiled c("after_return", R"(
kernel void after_return(device float* out [[buffer(0)]], constant uint& n [[buffer(1)]],
                         uint lid [[thread_index_in_threadgroup]], uint sg [[simdgroup_index_in_threadgroup]]) {
  threadgroup float sh[64];
  sh[lid] = 0;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  if (sg >= 1) return;
  uint m = n / 2;
  for (uint i = lid; i < m; i += 64) sh[i] = 1;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[lid] = sh[lid] + sh[lid + 32];
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  std::vector<float> out(64, -1.0f);
  uint32_t n = 128;
  mslport_args a{};
  a.buffers[0] = out.data();
  a.buffers[1] = &n;
  ASSERT_EQ(c.run("after_return", a, 1, 64), 0);
  // Threads 0..31 each set sh[lid] (m = 64 > lid): sh[0..31] = 1, sh[32..63] = 0.
  for (int t = 0; t < 32; ++t) EXPECT_EQ(out[t], 1.0f) << t;
  for (int t = 32; t < 64; ++t) EXPECT_EQ(out[t], -1.0f) << t;
}

TEST(OpenMPBackend, LoopCopiesWithoutPerThreadTestsRunOnlyWhereEveryThreadPasses) {
  // A strided loop's iterations that every thread completes run without
  // `c < n` (the tail keeps it), and the `alive` test after the early return
  // gets a copy of its work-item loops without it for threadgroups where no
  // thread returned. Ragged n and a threadgroup with one SIMD group gone
  // take the other paths.
  Compiled c("fast_copies", R"(
kernel void strided_rows(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                         constant uint& n [[buffer(2)]], constant uint& rows [[buffer(3)]],
                         uint tg [[threadgroup_position_in_grid]], uint lane [[thread_index_in_simdgroup]],
                         uint sg [[simdgroup_index_in_threadgroup]]) {
  uint row = tg * 2 + sg;
  if (row >= rows) return;
  float acc = 0.0f;
  for (uint c = lane; c < n; c += 32) acc += x[row * n + c] * float(c + 1);
  float s = simd_sum(acc);
  if (lane == 0) out[row] = s;
}
kernel void strided_copy(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                         constant uint& n [[buffer(2)]], uint lid [[thread_position_in_threadgroup]],
                         uint tpt [[threads_per_threadgroup]]) {
  for (uint i = lid; i < n; i += tpt) out[i] = x[i] * 2.0f;
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  ASSERT_NE(c.source.find("if (mslport_all_alive) {"), std::string::npos) << c.source;
  ASSERT_NE(c.source.find("mslport_tail0"), std::string::npos) << c.source;
  ASSERT_NE(c.source.find("mslport::full_trips(n, 32u, 32u)"), std::string::npos) << c.source;
  ASSERT_NE(c.source.find("mslport::full_trips(n, geo.tg_size.x, tpt)"), std::string::npos) << c.source;
  for (uint32_t n : {64u, 70u, 5u, 0u}) {
    uint32_t rows = 3;  // threadgroup 1: SIMD group 1 returns
    std::vector<float> x(size_t(rows) * n + 1), out(rows + 1, -1.0f);
    for (size_t i = 0; i < x.size(); ++i) x[i] = float(int(i % 7) - 3);
    mslport_args a{};
    a.buffers[0] = x.data();
    a.buffers[1] = out.data();
    a.buffers[2] = &n;
    a.buffers[3] = &rows;
    std::string msg;
    ASSERT_EQ(c.run("strided_rows", a, 2, 64, 0, &msg), 0) << msg;
    for (uint32_t r = 0; r < rows; ++r) {
      double want = 0;
      for (uint32_t col = 0; col < n; ++col) want += double(x[size_t(r) * n + col]) * (col + 1);
      EXPECT_EQ(out[r], float(want)) << "n=" << n << " row " << r;  // small integers: exact
    }
    EXPECT_EQ(out[rows], -1.0f) << "n=" << n;
  }
  for (uint32_t n : {96u, 100u, 47u}) {
    std::vector<float> x(n), out(n + 8, -1.0f);
    for (uint32_t i = 0; i < n; ++i) x[i] = float(i);
    mslport_args a{};
    a.buffers[0] = x.data();
    a.buffers[1] = out.data();
    a.buffers[2] = &n;
    ASSERT_EQ(c.run("strided_copy", a, 1, 48), 0);  // 48 threads: not a multiple of 32
    for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(out[i], 2.0f * i) << "n=" << n << " i=" << i;
    for (uint32_t i = n; i < n + 8; ++i) EXPECT_EQ(out[i], -1.0f) << "n=" << n << " i=" << i;
  }
}

TEST(OpenMPBackend, UniformBranchesAfterAnEarlyReturnRunOncePerThreadgroup) {
  // moe_combine_residual's shape: buffers the uniform k says not to read are
  // tiny, and the grid ends inside a threadgroup. The branches stay
  // branches (no per-thread masks), and the results are right either way.
  Compiled c("uniform_branches", R"(
kernel void combine(device const float* a [[buffer(0)]], device const float* b [[buffer(1)]],
                    device const float* c [[buffer(2)]], device float* out [[buffer(3)]],
                    constant uint& n [[buffer(4)]], constant uint& kk [[buffer(5)]],
                    uint tid [[thread_position_in_grid]]) {
  if (tid >= n) return;
  float s = 0.5f;
  if (kk > 0u) s += a[tid];
  if (kk > 1u) s += 2.0f * b[tid];
  if (kk > 2u) { s += 4.0f * c[tid]; } else { s -= 1.0f; }
  out[tid] = s;
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  EXPECT_EQ(c.source.find("mslport_mask"), std::string::npos) << c.source;
  for (uint32_t kk : {0u, 1u, 2u, 3u}) {
    const uint32_t n = 300;  // 2 threadgroups of 256, the second partly outside the grid
    std::vector<float> a(n), b(kk > 1 ? n : 1, 0.0f), cc(kk > 2 ? n : 1, 0.0f), out(512, -1.0f);
    for (uint32_t i = 0; i < n; ++i) {
      a[i] = float(i % 5);
      if (kk > 1) b[i] = float(i % 3);
      if (kk > 2) cc[i] = float(i % 7);
    }
    mslport_args args{};
    args.buffers[0] = a.data();
    args.buffers[1] = b.data();
    args.buffers[2] = cc.data();
    args.buffers[3] = out.data();
    args.buffers[4] = const_cast<uint32_t*>(&n);
    args.buffers[5] = &kk;
    std::string msg;
    ASSERT_EQ(c.run("combine", args, 2, 256, 0, &msg), 0) << msg;
    for (uint32_t i = 0; i < n; ++i) {
      float want = 0.5f + (kk > 0 ? a[i] : 0.0f) + (kk > 1 ? 2.0f * b[i] : 0.0f) + (kk > 2 ? 4.0f * cc[i] : -1.0f);
      EXPECT_EQ(out[i], want) << "kk=" << kk << " i=" << i;
    }
    for (uint32_t i = n; i < 512; ++i) EXPECT_EQ(out[i], -1.0f) << "kk=" << kk << " i=" << i;
  }
}

TEST(OpenMPBackend, PrefixGuardsBecomeLoopBoundsAndRunExactlyThePassingWorkItems) {
  // `if (tid < n)` / `if (n > lid)` as a whole region: the loop visits only
  // the work-items that pass (prefix_guard.h). 3-D threadgroups make the
  // flat prefix end mid-row; n = 0, past the group and 0xffffffff take the
  // clamps. A bound the body writes keeps its test.
  Compiled c("prefix", R"(
kernel void flat_prefix(device uint* out [[buffer(0)]], constant uint& n [[buffer(1)]],
                        uint tid [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]],
                        uint nt [[threads_per_threadgroup]]) {
  if (tid < n) out[g * 64 + tid] = tid + 1;
}
kernel void x_prefix(device uint* out [[buffer(0)]], constant uint& n [[buffer(1)]],
                     uint lid [[thread_position_in_threadgroup]], uint tid [[thread_index_in_threadgroup]]) {
  if (n > lid) out[tid] = lid + 100;
}
kernel void x3_prefix(device uint* out [[buffer(0)]], constant uint& n [[buffer(1)]],
                      uint3 lpos [[thread_position_in_threadgroup]], uint tid [[thread_index_in_threadgroup]]) {
  if (lpos.x < n) out[tid] = lpos.x + 100;
}
kernel void bound_written(device uint* out [[buffer(0)]], constant uint& n [[buffer(1)]],
                          uint tid [[thread_index_in_threadgroup]]) {
  uint m = n;
  if (tid < m) { m = 0; out[tid] = m + 7; }
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  ASSERT_NE(c.source.find("lx < geo.x_end_below(ly, lz, mslport_below"), std::string::npos) << c.source;
  ASSERT_NE(c.source.find("lx < std::min(geo.tg_size.x, mslport_below"), std::string::npos) << c.source;
  const size_t x3 = c.source.find("void x3_prefix_threadgroup");
  ASSERT_NE(x3, std::string::npos);
  EXPECT_NE(c.source.find("lx < std::min(geo.tg_size.x, mslport_below", x3), std::string::npos) << c.source.substr(x3);
  const size_t written = c.source.find("void bound_written_threadgroup");
  ASSERT_NE(written, std::string::npos);
  EXPECT_EQ(c.source.find("mslport_below", written), std::string::npos) << c.source.substr(written);
  auto run3 = [&](const char* kernel, mslport_args& a, uint32_t groups, uint32_t tx, uint32_t ty, uint32_t tz) {
    mslport_dispatch d{{groups, 1, 1}, {tx, ty, tz}, {groups * tx, ty, tz}};
    char msg[512] = {0};
    EXPECT_EQ(c.entries.at(kernel)(&a, &d, msg, sizeof msg), 0) << msg;
  };
  const uint32_t kPoison = 0xdeadbeefu;
  for (uint32_t n : {0u, 1u, 3u, 4u, 5u, 13u, 23u, 24u, 30u, 0xffffffffu}) {
    std::vector<uint32_t> out(2 * 64, kPoison);
    mslport_args a{};
    a.buffers[0] = out.data();
    a.buffers[1] = &n;
    run3("flat_prefix", a, 2, 4, 3, 2);  // 24 threads
    for (uint32_t g = 0; g < 2; ++g)
      for (uint32_t t = 0; t < 64; ++t)
        EXPECT_EQ(out[g * 64 + t], t < 24 && t < n ? t + 1 : kPoison) << "n=" << n << " g=" << g << " t=" << t;
    std::vector<uint32_t> xo(24, kPoison);
    a.buffers[0] = xo.data();
    run3("x_prefix", a, 1, 4, 3, 2);
    for (uint32_t t = 0; t < 24; ++t) EXPECT_EQ(xo[t], t % 4 < n ? t % 4 + 100 : kPoison) << "n=" << n << " t=" << t;
    std::fill(xo.begin(), xo.end(), kPoison);
    run3("x3_prefix", a, 1, 4, 3, 2);
    for (uint32_t t = 0; t < 24; ++t) EXPECT_EQ(xo[t], t % 4 < n ? t % 4 + 100 : kPoison) << "x3 n=" << n << " t=" << t;
    std::vector<uint32_t> wo(24, kPoison);
    a.buffers[0] = wo.data();
    run3("bound_written", a, 1, 24, 1, 1);
    for (uint32_t t = 0; t < 24; ++t) EXPECT_EQ(wo[t], t < n ? 7u : kPoison) << "n=" << n << " t=" << t;
  }
}

TEST(OpenMPBackend, GridPrefixReturnsBecomeLoopBounds) {
  // `if (gid >= n) return; B` with gid the x position in the grid (scalar
  // or the .x of the uint3): the loop runs B for x positions below n only
  // (prefix_guard.h). 3 groups of 8 (a dispatchThreads grid of 21: the last
  // group has 5), n below, inside, at the end of and past the grid; a second
  // return keeps the test.
  Compiled c("grid_prefix", R"(
kernel void scalar_gid(device uint* out [[buffer(0)]], constant uint& n [[buffer(1)]],
                       uint gid [[thread_position_in_grid]]) {
  if (gid >= n) return;
  out[gid] = gid * 3u + 1u;
}
kernel void vector_gid(device uint* out [[buffer(0)]], constant uint& n [[buffer(1)]],
                       uint3 gid [[thread_position_in_grid]]) {
  if (n <= gid.x) return;
  out[gid.x + 32u * gid.y] = gid.x + 100u * gid.y;
}
kernel void two_returns(device uint* out [[buffer(0)]], constant uint& n [[buffer(1)]],
                        uint gid [[thread_position_in_grid]]) {
  if (gid >= n) return;
  if (gid == 2u) return;
  out[gid] = 5u;
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  for (const char* k : {"void scalar_gid_threadgroup", "void vector_gid_threadgroup"}) {
    const size_t at = c.source.find(k);
    ASSERT_NE(at, std::string::npos);
    const std::string fn = c.source.substr(at, c.source.find("\n}\n", at) - at);
    EXPECT_NE(fn.find("geo.x_end_below_grid("), std::string::npos) << fn;
    EXPECT_EQ(fn.find(">= n"), std::string::npos) << fn;
    EXPECT_EQ(fn.find("<= "), std::string::npos) << fn;
  }
  const size_t two = c.source.find("void two_returns_threadgroup");
  ASSERT_NE(two, std::string::npos);
  EXPECT_EQ(c.source.find("x_end_below_grid", two), std::string::npos) << c.source.substr(two);
  const uint32_t kPoison = 0xdeadbeefu;
  for (uint32_t n : {0u, 1u, 7u, 8u, 9u, 20u, 21u, 22u, 0xffffffffu}) {
    mslport_args a{};
    a.buffers[1] = &n;
    char msg[512] = {0};
    std::vector<uint32_t> out(64, kPoison);
    a.buffers[0] = out.data();
    mslport_dispatch d{{3, 1, 1}, {8, 1, 1}, {21, 1, 1}};
    ASSERT_EQ(c.entries.at("scalar_gid")(&a, &d, msg, sizeof msg), 0) << msg;
    for (uint32_t g = 0; g < 64; ++g)
      EXPECT_EQ(out[g], g < 21 && g < n ? g * 3 + 1 : kPoison) << "n=" << n << " g=" << g;
    std::fill(out.begin(), out.end(), kPoison);
    mslport_dispatch d2{{3, 2, 1}, {8, 1, 1}, {21, 2, 1}};  // rows y = 0, 1
    ASSERT_EQ(c.entries.at("vector_gid")(&a, &d2, msg, sizeof msg), 0) << msg;
    for (uint32_t y = 0; y < 2; ++y)
      for (uint32_t x = 0; x < 32; ++x)
        EXPECT_EQ(out[x + 32 * y], x < 21 && x < n ? x + 100 * y : kPoison) << "n=" << n << " x=" << x << " y=" << y;
    std::fill(out.begin(), out.end(), kPoison);
    ASSERT_EQ(c.entries.at("two_returns")(&a, &d, msg, sizeof msg), 0) << msg;
    for (uint32_t g = 0; g < 64; ++g)
      EXPECT_EQ(out[g], g < 21 && g < n && g != 2 ? 5u : kPoison) << "n=" << n << " g=" << g;
  }
}

// The work-item loop around `code` (the text from the loop header before it).
static std::string loop_around(const std::string& src, const std::string& code) {
  const size_t at = src.find(code);
  if (at == std::string::npos) return "";
  const size_t loop = src.rfind("for (uint32_t ly", at);
  return loop == std::string::npos ? "" : src.substr(loop, at - loop);
}

TEST(OpenMPBackend, WorkItemLoopsIndexingAPrivateArrayPerLaneStayScalar) {
  // `lut[nibble]` differs between lanes: vectorised, each access is a gather
  // or scatter (emit_openmp.cc), so that loop gets no `omp simd`; a private
  // array at a loop index shared by all lanes keeps it.
  Compiled c("private_array", R"(
kernel void per_lane_index(device const uint* in [[buffer(0)]], device float* out [[buffer(1)]],
                           constant float& scale [[buffer(2)]], constant uint& d [[buffer(3)]],
                           uint tid [[thread_position_in_grid]]) {
  float lut[16];
  // A divisor read from memory (in[0] < 256): not prepared once, divided per lane.
  for (uint v = 0; v < 16; v++) lut[v] = float(v) * scale + float(tid / (d | (in[0] >> 8)));
  uint w = in[tid];
  out[tid] = lut[w & 15u] + 100.0f * lut[(w >> 4) & 15u];
}
kernel void shared_index(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                         uint tid [[thread_position_in_grid]]) {
  float t[4];
  for (uint j = 0; j < 4; j++) t[j] = in[4 * tid + j] * float(j + 1);
  out[tid] = t[0] + t[1] + t[2] + t[3];
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  const std::string gathers = loop_around(c.source, "lut[w & 15u]");
  ASSERT_FALSE(gathers.empty()) << c.source;
  EXPECT_EQ(gathers.find("omp simd"), std::string::npos) << gathers;
  // That loop divides with the hardware (no vector loop to keep).
  EXPECT_NE(c.source.find("mslport::udiv_scalar(tid, "), std::string::npos) << c.source;
  const std::string shared = loop_around(c.source, "t[j] = ");
  ASSERT_FALSE(shared.empty()) << c.source;
  EXPECT_NE(shared.find("omp simd"), std::string::npos) << shared;

  const uint32_t n = 96;
  const float kPoison = -12345.0f;
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = (i * 37u + 5u) & 0xffu;
  std::vector<float> out(n, kPoison);
  float scale = 0.5f;
  uint32_t div = 3;
  mslport_args a{};
  a.buffers[0] = in.data();
  a.buffers[1] = out.data();
  a.buffers[2] = &scale;
  a.buffers[3] = &div;
  mslport_dispatch d{{3, 1, 1}, {32, 1, 1}, {n, 1, 1}};
  char msg[512] = {0};
  ASSERT_EQ(c.entries.at("per_lane_index")(&a, &d, msg, sizeof msg), 0) << msg;
  for (uint32_t i = 0; i < n; ++i) {
    const float lo = float(in[i] & 15u) * scale + float(i / 3), hi = float((in[i] >> 4) & 15u) * scale + float(i / 3);
    EXPECT_EQ(out[i], lo + 100.0f * hi) << i;
  }
  std::vector<float> fin(4 * n), fout(n, kPoison);
  for (uint32_t i = 0; i < 4 * n; ++i) fin[i] = float(i % 7) - 3.0f;
  a.buffers[0] = fin.data();
  a.buffers[1] = fout.data();
  ASSERT_EQ(c.entries.at("shared_index")(&a, &d, msg, sizeof msg), 0) << msg;
  for (uint32_t i = 0; i < n; ++i) {
    float want = 0;
    for (uint32_t j = 0; j < 4; ++j) want += fin[4 * i + j] * float(j + 1);
    EXPECT_EQ(fout[i], want) << i;
  }
}

TEST(OpenMPBackend, DivisorsFixedForTheDispatchArePreparedOncePerThreadgroup) {
  // back/openmp/invariant_division.h: a per-work-item `n / d` or `n % d`
  // whose d is built from constant parameters, literals and variables set
  // once at the top of the kernel takes a divisor prepared before
  // everything; other divisors keep the per-lane mslport::udiv.
  Compiled c("prepared_divisors", R"(
kernel void divisions(device const uint* in [[buffer(0)]], device uint* out [[buffer(1)]],
                      constant uint& group [[buffer(2)]], constant uint& n [[buffer(3)]],
                      uint tid [[thread_position_in_grid]]) {
  uint per = n / 4u;               // set once: its divisions are prepared, with n / 4u
  uint moving = n;                 // written again below: not prepared
  if (in[0] == 12345u) moving = 3u;
  uint whole = n / group;          // uniform numerator: stays a plain division
  uint o = tid / (group / 8u) + 1000u * (tid % per);
  o += 100000u * (tid / moving);
  o += 1000000u * (tid / (in[1] | 1u));  // read from memory: not prepared
  o += 10000000u * (tid / (n / group));  // a division by a variable inside: not prepared
  out[tid] = o + whole;
}
kernel void uniform_division(device uint* out [[buffer(0)]], constant uint& n [[buffer(1)]],
                             constant uint& g [[buffer(2)]], uint tid [[thread_position_in_threadgroup]]) {
  threadgroup uint t[32];
  uint whole = n / g;  // once per threadgroup (a barrier follows): no trap for g == 0 either
  t[tid] = tid + whole;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[tid] = t[31 - tid];
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  EXPECT_HAS(c.source, "const mslport::vec<uint32_t, 4> mslport_div_group = mslport::udiv_prepare(group / 8u);");
  EXPECT_HAS(c.source, "const mslport::vec<uint32_t, 4> mslport_div_n = mslport::udiv_prepare(n / 4u);");
  EXPECT_HAS(c.source, "mslport::udiv(tid, mslport_div_group)");
  EXPECT_HAS(c.source, "mslport::umod(tid, mslport_div_n)");
  EXPECT_HAS(c.source, "mslport::udiv(tid, moving)");
  EXPECT_HAS(c.source, "mslport::udiv(tid, (in[1] | 1u))");
  EXPECT_HAS(c.source, "mslport::udiv(tid, (mslport::udiv(n, group)))");
  EXPECT_EQ(c.source.find("udiv_prepare(group)"), std::string::npos) << c.source;

  // Values: divisors 0 (Metal leaves it undefined; Apple and NVIDIA GPUs
  // give all ones, as mslport::udiv), 1, and ones needing each shift.
  for (uint32_t group : {0u, 8u, 24u, 56u, 8000u}) {
    const uint32_t n = 4 * 7 + 2, threads = 96;
    std::vector<uint32_t> in = {0, 6}, out(threads, 0xdeadbeefu);
    mslport_args a{};
    uint32_t g = group, nn = n;
    a.buffers[0] = in.data();
    a.buffers[1] = out.data();
    a.buffers[2] = &g;
    a.buffers[3] = &nn;
    std::string msg;
    ASSERT_EQ(c.run("divisions", a, 3, 32, 0, &msg), 0) << msg;
    auto div = [](uint32_t x, uint32_t y) { return y == 0 ? 0xffffffffu : x / y; };
    auto mod = [](uint32_t x, uint32_t y) { return y == 0 ? x : x % y; };
    for (uint32_t t = 0; t < threads; ++t) {
      uint32_t want = div(t, group / 8u) + 1000u * mod(t, n / 4u) + 100000u * div(t, n) + 1000000u * div(t, 7u) +
                      10000000u * div(t, div(n, group)) + div(n, group);
      EXPECT_EQ(out[t], want) << "group " << group << " tid " << t;
    }
    std::vector<uint32_t> tg_out(32, 0xdeadbeefu);
    mslport_args b{};
    b.buffers[0] = tg_out.data();
    b.buffers[1] = &nn;
    b.buffers[2] = &g;
    ASSERT_EQ(c.run("uniform_division", b, 1, 32, 0, &msg), 0) << msg;
    for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(tg_out[t], 31 - t + div(n, group)) << "group " << group << " tid " << t;
  }
  // `g` is the entry's threadgroup index: the parameter is renamed (rename_reserved.h).
  EXPECT_HAS(c.source, "uint32_t whole = mslport::udiv_scalar(n, g_);");
}

TEST(OpenMPBackend, SimdGroupStridedLoopsRunOneSimdGroupAtATime) {
  // A loop `for (c = lane; c < n; c += 32)` becomes a threadgroup-level loop
  // over work-item loops (loop_schedule_points); when the x size is a
  // multiple of 32 each SIMD group runs all its iterations before the next
  // (emit_openmp.cc, runs_simd_group_major); other sizes keep the loop
  // over all work-items per iteration. The staging loop strides by the
  // threadgroup size, not the SIMD width: it stays as it was.
  Compiled c("simd_group_major", R"(
kernel void rows(device const float* w [[buffer(0)]], device const float* x [[buffer(1)]],
                 device float* out [[buffer(2)]], constant uint& n [[buffer(3)]],
                 uint tg [[threadgroup_position_in_grid]], uint lid [[thread_position_in_threadgroup]],
                 uint tptg [[threads_per_threadgroup]], uint lane [[thread_index_in_simdgroup]],
                 uint sg [[simdgroup_index_in_threadgroup]], uint sgs [[simdgroups_per_threadgroup]]) {
  threadgroup float xs[256];
  for (uint i = lid; i < n; i += tptg) xs[i] = x[i];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  uint row = tg * sgs + sg;
  float acc = 0.0f;
  for (uint col = lane; col < n; col += 32) acc += w[row * n + col] * xs[col];
  float s = simd_sum(acc);
  if (lane == 0) out[row] = s;
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  size_t marks = 0;
  for (size_t at = 0; (at = c.source.find("one SIMD group at a time", at)) != std::string::npos; ++at) ++marks;
  EXPECT_EQ(marks, 2u) << c.source;  // the loop's full trips and its tail, not the staging loop
  const std::string major = c.source.substr(c.source.find("one SIMD group at a time"));
  EXPECT_LT(major.find("for (uint32_t mslport_sx = 0;"), major.find("for (uint32_t mslport_iter")) << major;

  const uint32_t n = 100;  // full trips and a tail
  std::vector<float> x(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = float(i % 7) - 3.0f;
  for (uint32_t tptg : {128u, 48u}) {  // four whole SIMD groups; one whole and one of 16 lanes
    const uint32_t groups = 3, sgs = (tptg + 31) / 32, rows = groups * sgs;
    std::vector<float> w(size_t{rows} * n), out(rows, -12345.0f);
    for (size_t i = 0; i < w.size(); ++i) w[i] = float(i % 11) * 0.25f - 1.0f;
    mslport_args a{};
    uint32_t nn = n;
    a.buffers[0] = w.data();
    a.buffers[1] = x.data();
    a.buffers[2] = out.data();
    a.buffers[3] = &nn;
    std::string msg;
    ASSERT_EQ(c.run("rows", a, groups, tptg, 0, &msg), 0) << msg;
    for (uint32_t r = 0; r < rows; ++r) {
      const uint32_t lanes = std::min(32u, tptg - (r % sgs) * 32);  // lanes in this row's SIMD group
      double want = 0;
      for (uint32_t col = 0; col < n; ++col)
        if (col % 32 < lanes) want += double(w[size_t{r} * n + col]) * x[col];
      EXPECT_NEAR(out[r], want, 1e-3) << "tptg " << tptg << " row " << r;
    }
  }
}

TEST(OpenMPBackend, SimdGroupValuesAreComputedOncePerSimdGroup) {
  // In a loop over one SIMD group's lanes, the SIMD-group index and the
  // recomputed values built only from it and uniform values (`row`, the row
  // pointer `r`) are declared before the loop, so the row's reads are
  // contiguous loads, not gathers through a vector of rows; `col`, which
  // depends on the lane, stays in the loop. Threadgroups whose x size is no
  // multiple of 32 keep the per-lane form (48 below: a group of 32 lanes and
  // one of 16).
  Compiled c("simd_group_values", R"(
kernel void rows(device const float* w [[buffer(0)]], device float* out [[buffer(1)]],
                 constant uint& n [[buffer(2)]], uint tg [[threadgroup_position_in_grid]],
                 uint lane [[thread_index_in_simdgroup]], uint sg [[simdgroup_index_in_threadgroup]],
                 uint sgs [[simdgroups_per_threadgroup]]) {
  uint row = tg * sgs + sg;
  device const float* r = w + row * n;
  float acc = 0.0f;
  for (uint col = lane; col < n; col += 32) acc += r[col];
  out[row * 32 + lane] = acc;
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  const std::string major = c.source.substr(c.source.find("one SIMD group at a time"));
  const size_t loop = major.find("for (uint32_t lx = mslport_sx;");
  ASSERT_NE(loop, std::string::npos) << major;
  EXPECT_LT(major.find("const uint32_t sg = (mslport_sx + geo.tg_size.x * (ly + geo.tg_size.y * lz)) / "
                       "mslport::kSimdWidth;"),
            loop)
      << major;
  EXPECT_LT(major.find("uint32_t row = "), loop) << major;
  EXPECT_LT(major.find("const float* r = "), loop) << major;
  EXPECT_GT(major.find("col_1 = "), loop) << major;

  const uint32_t n = 100;  // full trips and a tail
  for (uint32_t tptg : {64u, 48u}) {
    const uint32_t groups = 3, sgs = (tptg + 31) / 32, rows = groups * sgs;
    std::vector<float> w(size_t{rows} * n), out(size_t{rows} * 32, -12345.0f);
    for (size_t i = 0; i < w.size(); ++i) w[i] = float(i % 13) - 6.0f;
    mslport_args a{};
    uint32_t nn = n;
    a.buffers[0] = w.data();
    a.buffers[1] = out.data();
    a.buffers[2] = &nn;
    std::string msg;
    ASSERT_EQ(c.run("rows", a, groups, tptg, 0, &msg), 0) << msg;
    for (uint32_t r = 0; r < rows; ++r) {
      const uint32_t lanes = std::min(32u, tptg - (r % sgs) * 32);  // lanes in this row's SIMD group
      for (uint32_t l = 0; l < 32; ++l) {
        float want = -12345.0f;
        if (l < lanes) {
          want = 0.0f;
          for (uint32_t col = l; col < n; col += 32) want += w[size_t{r} * n + col];
        }
        EXPECT_EQ(out[size_t{r} * 32 + l], want) << "tptg " << tptg << " row " << r << " lane " << l;
      }
    }
  }
}

TEST(OpenMPBackend, PrefetchHintsRunOncePerIterationOfTheThreadgroup) {
  // passes/loop_schedule_points.h, kPrefetchAhead: the hint for a
  // threadgroup's streamed row is a threadgroup-level statement, before the
  // iteration's work-item loop, not one per work-item.
  Compiled c("prefetch_hints", R"(
kernel void rowsum(device const ushort* w [[buffer(0)]], device const float* x [[buffer(1)]],
                   device float* out [[buffer(2)]], constant uint& n [[buffer(3)]],
                   uint g [[threadgroup_position_in_grid]], uint lid [[thread_position_in_threadgroup]],
                   uint tgs [[threads_per_threadgroup]]) {
  threadgroup float part[64];
  device const ushort* row = w + g * n;
  float s = 0.0f;
  for (uint i = lid; i < n; i += tgs) s += x[i] * float(row[i]);
  part[lid] = s;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  if (lid == 0) {
    float t = 0.0f;
    for (uint j = 0; j < tgs; ++j) t += part[j];
    out[g] = t;
  }
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  const std::string hint = "mslport::prefetch_ahead(&row[mslport_iter0 * tgs], tgs * 2u, geo.tg_size.x * 2u);";
  const size_t at = c.source.find(hint);
  ASSERT_NE(at, std::string::npos) << c.source;
  EXPECT_EQ(c.source.find(hint, at + 1), std::string::npos) << c.source;
  const size_t loop = c.source.rfind("for (uint32_t mslport_iter0", at);
  ASSERT_NE(loop, std::string::npos) << c.source;
  EXPECT_EQ(c.source.substr(loop, at - loop).find("for (uint32_t lx"), std::string::npos) << c.source;

  const uint32_t n = 1000, groups = 5, tptg = 64;  // full iterations and a tail
  std::vector<uint16_t> w(size_t{groups} * n);
  std::vector<float> x(n), out(groups, -12345.0f);
  for (size_t i = 0; i < w.size(); ++i) w[i] = uint16_t(i % 13);
  for (uint32_t i = 0; i < n; ++i) x[i] = float(i % 5) - 2.0f;
  mslport_args a{};
  uint32_t nn = n;
  a.buffers[0] = w.data();
  a.buffers[1] = x.data();
  a.buffers[2] = out.data();
  a.buffers[3] = &nn;
  std::string msg;
  ASSERT_EQ(c.run("rowsum", a, groups, tptg, 0, &msg), 0) << msg;
  for (uint32_t g = 0; g < groups; ++g) {
    double want = 0;
    for (uint32_t i = 0; i < n; ++i) want += double(x[i]) * w[size_t{g} * n + i];
    EXPECT_NEAR(out[g], want, 1e-3) << g;
  }
}

TEST(OpenMPBackend, StreamedStoresWriteTheSameValuesAtTheSamePlaces) {
  // back/openmp/streaming_stores.h: with MSLPORT_STREAM_STORES=always every
  // qualifying loop takes its copy that stages each row and writes it with
  // non-temporal stores. Outputs start one element into their buffer (rows
  // not 32-byte aligned), the grid ends inside a threadgroup, rows are as
  // short as 5 elements, and elements outside each kernel's stores must
  // keep their poison.
  ASSERT_EQ(setenv("MSLPORT_STREAM_STORES", "always", 1), 0);
#if defined(__x86_64__)
  ASSERT_TRUE(__builtin_cpu_supports("avx"))
      << "the non-temporal copy needs AVX; this CPU would test the plain loop only";
#endif
  Compiled c("streamed_stores", R"(
kernel void scale(device const float* a [[buffer(0)]], device float* out [[buffer(1)]],
                  constant uint& n [[buffer(2)]], uint tid [[thread_position_in_grid]]) {
  if (tid >= n) return;
  out[tid] = a[tid] * 2.0f + 1.0f;
}
kernel void rows(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                 constant uint& n [[buffer(2)]], uint g [[threadgroup_position_in_grid]],
                 uint lid [[thread_position_in_threadgroup]], uint tgs [[threads_per_threadgroup]]) {
  for (uint i = lid; i < n; i += tgs) out[g * n + i] = x[g * n + i] - 3.0f;
}
kernel void plane(device const float* x [[buffer(0)]], device half* out [[buffer(1)]],
                  constant uint& w [[buffer(2)]], uint2 pos [[thread_position_in_grid]]) {
  out[pos.y * w + pos.x] = half(x[pos.y * w + pos.x] + 0.5f);
}
)",
             "-march=native");
  ASSERT_TRUE(c.error.empty()) << c.error;
  for (const char* k : {"scale_threadgroup", "rows_threadgroup", "plane_threadgroup"}) {
    const size_t at = c.source.find(k);
    ASSERT_NE(at, std::string::npos) << k;
    EXPECT_NE(c.source.find("mslport::streams_past_cache(", at), std::string::npos) << k << "\n" << c.source;
  }
  EXPECT_HAS(c.source, "mslport::stream_row(mslport_row0, mslport_stage0, ");
  EXPECT_HAS(c.source, "mslport::stream_fence();");
  const float poison = -12345.0f;
  std::string msg;
  {
    const uint32_t n = 1000, tptg = 64, groups = (n + tptg - 1) / tptg;
    std::vector<float> a(n), out(n + 40, poison);
    for (uint32_t i = 0; i < n; ++i) a[i] = float(i % 17) - 8.0f;
    mslport_args args{};
    uint32_t nn = n;
    args.buffers[0] = a.data();
    args.buffers[1] = out.data() + 1;
    args.buffers[2] = &nn;
    ASSERT_EQ(c.run("scale", args, groups, tptg, groups * tptg, &msg), 0) << msg;
    EXPECT_EQ(out[0], poison);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i + 1], a[i] * 2.0f + 1.0f) << i;
    for (size_t i = n + 1; i < out.size(); ++i) ASSERT_EQ(out[i], poison) << i;
  }
  {
    const uint32_t n = 1000, groups = 3, tptg = 64;  // 15 full trips and a tail per row
    std::vector<float> x(size_t{groups} * n), out(size_t{groups} * n + 2, poison);
    for (size_t i = 0; i < x.size(); ++i) x[i] = float(i % 29);
    mslport_args args{};
    uint32_t nn = n;
    args.buffers[0] = x.data();
    args.buffers[1] = out.data() + 1;
    args.buffers[2] = &nn;
    ASSERT_EQ(c.run("rows", args, groups, tptg, 0, &msg), 0) << msg;
    EXPECT_EQ(out.front(), poison);
    EXPECT_EQ(out.back(), poison);
    for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(out[i + 1], x[i] - 3.0f) << i;
  }
  {
    const uint32_t w = 5, h = 12;  // threadgroups of 5 x 4: rows of 5 halves
    std::vector<float> x(w * h);
    std::vector<uint16_t> out(w * h + 2, 0xdead);
    for (uint32_t i = 0; i < w * h; ++i) x[i] = float(i);
    mslport_args args{};
    uint32_t ww = w;
    args.buffers[0] = x.data();
    args.buffers[1] = out.data() + 1;
    args.buffers[2] = &ww;
    mslport_dispatch d{{1, h / 4, 1}, {w, 4, 1}, {w, h, 1}};
    char buf[512] = {0};
    ASSERT_EQ(c.entries.at("plane")(&args, &d, buf, sizeof buf), 0) << buf;
    EXPECT_EQ(out.front(), 0xdead);
    EXPECT_EQ(out.back(), 0xdead);
    for (uint32_t i = 0; i < w * h; ++i) {
      _Float16 v;
      std::memcpy(&v, &out[i + 1], 2);
      ASSERT_EQ(float(v), x[i] + 0.5f) << i;
    }
  }
}

TEST(OpenMPBackend, ReadsAlongTheGridGetAPrefetchHintPerRow) {
  // Reads whose address steps by one element along x and moves with the
  // threadgroup (`slots[s * n + i]` in the work-item loops a uniform loop
  // over s runs, `b[tid]`, `idx[tid]`) are asked for ahead, once per row
  // before the loop, at the row's first address. Not `x[lid]` (the same
  // row in every group), `a[2 * tid]` (two elements per step), `io` (the
  // loop writes it), `a[idx[tid]]` (a loaded index), nor `slots[s * n + i]`
  // under a loop over s inside the work-item loop (no address before it).
  // The kernels still compute what they did (below).
  Compiled c("prefetched_reads", R"(
kernel void wsum(device const float* slots [[buffer(0)]], device const float* x [[buffer(1)]],
                 device float* out [[buffer(2)]], constant uint& n [[buffer(3)]], constant uint& k [[buffer(4)]],
                 uint g [[threadgroup_position_in_grid]], uint lid [[thread_position_in_threadgroup]]) {
  uint i = g * 4 + lid;
  float sum = x[lid];
  for (uint s = 0; s < k; s++) sum += slots[s * n + i];
  for (uint s = 0; s < 3; s++) sum += slots[s * n + i];
  out[i] = sum;
}
kernel void others(device const float* a [[buffer(0)]], device const float* b [[buffer(1)]],
                   device float* io [[buffer(2)]], device const uint* idx [[buffer(3)]],
                   uint tid [[thread_position_in_grid]]) {
  io[tid] = io[tid] + a[2 * tid] + b[tid] + a[idx[tid]];
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  auto count = [&](const std::string& needle) {
    size_t k = 0;
    for (size_t at = 0; (at = c.source.find(needle, at)) != std::string::npos; ++at) ++k;
    return k;
  };
  EXPECT_EQ(count("mslport::prefetch_ahead(&slots[(s * n) + i], geo.tg_size.x * sizeof(*slots), "), 1u) << c.source;
  EXPECT_EQ(count("mslport::prefetch_ahead(&b[tid], geo.tg_size.x * sizeof(*b), "), 1u) << c.source;
  EXPECT_EQ(count("mslport::prefetch_ahead(&idx[tid], geo.tg_size.x * sizeof(*idx), "), 1u) << c.source;
  EXPECT_EQ(count("mslport::prefetch_ahead("), 3u) << c.source;

  std::vector<float> slots(3 * 8), x(4, 0.5f), out(8, -1.0f);
  for (size_t j = 0; j < slots.size(); ++j) slots[j] = float(j);
  uint32_t n = 8, k = 2;
  mslport_args a{};
  a.buffers[0] = slots.data();
  a.buffers[1] = x.data();
  a.buffers[2] = out.data();
  a.buffers[3] = &n;
  a.buffers[4] = &k;
  ASSERT_EQ(c.run("wsum", a, 2, 4), 0);
  for (uint32_t i = 0; i < 8; ++i)
    EXPECT_EQ(out[i], 0.5f + (float(i) + float(8 + i)) + (float(i) + float(8 + i) + float(16 + i))) << i;

  std::vector<float> av(16), bv(8), io(8, 1.0f);
  std::vector<uint32_t> idx(8);
  for (uint32_t j = 0; j < 16; ++j) av[j] = float(j);
  for (uint32_t j = 0; j < 8; ++j) bv[j] = 100.0f * float(j), idx[j] = 7 - j;
  mslport_args o{};
  o.buffers[0] = av.data();
  o.buffers[1] = bv.data();
  o.buffers[2] = io.data();
  o.buffers[3] = idx.data();
  ASSERT_EQ(c.run("others", o, 2, 4), 0);
  for (uint32_t j = 0; j < 8; ++j) EXPECT_EQ(io[j], 1.0f + float(2 * j) + 100.0f * float(j) + float(7 - j)) << j;
}

TEST(OpenMPBackend, StoresThatCannotBeStreamedStayPlain) {
  // A buffer the kernel also reads, a store two elements apart, one under a
  // per-thread condition and one after a per-thread return: no staged copy.
  Compiled c("plain_stores", R"(
kernel void accumulate(device const float* a [[buffer(0)]], device float* out [[buffer(1)]],
                       uint tid [[thread_position_in_grid]]) {
  out[tid] = out[tid] + a[tid];
}
kernel void strided(device const float* a [[buffer(0)]], device float* out [[buffer(1)]],
                    uint tid [[thread_position_in_grid]]) {
  out[2 * tid] = a[tid];
}
kernel void conditional(device const float* a [[buffer(0)]], device float* out [[buffer(1)]],
                        uint tid [[thread_position_in_grid]]) {
  if (a[tid] > 0.0f) out[tid] = a[tid];
}
kernel void after_return(device const float* a [[buffer(0)]], device float* out [[buffer(1)]],
                         uint tid [[thread_position_in_grid]]) {
  float v = a[tid];
  if (v < 0.0f) return;
  out[tid] = v;
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  EXPECT_EQ(c.source.find("streams_past_cache"), std::string::npos) << c.source;
}

TEST(OpenMPBackend, PointerCastAsSubscriptBaseKeepsItsParentheses) {
  // `((device const float4*) src)[i].y`: the cast binds looser than [] and .
  Compiled c("postfix_cast", R"(
kernel void postfix_cast(device const char* src [[buffer(0)]], device float* out [[buffer(1)]],
                         uint i [[thread_position_in_grid]]) {
  out[i] = ((device const float*) src)[i] + ((device const float4*) src)[i].y;
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  std::vector<float> src(4 * 8), out(8, -1.0f);
  for (size_t i = 0; i < src.size(); ++i) src[i] = float(i);
  mslport_args a{};
  a.buffers[0] = src.data();
  a.buffers[1] = out.data();
  ASSERT_EQ(c.run("postfix_cast", a, 1, 8), 0);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], src[i] + src[4 * i + 1]) << i;
}

TEST(OpenMPBackend, SimdSumOfVectorsAddsLaneByLane) {
  Compiled c("vec_simd_sum", R"(
kernel void vec_simd_sum(device const float4* in [[buffer(0)]], device float4* out [[buffer(1)]],
                         uint i [[thread_position_in_grid]]) {
  out[i] = simd_sum(in[i]) + simd_prefix_exclusive_sum(in[i]);
}
)");
  ASSERT_TRUE(c.error.empty()) << c.error;
  std::vector<float> in(4 * 64), out(4 * 64, -1.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 7);
  mslport_args a{};
  a.buffers[0] = in.data();
  a.buffers[1] = out.data();
  ASSERT_EQ(c.run("vec_simd_sum", a, 1, 64), 0);
  for (int lane = 0; lane < 64; ++lane)
    for (int j = 0; j < 4; ++j) {
      int g = lane / 32 * 32;
      float total = 0, before = 0;
      for (int l = g; l < g + 32; ++l) total += in[4 * l + j];
      for (int l = g; l < lane; ++l) before += in[4 * l + j];
      EXPECT_EQ(out[4 * lane + j], total + before) << lane << "." << j;
    }
}
