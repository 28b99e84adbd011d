// `mslport check --sanitize`: small kernels with a race, an out-of-bounds
// access or an uninitialised read are reported (kind, message, line), and
// their corrected twins are not.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "back/openmp/emit_openmp.h"
#include "back/openmp/raise/sanitize.h"
#include "front/parse_metal.h"
#include "mslport/kernel_abi.h"
#include "support/subprocess.h"
#include "test_support.h"
#include "verify_each.h"

using namespace mslport;
namespace fs = std::filesystem;

namespace {

const char* kPrelude = "#include <metal_stdlib>\nusing namespace metal;\n";  // two lines
constexpr unsigned kAll = back::openmp::kSanitizeRace | back::openmp::kSanitizeBounds | back::openmp::kSanitizeInit |
                          back::openmp::kSanitizeDivergence;

// A finding as "kind line: message | note line: note" (file names dropped).
struct Sanitized {
  explicit Sanitized(const std::string& name, const std::string& metal, unsigned checks = kAll) {
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
    o.sanitize = checks;
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
    mslport::ProcessResult compiled = mslport::run_process(
        {"c++", "-std=c++17", "-O1", "-fopenmp", "-shared", "-fPIC", "-DMSLPORT_RUNNER_MODULE",
         "-I" + mslport::testing::source_path("lib/runtime/include"), "-o", so, (dir / (name + ".cpp")).string()});
    if (!compiled.ok()) {
      error = "compile failed (" + compiled.describe() + "): " + compiled.output + "\n" + source;
      return;
    }
    void* handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      error = dlerror();
      return;
    }
    auto fn = (mslport_module_kernels_fn)dlsym(handle, MSLPORT_MODULE_KERNELS_SYMBOL);
    report = (size_t(*)(char*, size_t))dlsym(handle, "mslport_san_report");
    int n = 0;
    const mslport_kernel_info* ks = fn(&n);
    entry = ks[0].entry;
  }

  // Runs the module's kernel on `groups` threadgroups of `tptg` threads;
  // returns its findings, one a line, sorted.
  // With `rc`, the kernel's status is stored there instead of expected to be 0.
  std::string run(mslport_args& a, uint32_t groups, uint32_t tptg, int* rc_out = nullptr) {
    mslport_dispatch d{{groups, 1, 1}, {tptg, 1, 1}, {groups * tptg, 1, 1}};
    char msg[512] = {0};
    int rc = entry(&a, &d, msg, sizeof msg);
    if (rc_out) *rc_out = rc;
    else EXPECT_EQ(rc, 0) << msg;
    std::vector<char> buf(1 << 16);
    report(buf.data(), buf.size());
    std::istringstream ss(buf.data());
    std::string line, out;
    while (std::getline(ss, line)) {
      std::vector<std::string> f;
      size_t start = 0;
      for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
        f.push_back(line.substr(start, tab - start));
      f.push_back(line.substr(start));
      out += f[0] + " " + f[2] + ": " + f[4];
      if (f[6] != "0") out += " | " + f[6] + ": " + f[8];
      out += "\n";
    }
    return out;
  }

  std::string error, source;
  mslport_entry_fn entry = nullptr;
  size_t (*report)(char*, size_t) = nullptr;
};

// in[256] -> out[groups], threadgroup memory of 64 floats.
struct Buffers {
  std::vector<float> in = std::vector<float>(256, 1.0f), out = std::vector<float>(256, 0.0f);
  mslport_args a{};
  Buffers() {
    a.buffers[0] = in.data();
    a.buffer_bytes[0] = in.size() * 4;
    a.buffers[1] = out.data();
    a.buffer_bytes[1] = out.size() * 4;
    a.threadgroup_bytes[0] = 64 * 4;
  }
};

std::string tree(bool with_barrier) {
  return std::string(R"(
kernel void tree(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                 uint tid [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]]) {
  threadgroup float sh[64];
  sh[tid] = in[g * 64 + tid];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  for (uint s = 32; s > 0; s >>= 1) {
    if (tid < s) sh[tid] += sh[tid + s];
    )") + (with_barrier ? "threadgroup_barrier(mem_flags::mem_threadgroup);" : "") +
         R"(
  }
  if (tid == 0) out[g] = sh[0];
}
)";
}

}  // namespace

TEST(OpenMPSanitize, TreeReductionWithoutItsBarrierRaces) {
  Sanitized c("san_tree_racy", tree(false));
  ASSERT_TRUE(c.error.empty()) << c.error;
  Buffers b;
  EXPECT_EQ(
      c.run(b.a, 2, 64),
      "race 10: data race on threadgroup memory 'sh[1]': write by thread (tg 0,0,0 / tid 1 / simd 0 lane 1) and "
      "read by thread (tg 0,0,0 / tid 0 / simd 0 lane 0) at line 10 in one barrier interval | 10: the conflicting "
      "read by "
      "thread (tg 0,0,0 / tid 0 / simd 0 lane 0)\n");
}

TEST(OpenMPSanitize, TreeReductionWithItsBarrierIsClean) {
  Sanitized c("san_tree_ok", tree(true));
  ASSERT_TRUE(c.error.empty()) << c.error;
  Buffers b;
  EXPECT_EQ(c.run(b.a, 2, 64), "");
  EXPECT_EQ(b.out[0], 64.0f);
}

TEST(OpenMPSanitize, ReadOfASlotAnotherThreadWroteInTheSameInterval) {
  const char* kernel = R"(
kernel void neighbour(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                      threadgroup float* sh [[threadgroup(0)]],
                      uint tid [[thread_index_in_threadgroup]], uint n [[threads_per_threadgroup]]) {
  sh[tid] = in[tid];
  %s
  out[tid] = sh[(tid + 1) %% n];
}
)";
  char racy[1024], fixed[1024];
  std::snprintf(racy, sizeof racy, kernel, "");
  std::snprintf(fixed, sizeof fixed, kernel, "threadgroup_barrier(mem_flags::mem_threadgroup);");
  Sanitized r("san_neighbour_racy", racy), f("san_neighbour_ok", fixed);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(f.error.empty()) << f.error;
  Buffers b;
  EXPECT_EQ(r.run(b.a, 1, 64),
            "race 7: data race on threadgroup memory 'sh[1]': write by thread (tg 0,0,0 / tid 1 / simd 0 lane 1) and "
            "read by thread (tg 0,0,0 / tid 0 / simd 0 lane 0) at line 9 in one barrier interval | 9: the conflicting "
            "read by "
            "thread (tg 0,0,0 / tid 0 / simd 0 lane 0)\n");
  EXPECT_EQ(f.run(b.a, 1, 64), "");
}

TEST(OpenMPSanitize, ArrayWrittenOnePastItsEnd) {
  const char* kernel = R"(
kernel void shift(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                  uint tid [[thread_index_in_threadgroup]]) {
  threadgroup float sh[65];
  sh[tid + %d] = in[tid];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[tid + %d] = sh[tid + 1];
}
)";
  char bad[1024], good[1024];
  std::snprintf(bad, sizeof bad, kernel, 2, 193);
  std::snprintf(good, sizeof good, kernel, 1, 192);
  Sanitized r("san_shift_bad", bad), f("san_shift_ok", good);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(f.error.empty()) << f.error;
  Buffers b;
  EXPECT_EQ(r.run(b.a, 1, 64),
            "bounds 7: out-of-bounds write of threadgroup memory 'sh[65]' (65 elements) by thread (tg 0,0,0 / tid 63 "
            "/ simd 1 lane 31)\n"
            "bounds 9: out-of-bounds write of device buffer 'out[256]' (256 elements) by thread (tg 0,0,0 / tid 63 / "
            "simd 1 lane 31)\n"
            "init 9: read of uninitialized threadgroup memory 'sh[1]' by thread (tg 0,0,0 / tid 0 / simd 0 lane 0): "
            "no thread of this threadgroup wrote it\n");
  EXPECT_EQ(f.run(b.a, 1, 64), "");
}

TEST(OpenMPSanitize, ReadOfAnElementNoThreadWrote) {
  const char* kernel = R"(
kernel void half_init(device float* out [[buffer(1)]], uint tid [[thread_index_in_threadgroup]]) {
  threadgroup float sh[64];
  if (tid < %d) sh[tid] = float(tid);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[tid] = sh[63 - tid];
}
)";
  char bad[1024], good[1024];
  std::snprintf(bad, sizeof bad, kernel, 32);
  std::snprintf(good, sizeof good, kernel, 64);
  Sanitized r("san_init_bad", bad), f("san_init_ok", good);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(f.error.empty()) << f.error;
  Buffers b;
  EXPECT_EQ(r.run(b.a, 1, 64),
            "init 8: read of uninitialized threadgroup memory 'sh[63]' by thread (tg 0,0,0 / tid 0 / simd 0 lane 0): "
            "no thread of this threadgroup wrote it\n");
  EXPECT_EQ(f.run(b.a, 1, 64), "");
}

// The backend's lock-step barrier makes this read-then-overwrite produce
// Metal's result on one SIMD group, but Metal does not order it: reported
// (like fused_moe_routing_f32 in the corpus). A SIMD-group collective between
// the accesses orders the lanes of one SIMD group.
TEST(OpenMPSanitize, LockstepBarrierIsNoOrderingPointButACollectiveIs) {
  Sanitized r("san_lockstep", R"(
kernel void reuse(device float* out [[buffer(1)]], uint tid [[thread_index_in_threadgroup]]) {
  threadgroup float sh[1];
  if (tid == 0) sh[0] = 1.0f;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  float m = sh[0];
  if (tid == 0) sh[0] = 2.0f;
  out[tid] = m;
}
)");
  Sanitized f("san_collective", R"(
kernel void reuse(device float* out [[buffer(1)]], uint tid [[thread_index_in_threadgroup]]) {
  threadgroup float sh[1];
  if (tid == 0) sh[0] = 1.0f;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  float m = simd_sum(sh[0]);
  if (tid == 0) sh[0] = 2.0f;
  out[tid] = m;
}
)");
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(f.error.empty()) << f.error;
  Buffers b;
  EXPECT_EQ(
      r.run(b.a, 1, 32),
      "race 9: data race on threadgroup memory 'sh[0]': write by thread (tg 0,0,0 / tid 0 / simd 0 lane 0) and "
      "read by thread (tg 0,0,0 / tid 31 / simd 0 lane 31) at line 8 in one barrier interval | 8: the conflicting "
      "read by "
      "thread (tg 0,0,0 / tid 31 / simd 0 lane 31)\n");
  EXPECT_EQ(b.out[5], 1.0f);
  EXPECT_EQ(f.run(b.a, 1, 32), "");
}

// ---------------------------------------------------------------- tiles --
// simdgroup_load / simdgroup_store: the 64 element accesses are the SIMD
// group's as a whole ("simd N, all lanes").
namespace {
std::string tiles(const char* store_at, const char* between) {
  return std::string(R"(
kernel void tiles(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                  uint tid [[thread_index_in_threadgroup]], uint sg [[simdgroup_index_in_threadgroup]]) {
  threadgroup float t[128];
  simdgroup_matrix<float, 8, 8> m;
  simdgroup_load(m, in + sg * 64, 8);
  simdgroup_store(m, )") +
         store_at + R"(, 8);
  )" + between +
         R"(
  out[tid] = t[127 - tid];
}
)";
}
}  // namespace

TEST(OpenMPSanitize, TileStoreReadByAnotherSimdGroupWithoutABarrierRaces) {
  Sanitized r("san_tile_racy", tiles("&t[sg * 64]", ""));
  Sanitized f("san_tile_ok", tiles("&t[sg * 64]", "threadgroup_barrier(mem_flags::mem_threadgroup);"));
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(f.error.empty()) << f.error;
  Buffers b;
  for (int i = 0; i < 256; ++i) b.in[i] = float(i);
  EXPECT_EQ(r.run(b.a, 1, 64),
            "race 9: data race on threadgroup memory 't[96]': write by thread (tg 0,0,0 / simd 1, all lanes) and "
            "read by thread (tg 0,0,0 / tid 31 / simd 0 lane 31) at line 11 in one barrier interval | 11: the "
            "conflicting read by thread (tg 0,0,0 / tid 31 / simd 0 lane 31)\n");
  // (tid 63 reads t[64], which its own SIMD group's tile store wrote: the
  // operation orders it with the group's lanes.)
  // The corrected twin: no finding (in particular no uninitialised read of
  // what the tile store wrote), and the values Metal produces.
  EXPECT_EQ(f.run(b.a, 1, 64), "");
  EXPECT_EQ(b.out[0], 127.0f);
  EXPECT_EQ(b.out[63], 64.0f);
}

TEST(OpenMPSanitize, TileStorePastTheEndOfAnArray) {
  Sanitized r("san_tile_oob", tiles("&t[sg * 64 + 8]", "threadgroup_barrier(mem_flags::mem_threadgroup);"));
  ASSERT_TRUE(r.error.empty()) << r.error;
  Buffers b;
  EXPECT_EQ(r.run(b.a, 1, 64),
            "bounds 9: out-of-bounds write of threadgroup memory 't[128]' (128 elements) by thread (tg 0,0,0 / simd "
            "1, all lanes)\n");
}

TEST(OpenMPSanitize, TileLoadOfADeviceBufferPastItsEnd) {
  Sanitized r("san_tile_dev_oob", R"(
kernel void tl(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
               uint sg [[simdgroup_index_in_threadgroup]]) {
  simdgroup_matrix<float, 8, 8> m;
  simdgroup_load(m, in + 200 + sg * 64, 8);
  simdgroup_store(m, out + sg * 64, 8);
}
)");
  ASSERT_TRUE(r.error.empty()) << r.error;
  Buffers b;
  EXPECT_EQ(r.run(b.a, 1, 64),
            "bounds 7: out-of-bounds read of device buffer 'in[256]' (256 elements) by thread (tg 0,0,0 / simd 0, "
            "all lanes)\n");
}

// ----------------------------------------------------------- divergence --
TEST(OpenMPSanitize, BarrierAfterAnEarlyReturnIsNotReachedByEveryThread) {
  Sanitized r("san_early_return", R"(
kernel void early(device float* out [[buffer(1)]], uint tid [[thread_index_in_threadgroup]]) {
  threadgroup float sh[64];
  if (tid >= 48) return;
  sh[tid] = float(tid);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[tid] = sh[47 - tid];
}
)");
  Sanitized f("san_early_guard", R"(
kernel void early(device float* out [[buffer(1)]], uint tid [[thread_index_in_threadgroup]]) {
  threadgroup float sh[64];
  if (tid < 48) sh[tid] = float(tid);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  if (tid < 48) out[tid] = sh[47 - tid];
}
)");
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(f.error.empty()) << f.error;
  Buffers b;
  EXPECT_EQ(r.run(b.a, 1, 64),
            "divergence 8: threadgroup_barrier not reached by every thread of the threadgroup: thread (tg 0,0,0 / tid "
            "48 / simd 1 lane 16) returned at line 6, 48 threads wait here | 6: thread (tg 0,0,0 / tid 48 / simd 1 "
            "lane 16) returned "
            "here\n");
  EXPECT_EQ(f.run(b.a, 1, 64), "");
  EXPECT_EQ(b.out[0], 47.0f);
}

TEST(OpenMPSanitize, BarrierUnderAConditionTheThreadsDisagreeOn) {
  const char* kernel = R"(
kernel void gate(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                 uint tid [[thread_index_in_threadgroup]]) {
  threadgroup float sh[64];
  if (in[%s] > 0.5f) {
    sh[tid] = in[tid];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[tid] = sh[63 - tid];
  }
}
)";
  char bad[1024], good[1024];
  std::snprintf(bad, sizeof bad, kernel, "tid");
  std::snprintf(good, sizeof good, kernel, "0");
  Sanitized r("san_gate_bad", bad), f("san_gate_ok", good);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(f.error.empty()) << f.error;
  Buffers b;
  for (int i = 0; i < 256; ++i) b.in[i] = i < 40 ? 1.0f : 0.0f;
  int rc = 0;
  EXPECT_EQ(r.run(b.a, 1, 64, &rc),
            "divergence 7: threads disagree on a condition that guards a barrier or SIMD-group function: thread (tg "
            "0,0,0 / tid 0 / simd 0 lane 0) evaluates it true, thread (tg 0,0,0 / tid 40 / simd 1 lane 8) false, so "
            "not every thread reaches line 9 | 9: the barrier or SIMD-group function\n");
  EXPECT_NE(rc, 0);  // the threadgroup cannot go on: the case fails too
  EXPECT_EQ(f.run(b.a, 1, 64), "");
  EXPECT_EQ(b.out[0], 0.0f);
}

TEST(OpenMPSanitize, ShuffleReadingAnInactiveLane) {
  const char* kernel = R"(
kernel void shuf(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                 uint tid [[thread_index_in_threadgroup]]) {
  float v = in[tid];
  if (tid %% 2 == 0) v = simd_shuffle_down(v, %d);
  out[tid] = v;
}
)";
  char bad[1024], good[1024];
  std::snprintf(bad, sizeof bad, kernel, 1);
  std::snprintf(good, sizeof good, kernel, 2);
  Sanitized r("san_shuf_bad", bad), f("san_shuf_ok", good);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(f.error.empty()) << f.error;
  Buffers b;
  for (int i = 0; i < 256; ++i) b.in[i] = float(i);
  EXPECT_EQ(r.run(b.a, 1, 32),
            "divergence 7: SIMD-group function reads an inactive lane: thread (tg 0,0,0 / tid 0 / simd 0 lane 0) "
            "reads lane 1 (thread (tg 0,0,0 / tid 1 / simd 0 lane 1)), which does not take part\n");
  EXPECT_EQ(f.run(b.a, 1, 32), "");
  EXPECT_EQ(b.out[0], 2.0f);
  EXPECT_EQ(b.out[30], 30.0f);  // lane 32 does not exist: its own value
}

TEST(OpenMPSanitize, TileOperationReachedByHalfTheLanes) {
  const char* kernel = R"(
kernel void half_tile(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                      uint lane [[thread_index_in_simdgroup]]) {
  simdgroup_matrix<float, 8, 8> m;
  if (%s) {
    simdgroup_load(m, in, 8);
    simdgroup_store(m, out, 8);
  }
}
)";
  char bad[1024], good[1024];
  std::snprintf(bad, sizeof bad, kernel, "lane < 16");
  std::snprintf(good, sizeof good, kernel, "in[0] >= 0.0f");
  Sanitized r("san_half_tile", bad), f("san_whole_tile", good);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(f.error.empty()) << f.error;
  Buffers b;
  EXPECT_EQ(r.run(b.a, 1, 32),
            "divergence 9: simdgroup_matrix operation not reached by every lane of SIMD group 0: thread (tg 0,0,0 / "
            "tid 0 / simd 0 lane 0) executed 2, thread (tg 0,0,0 / tid 16 / simd 0 lane 16) 0\n");
  EXPECT_EQ(f.run(b.a, 1, 32), "");
}

// ------------------------------------------------------- device buffers --
TEST(OpenMPSanitize, ThreadgroupsWritingTheSameDeviceElementRace) {
  const char* kernel = R"(
kernel void scatter(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                    device float* shared_in [[buffer(2)]],
                    uint tid [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]]) {
  out[%s] = in[g * 64 + tid] + shared_in[tid];
}
)";
  char bad[1024], good[1024];
  std::snprintf(bad, sizeof bad, kernel, "tid");
  std::snprintf(good, sizeof good, kernel, "g * 64 + tid");
  Sanitized r("san_scatter_bad", bad), f("san_scatter_ok", good);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(f.error.empty()) << f.error;
  Buffers b;
  std::vector<float> extra(64, 0.5f);  // read by both threadgroups, written by none: no race
  b.a.buffers[2] = extra.data();
  b.a.buffer_bytes[2] = extra.size() * 4;
  EXPECT_EQ(r.run(b.a, 2, 64),
            "race 7: data race on device buffer 'out[0]': write by thread (tg 1,0,0 / tid 0 / simd 0 lane 0) and "
            "write by thread (tg 0,0,0 / tid 0 / simd 0 lane 0) at line 7 in different threadgroups of one dispatch | "
            "7: the conflicting write by thread (tg 0,0,0 / tid 0 / simd 0 lane 0)\n");
  EXPECT_EQ(f.run(b.a, 2, 64), "");
  EXPECT_EQ(b.out[127], 1.5f);
}

// Within a threadgroup, only threadgroup_barrier(mem_flags::mem_device)
// orders device-memory accesses of different work-items.
TEST(OpenMPSanitize, DeviceMemoryNeedsADeviceBarrierWithinAThreadgroup) {
  const char* kernel = R"(
kernel void neighbour_dev(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                          uint tid [[thread_index_in_threadgroup]]) {
  out[tid] = in[tid];
  threadgroup_barrier(%s);
  out[64 + tid] = out[(tid + 1) %% 64];
}
)";
  char bad[1024], good[1024];
  std::snprintf(bad, sizeof bad, kernel, "mem_flags::mem_threadgroup");
  std::snprintf(good, sizeof good, kernel, "mem_flags::mem_device");
  Sanitized r("san_dev_barrier_bad", bad), f("san_dev_barrier_ok", good);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(f.error.empty()) << f.error;
  Buffers b;
  EXPECT_EQ(r.run(b.a, 1, 64),
            "race 8: data race on device buffer 'out[32]': read by thread (tg 0,0,0 / tid 31 / simd 0 lane 31) and "
            "write by thread (tg 0,0,0 / tid 32 / simd 1 lane 0) at line 6 with no "
            "threadgroup_barrier(mem_flags::mem_device) between them | 6: the conflicting write by thread (tg 0,0,0 / "
            "tid 32 / simd 1 lane 0)\n");
  // (tid 0 reads out[1] of its own SIMD group: any barrier orders one SIMD group's lanes.)
  EXPECT_EQ(f.run(b.a, 1, 64), "");
  EXPECT_EQ(b.out[64], 1.0f);
}

// A field of a struct in a buffer is checked as itself: thread 0 writing
// `out.count` does not race with the others writing `out.vals[tid]`, and it
// does race with a thread reading `out.count`.
TEST(OpenMPSanitize, FieldsOfAStructInABufferAreCheckedOneByOne) {
  const char* kernel = R"(
struct Out { uint count; float vals[63]; };
kernel void fields(device const float* in [[buffer(0)]], device Out& out [[buffer(1)]],
                   uint tid [[thread_index_in_threadgroup]]) {
  if (tid == 0) out.count = 7u;
  if (tid > 0) out.vals[tid - 1] = in[tid]%s;
}
)";
  char bad[1024], good[1024];
  std::snprintf(bad, sizeof bad, kernel, " + float(out.count)");
  std::snprintf(good, sizeof good, kernel, "");
  Sanitized r("san_fields_bad", bad), f("san_fields_ok", good);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(f.error.empty()) << f.error;
  Buffers b;
  EXPECT_EQ(f.run(b.a, 1, 64), "");
  EXPECT_EQ(b.out[5], 1.0f);
  std::string found = r.run(b.a, 1, 64);
  EXPECT_NE(found.find("race 8: data race on device buffer 'out[0]'"), std::string::npos) << found;
}

// Atomic functions are synchronised with each other, within a threadgroup
// and across threadgroups; the same counter updated with a plain += by one
// thread (the atomic counter's plain twin) races with the atomic updates.
TEST(OpenMPSanitize, AtomicsDoNotRaceButAPlainTwinOfOneDoes) {
  const char* kernel = R"(
kernel void count(device const float* in [[buffer(0)]], device atomic_uint* counter [[buffer(1)]],
                  uint tid [[thread_index_in_threadgroup]]) {
  threadgroup atomic_uint local;
  if (tid == 0) atomic_store_explicit(&local, 0u, memory_order_relaxed);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  atomic_fetch_add_explicit(&local, 1u, memory_order_relaxed);
  atomic_fetch_add_explicit(counter, uint(in[tid]), memory_order_relaxed);
  %s
}
)";
  char bad[1024], good[1024];
  std::snprintf(bad, sizeof bad, kernel, "if (tid == 5) ((device uint*)counter)[0] += 1u;");
  std::snprintf(good, sizeof good, kernel, "");
  Sanitized r("san_atomic_bad", bad), f("san_atomic_ok", good);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(f.error.empty()) << f.error;
  Buffers b;
  EXPECT_EQ(f.run(b.a, 3, 64), "");
  EXPECT_EQ(reinterpret_cast<uint32_t*>(b.out.data())[0], 3u * 64u);
  std::string found = r.run(b.a, 3, 64);
  EXPECT_NE(found.find("race 11: data race on device buffer 'counter[0]': write by thread (tg 0,0,0 / tid 5"),
            std::string::npos)
      << found;
  EXPECT_NE(found.find("and atomic "), std::string::npos) << found;
}
