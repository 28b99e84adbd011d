// Translates small Metal kernels to OpenCL C, builds them on the OpenCL
// platform here (PoCL: OpenCL C 1.2, no sub-groups, no fp16) and runs them as
// the .bindings.json says: emulated SIMD-group functions under divergence and
// early returns, partial SIMD groups, dispatchThreads edge groups, barriers,
// bfloat / half storage.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "back/opencl/emit_opencl.h"
#include "front/parse_metal.h"
#include "verify_each.h"

using namespace mslport;

namespace {

const char* kMetalPrelude = "#include <metal_stdlib>\nusing namespace metal;\n";

struct Emitted {
  std::string cl, bindings, error;
};

Emitted emit(const std::string& metal) {
  Emitted out;
  DiagEngine diags;
  auto m = front::parse_metal_source("test.metal", std::string(kMetalPrelude) + metal, diags);
  back::opencl::EmitResult r;
  back::opencl::EmitOptions o;
  o.pipeline = mslport::testing::verify_each_step();
  o.tool_version = "test";
  if (m && back::opencl::emit_module(*m, o, diags, &r)) {
    out.cl = r.cl_source;
    out.bindings = r.bindings_json;
  }
  for (auto& d : diags.diagnostics()) out.error += DiagEngine::render(d);
  if (out.cl.empty() && out.error.empty()) out.error = "no output";
  return out;
}

using Bytes = std::vector<uint8_t>;
template <class T>
Bytes bytes_of(const std::vector<T>& v) {
  Bytes b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}
template <class T>
std::vector<T> values_of(const Bytes& b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

struct Launch {
  std::array<size_t, 3> grid{1, 1, 1};  // Metal grid in threads
  std::array<size_t, 3> tg{1, 1, 1};    // threads per threadgroup
  std::map<int, Bytes> buffers;         // by Metal buffer index; read back after the run
  std::map<int, size_t> tg_bytes;       // dynamic threadgroup memory by index
};

class OpenCl {
 public:
  OpenCl() {
    cl_platform_id p;
    cl_uint n = 0;
    if (clGetPlatformIDs(1, &p, &n) != CL_SUCCESS || n == 0) return;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev_, nullptr) != CL_SUCCESS) return;
    cl_int err;
    ctx_ = clCreateContext(nullptr, 1, &dev_, nullptr, nullptr, &err);
    queue_ = clCreateCommandQueue(ctx_, dev_, 0, &err);
  }
  bool ok() const { return queue_ != nullptr; }

  // Builds `cl`, runs `kernel` with the arguments `bindings` describes.
  // Returns "" or what went wrong.
  std::string run(const Emitted& e, const std::string& kernel, Launch& l) {
    const char* src = e.cl.c_str();
    cl_int err;
    cl_program prog = clCreateProgramWithSource(ctx_, 1, &src, nullptr, &err);
    if (clBuildProgram(prog, 1, &dev_, "-cl-std=CL1.2", nullptr, nullptr) != CL_SUCCESS) {
      std::string log(1 << 16, '\0');
      clGetProgramBuildInfo(prog, dev_, CL_PROGRAM_BUILD_LOG, log.size(), log.data(), nullptr);
      clReleaseProgram(prog);
      return "build failed:\n" + std::string(log.c_str()) + "\n" + e.cl;
    }
    cl_kernel k = clCreateKernel(prog, kernel.c_str(), &err);
    if (err != CL_SUCCESS) return "no kernel " + kernel;
    std::map<int, cl_mem> mems;
    for (auto& [index, data] : l.buffers)
      mems[index] = clCreateBuffer(ctx_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size(), data.data(), &err);
    std::string problem;
    nlohmann::json doc = nlohmann::json::parse(e.bindings);
    size_t tg_total = l.tg[0] * l.tg[1] * l.tg[2];
    for (auto& kj : doc["kernels"]) {
      if (kj["name"] != kernel) continue;
      cl_uint ai = 0;
      for (auto& a : kj["args"]) {
        std::string kind = a["kind"];
        if (kind == "buffer") err = clSetKernelArg(k, ai, sizeof(cl_mem), &mems.at(a["index"].get<int>()));
        else if (kind == "threadgroup_memory")
          err = clSetKernelArg(k, ai, l.tg_bytes.at(a["index"].get<int>()), nullptr);
        else if (kind == "simd_scratch")
          err = clSetKernelArg(k, ai, a["bytes_per_thread"].get<size_t>() * tg_total, nullptr);
        else if (kind == "grid") {
          cl_uint4 g{};
          for (int d = 0; d < 3; ++d) g.s[d] = (cl_uint)l.grid[d];
          err = clSetKernelArg(k, ai, sizeof g, &g);
        }
        if (err != CL_SUCCESS) problem = "clSetKernelArg " + std::to_string(ai) + " (" + kind + ") failed";
        ++ai;
      }
    }
    std::array<size_t, 3> global;
    for (int d = 0; d < 3; ++d) global[d] = (l.grid[d] + l.tg[d] - 1) / l.tg[d] * l.tg[d];
    if (problem.empty() &&
        clEnqueueNDRangeKernel(queue_, k, 3, nullptr, global.data(), l.tg.data(), 0, nullptr, nullptr) != CL_SUCCESS)
      problem = "clEnqueueNDRangeKernel failed";
    for (auto& [index, data] : l.buffers) {
      clEnqueueReadBuffer(queue_, mems[index], CL_TRUE, 0, data.size(), data.data(), 0, nullptr, nullptr);
      clReleaseMemObject(mems[index]);
    }
    clReleaseKernel(k);
    clReleaseProgram(prog);
    return problem;
  }

 private:
  cl_device_id dev_ = nullptr;
  cl_context ctx_ = nullptr;
  cl_command_queue queue_ = nullptr;
};

OpenCl& opencl() {
  static OpenCl cl;
  return cl;
}

#define REQUIRE_OPENCL() ASSERT_TRUE(opencl().ok()) << "no OpenCL platform (PoCL is a dependency)"

std::vector<float> iota_f(size_t n, float start = 1) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = start + (float)i;
  return v;
}

TEST(OpenClRun, SimdSumInDivergentIfSumsOnlyActiveLanes) {
  REQUIRE_OPENCL();
  Emitted e = emit(R"(
kernel void k(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
              constant uint& n [[buffer(2)]],
              uint tid [[thread_position_in_grid]], uint lane [[thread_index_in_simdgroup]]) {
  float s = -1.0f;
  if (lane < n) { s = simd_sum(in[tid]); }
  out[tid] = s;
})");
  ASSERT_TRUE(e.error.empty()) << e.error;
  Launch l;
  l.grid = {64, 1, 1};
  l.tg = {64, 1, 1};
  l.buffers[0] = bytes_of(iota_f(64));
  l.buffers[1] = bytes_of(std::vector<float>(64, 0.0f));
  l.buffers[2] = bytes_of(std::vector<uint32_t>{5});
  ASSERT_EQ(opencl().run(e, "k", l), "");
  auto out = values_of<float>(l.buffers[1]);
  for (int t = 0; t < 64; ++t) {
    int base = t / 32 * 32;
    float expect = (t % 32) < 5 ? 5.0f * (base + 1) + 10.0f : -1.0f;  // (base+1) + ... + (base+5)
    EXPECT_EQ(out[t], expect) << "thread " << t;
  }
}

TEST(OpenClRun, EarlyReturnedThreadsAreLeftOutOfSimdSum) {
  REQUIRE_OPENCL();
  Emitted e = emit(R"(
kernel void k(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
              uint tid [[thread_position_in_grid]]) {
  if (tid % 3 == 0) return;
  out[tid] = simd_sum(in[tid]);
})");
  ASSERT_TRUE(e.error.empty()) << e.error;
  Launch l;
  l.grid = {64, 1, 1};
  l.tg = {64, 1, 1};
  l.buffers[0] = bytes_of(iota_f(64));
  l.buffers[1] = bytes_of(std::vector<float>(64, -7.0f));
  ASSERT_EQ(opencl().run(e, "k", l), "");
  auto out = values_of<float>(l.buffers[1]);
  for (int t = 0; t < 64; ++t) {
    float expect = 0;
    for (int j = t / 32 * 32; j < t / 32 * 32 + 32; ++j)
      if (j % 3 != 0) expect += (float)(j + 1);
    EXPECT_EQ(out[t], t % 3 == 0 ? -7.0f : expect) << "thread " << t;
  }
}

TEST(OpenClRun, SimdFunctionsOverIntegers) {
  REQUIRE_OPENCL();
  Emitted e = emit(R"(
kernel void k(device const int* in [[buffer(0)]], device int* out [[buffer(1)]], uint tid [[thread_position_in_grid]]) {
  int v = in[tid];
  out[tid * 7 + 0] = simd_max(v);
  out[tid * 7 + 1] = simd_prefix_exclusive_sum(v);
  out[tid * 7 + 2] = simd_shuffle_down(v, 1);
  out[tid * 7 + 3] = simd_broadcast(v, 3);
  out[tid * 7 + 4] = simd_prefix_inclusive_sum(v);
  out[tid * 7 + 5] = simd_any(v > 40) + 2 * simd_all(v > 0);
  out[tid * 7 + 6] = simd_min(v);
})");
  ASSERT_TRUE(e.error.empty()) << e.error;
  const int n = 48;  // a full SIMD group and a partial one (16 lanes)
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 50 + 1;
  Launch l;
  l.grid = {n, 1, 1};
  l.tg = {n, 1, 1};
  l.buffers[0] = bytes_of(in);
  l.buffers[1] = bytes_of(std::vector<int>(n * 7, 0));
  ASSERT_EQ(opencl().run(e, "k", l), "");
  auto out = values_of<int>(l.buffers[1]);
  for (int t = 0; t < n; ++t) {
    int base = t / 32 * 32, end = std::min(base + 32, n), lane = t - base;
    int mx = 0, mn = 1 << 30, excl = 0, any = 0, all = 1;
    for (int j = base; j < end; ++j) {
      mx = std::max(mx, in[j]);
      mn = std::min(mn, in[j]);
      if (j < t) excl += in[j];
      any |= in[j] > 40;
      all &= in[j] > 0;
    }
    EXPECT_EQ(out[t * 7 + 0], mx) << t;
    EXPECT_EQ(out[t * 7 + 1], excl) << t;
    EXPECT_EQ(out[t * 7 + 2], lane + 1 < 32 && t + 1 < end ? in[t + 1] : in[t]) << t;
    EXPECT_EQ(out[t * 7 + 3], in[base + 3]) << t;
    EXPECT_EQ(out[t * 7 + 4], excl + in[t]) << t;
    EXPECT_EQ(out[t * 7 + 5], any + 2 * all) << t;
    EXPECT_EQ(out[t * 7 + 6], mn) << t;
  }
}

// The prepared-reciprocal division (raise/invariant_division.cc) is exact for
// every numerator, at the divisors where the method's shifts change: 1, powers
// of two, just above them, and the largest ones. Division by zero, undefined
// in Metal, gives 0xffffffff and the remainder the numerator, as on GPUs.
TEST(OpenClRun, LoopInvariantDivisionIsExact) {
  REQUIRE_OPENCL();
  Emitted e = emit(R"(
kernel void k(device const uint* num [[buffer(0)]], constant uint& d [[buffer(1)]],
              device uint* q [[buffer(2)]], device uint* r [[buffer(3)]], constant uint& count [[buffer(4)]],
              uint tid [[thread_position_in_grid]]) {
  for (uint i = tid; i < count; i += 64) {
    q[i] = num[i] / d;
    r[i] = num[i] % d;
  }
})");
  ASSERT_TRUE(e.error.empty()) << e.error;
  ASSERT_NE(e.cl.find("mslport_udiv(num[i], mslport_div_d)"), std::string::npos) << e.cl;
  std::vector<uint32_t> num;
  uint64_t s = 12345;
  for (int i = 0; i < 448; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    num.push_back(static_cast<uint32_t>(s >> 32) >> (i % 32));
  }
  for (uint32_t d : {0u, 1u, 2u, 3u, 7u, 8u, 9u, 641u, 65535u, 65536u, 65537u, 0x7fffffffu, 0x80000000u, 0x80000001u,
                     0xfffffffeu, 0xffffffffu}) {
    std::vector<uint32_t> n = num;
    for (uint32_t x : {0u, 1u, d - 1u, d, d + 1u, 2u * d, 2u * d - 1u, 0xfffffffeu, 0xffffffffu}) n.push_back(x);
    const uint32_t count = static_cast<uint32_t>(n.size());
    Launch l;
    l.grid = {64, 1, 1};
    l.tg = {64, 1, 1};
    l.buffers[0] = bytes_of(n);
    l.buffers[1] = bytes_of(std::vector<uint32_t>{d});
    l.buffers[2] = bytes_of(std::vector<uint32_t>(count, 0xdeadbeefu));
    l.buffers[3] = bytes_of(std::vector<uint32_t>(count, 0xdeadbeefu));
    l.buffers[4] = bytes_of(std::vector<uint32_t>{count});
    ASSERT_EQ(opencl().run(e, "k", l), "");
    auto q = values_of<uint32_t>(l.buffers[2]);
    auto r = values_of<uint32_t>(l.buffers[3]);
    for (uint32_t i = 0; i < count; ++i) {
      EXPECT_EQ(q[i], d == 0 ? 0xffffffffu : n[i] / d) << n[i] << " / " << d;
      EXPECT_EQ(r[i], d == 0 ? n[i] : n[i] % d) << n[i] << " % " << d;
    }
  }
}

TEST(OpenClRun, DispatchThreadsEdgeGroupsAreClipped) {
  REQUIRE_OPENCL();
  Emitted e = emit(R"(
kernel void k(device uint* out [[buffer(0)]],
              uint2 gid [[thread_position_in_grid]], uint2 tptg [[threads_per_threadgroup]],
              uint tiitg [[thread_index_in_threadgroup]], uint2 grid [[threads_per_grid]]) {
  out[gid.y * grid.x + gid.x] = tptg.x * 1000000u + tptg.y * 10000u + tiitg * 10u + simd_sum(1u) % 10u;
})");
  ASSERT_TRUE(e.error.empty()) << e.error;
  Launch l;
  l.grid = {10, 3, 1};
  l.tg = {4, 2, 1};
  l.buffers[0] = bytes_of(std::vector<uint32_t>(64, 7));  // 30 written, the rest must stay 7
  ASSERT_EQ(opencl().run(e, "k", l), "");
  auto out = values_of<uint32_t>(l.buffers[0]);
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < 10; ++x) {
      uint32_t w = std::min(4u, 10 - x / 4 * 4), h = std::min(2u, 3 - y / 2 * 2);
      uint32_t index = (x % 4) + (y % 2) * w;
      EXPECT_EQ(out[y * 10 + x], w * 1000000 + h * 10000 + index * 10 + (w * h) % 10) << x << "," << y;
    }
  for (int i = 30; i < 64; ++i) EXPECT_EQ(out[i], 7u) << "written beyond the grid at " << i;
}

TEST(OpenClRun, PartialSimdGroupsOfADispatchThreadsGrid) {
  REQUIRE_OPENCL();
  Emitted e = emit(R"(
kernel void k(device uint* out [[buffer(0)]], uint tid [[thread_position_in_grid]]) {
  out[tid] = simd_sum(1u);
})");
  ASSERT_TRUE(e.error.empty()) << e.error;
  Launch l;
  l.grid = {70, 1, 1};
  l.tg = {40, 1, 1};  // groups of 32 + 8 threads, then a clipped group of 30
  l.buffers[0] = bytes_of(std::vector<uint32_t>(80, 0));
  ASSERT_EQ(opencl().run(e, "k", l), "");
  auto out = values_of<uint32_t>(l.buffers[0]);
  for (int t = 0; t < 80; ++t) {
    uint32_t expect = t >= 70 ? 0 : t >= 40 ? 30 : t >= 32 ? 8 : 32;
    EXPECT_EQ(out[t], expect) << t;
  }
}

TEST(OpenClRun, BarrierInsideUniformLoop) {
  REQUIRE_OPENCL();
  Emitted e = emit(R"(
kernel void k(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
              threadgroup float* sh [[threadgroup(0)]],
              uint tid [[thread_index_in_threadgroup]], uint tg [[threadgroup_position_in_grid]],
              uint n [[threads_per_threadgroup]]) {
  sh[tid] = in[tg * n + tid];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  for (uint s = n / 2; s > 0; s >>= 1) {
    if (tid < s) sh[tid] += sh[tid + s];
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  if (tid == 0) out[tg] = sh[0];
})");
  ASSERT_TRUE(e.error.empty()) << e.error;
  Launch l;
  l.grid = {128, 1, 1};
  l.tg = {64, 1, 1};
  l.buffers[0] = bytes_of(iota_f(128));
  l.buffers[1] = bytes_of(std::vector<float>(2, 0.0f));
  l.tg_bytes[0] = 64 * sizeof(float);
  ASSERT_EQ(opencl().run(e, "k", l), "");
  auto out = values_of<float>(l.buffers[1]);
  EXPECT_EQ(out[0], 64.0f * 65.0f / 2.0f);
  EXPECT_EQ(out[1], (128.0f * 129.0f - 64.0f * 65.0f) / 2.0f);
}

TEST(OpenClRun, StaticThreadgroupArraysAndSimdgroupLeaders) {
  REQUIRE_OPENCL();
  // The corpus's cross-SIMD-group reduction (moe_post_ops.metal).
  Emitted e = emit(R"(
kernel void k(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
              uint tid [[thread_index_in_threadgroup]], uint lane [[thread_index_in_simdgroup]],
              uint sg [[simdgroup_index_in_threadgroup]]) {
  threadgroup float part[4];
  float s = simd_sum(in[tid]);
  if (lane == 0) part[sg] = s;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  if (tid == 0) out[0] = part[0] + part[1] + part[2] + part[3];
})");
  ASSERT_TRUE(e.error.empty()) << e.error;
  Launch l;
  l.grid = {128, 1, 1};
  l.tg = {128, 1, 1};
  l.buffers[0] = bytes_of(iota_f(128));
  l.buffers[1] = bytes_of(std::vector<float>(1, 0.0f));
  ASSERT_EQ(opencl().run(e, "k", l), "");
  EXPECT_EQ(values_of<float>(l.buffers[1])[0], 128.0f * 129.0f / 2.0f);
}

// The shapes below once made PoCL 3.1 compute wrong values or crash (see
// raise/early_returns.cc, raise/sync_loops.cc, raise/zero_init_locals.cc).
TEST(OpenClRun, WholeThreadgroupsPastTheEndReturnBeforeCollectives) {
  REQUIRE_OPENCL();
  Emitted e = emit(R"(
kernel void k(device const float* x [[buffer(0)]], device float* out [[buffer(1)]], constant uint& rows [[buffer(2)]],
              uint row [[threadgroup_position_in_grid]], uint lid [[thread_position_in_threadgroup]],
              uint tg [[threads_per_threadgroup]]) {
  if (row >= rows) return;
  float acc = 0.0f;
  for (uint i = lid; i < 40; i += tg) acc += x[row * 40 + i];
  threadgroup float part[8];
  float s = simd_sum(acc);
  uint lane = lid % 32, sg = lid / 32, nsg = (tg + 31) / 32;
  if (lane == 0) part[sg] = s;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  if (sg == 0 && lane < nsg) {
    float v = part[lane];
    v = simd_sum(v);
    if (lane == 0) out[row] = v;
  }
})");
  ASSERT_TRUE(e.error.empty()) << e.error;
  EXPECT_EQ(e.cl.find("return;"), std::string::npos) << e.cl;
  Launch l;
  l.grid = {5 * 128, 1, 1};  // 5 threadgroups for 3 rows
  l.tg = {128, 1, 1};
  l.buffers[0] = bytes_of(iota_f(3 * 40));
  l.buffers[1] = bytes_of(std::vector<float>(8, -7.0f));
  l.buffers[2] = bytes_of(std::vector<uint32_t>{3});
  ASSERT_EQ(opencl().run(e, "k", l), "");
  auto out = values_of<float>(l.buffers[1]);
  for (int r = 0; r < 3; ++r) EXPECT_EQ(out[r], 40.0f * (40.0f * r + 1) + 780.0f) << r;  // sum of 40 consecutive
  for (int r = 3; r < 8; ++r) EXPECT_EQ(out[r], -7.0f) << r;
}

TEST(OpenClRun, CollectiveInALoopWhoseTripCountDiffersBetweenSimdGroups) {
  REQUIRE_OPENCL();
  Emitted e = emit(R"(
kernel void k(device const float* w [[buffer(0)]], device float* out [[buffer(1)]], constant uint& n [[buffer(2)]],
              uint lane [[thread_index_in_simdgroup]], uint sg [[simdgroup_index_in_threadgroup]],
              uint tg [[threads_per_threadgroup]]) {
  uint nsg = tg / 32;
  for (uint e = sg; e < n; e += nsg) {
    float dot = 0.0f;
    for (uint d = lane; d < 64; d += 32) dot += w[e * 64 + d];
    dot = simd_sum(dot);
    if (lane == 0) out[e] = dot;
  }
})");
  ASSERT_TRUE(e.error.empty()) << e.error;
  // The vote that keeps the SIMD groups in step is taken outside the loop header.
  EXPECT_NE(e.cl.find("for (bool mslport_go = mslport_threadgroup_any("), std::string::npos) << e.cl;
  Launch l;
  l.grid = {64, 1, 1};
  l.tg = {64, 1, 1};  // SIMD group 0 takes rows 0, 2, 4, 6; group 1 rows 1, 3, 5
  l.buffers[0] = bytes_of(iota_f(7 * 64, 0));
  l.buffers[1] = bytes_of(std::vector<float>(8, -7.0f));
  l.buffers[2] = bytes_of(std::vector<uint32_t>{7});
  ASSERT_EQ(opencl().run(e, "k", l), "");
  auto out = values_of<float>(l.buffers[1]);
  for (int r = 0; r < 7; ++r) EXPECT_EQ(out[r], 64.0f * 64.0f * r + 2016.0f) << r;
  EXPECT_EQ(out[7], -7.0f);
}

TEST(OpenClRun, VectorSubscripts) {
  REQUIRE_OPENCL();
  Emitted e = emit(R"(
kernel void k(device const uint4* in [[buffer(0)]], device uint* out [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  uint4 p = in[i];
  uint s = 0;
  for (uint w = 0; w < 4; w++) s += p[w] << w;
  p[1] = 7;
  out[i] = s + p[2] * 100 + p[1] * 1000;
})");
  ASSERT_TRUE(e.error.empty()) << e.error;
  EXPECT_NE(e.cl.find("p.y = 7u;"), std::string::npos) << e.cl;
  Launch l;
  l.buffers[0] = bytes_of(std::vector<uint32_t>{1, 2, 3, 4});
  l.buffers[1] = bytes_of(std::vector<uint32_t>{0});
  ASSERT_EQ(opencl().run(e, "k", l), "");
  EXPECT_EQ(values_of<uint32_t>(l.buffers[1])[0], 1u + 4u + 12u + 32u + 300u + 7000u);
}

// bfloat: the top 16 bits of a float, rounded to nearest even.
uint16_t to_bf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
float from_bf16(uint16_t b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

TEST(OpenClRun, BfloatIsStoredAsBitsAndRoundedToNearestEven) {
  REQUIRE_OPENCL();
  Emitted e = emit(R"(
kernel void k(device const bfloat* a [[buffer(0)]], device bfloat* out [[buffer(1)]],
              device float* wide [[buffer(2)]], uint i [[thread_position_in_grid]]) {
  bfloat x = a[i] * a[i];
  out[i] = x + bfloat(1.0f);
  wide[i] = float(a[i]) * 3.0f;
})");
  ASSERT_TRUE(e.error.empty()) << e.error;
  ASSERT_NE(e.cl.find("__global const ushort* a"), std::string::npos) << e.cl;
  const int n = 32;
  std::vector<uint16_t> a(n);
  for (int i = 0; i < n; ++i) a[i] = to_bf16(1.0f + 0.0371f * (float)i);
  Launch l;
  l.grid = {n, 1, 1};
  l.tg = {n, 1, 1};
  l.buffers[0] = bytes_of(a);
  l.buffers[1] = bytes_of(std::vector<uint16_t>(n, 0));
  l.buffers[2] = bytes_of(std::vector<float>(n, 0.0f));
  ASSERT_EQ(opencl().run(e, "k", l), "");
  auto out = values_of<uint16_t>(l.buffers[1]);
  auto wide = values_of<float>(l.buffers[2]);
  for (int i = 0; i < n; ++i) {
    float av = from_bf16(a[i]);
    float x = from_bf16(to_bf16(av * av));
    EXPECT_EQ(out[i], to_bf16(x + 1.0f)) << i;
    EXPECT_EQ(wide[i], av * 3.0f) << i;
  }
}

TEST(OpenClRun, HalfIsStoredAsBitsWithoutFp16) {
  REQUIRE_OPENCL();
  Emitted e = emit(R"(
kernel void k(device const half* a [[buffer(0)]], device half* out [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  out[i] = a[i] + half(0.5f);
})");
  ASSERT_TRUE(e.error.empty()) << e.error;
  // 1, 2, 1025, 1024, 65504 (max); + 0.5 rounds to nearest even in half
  // (ulp 1 in [1024, 2048): 1025.5 -> 1026, 1024.5 -> 1024).
  std::vector<uint16_t> a = {0x3c00, 0x4000, 0x6401, 0x6400, 0x7bff};
  std::vector<uint16_t> expect = {0x3e00, 0x4100, 0x6402, 0x6400, 0x7bff};
  Launch l;
  l.grid = {5, 1, 1};
  l.tg = {5, 1, 1};
  l.buffers[0] = bytes_of(a);
  l.buffers[1] = bytes_of(std::vector<uint16_t>(5, 0));
  ASSERT_EQ(opencl().run(e, "k", l), "");
  EXPECT_EQ(values_of<uint16_t>(l.buffers[1]), expect);
}

TEST(OpenClRun, ConstantStructsAndMathBuiltins) {
  REQUIRE_OPENCL();
  Emitted e = emit(R"(
struct Params { int n; float scale; float3 bias; };
kernel void k(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
              constant Params& p [[buffer(2)]], uint i [[thread_position_in_grid]]) {
  if (int(i) >= p.n) return;
  float v = x[i] * p.scale + p.bias.y;
  out[i] = max(v, 0.0f) + precise::exp(0.0f) + rsqrt(4.0f) + fma(v, 2.0f, 1.0f) + float(min(int(i), 2))
           + select(10.0f, 20.0f, v > 1.0f) + (isinf(-INFINITY) ? 100.0f : 0.0f);
})");
  ASSERT_TRUE(e.error.empty()) << e.error;
  struct Params {
    int n;
    float scale;
    float pad[2];
    float bias[4];
  } p{3, 2.0f, {0, 0}, {0, 0.25f, 0, 0}};
  static_assert(sizeof(Params) == 32, "Metal layout: float3 at offset 16");
  Launch l;
  l.grid = {4, 1, 1};
  l.tg = {4, 1, 1};
  l.buffers[0] = bytes_of(std::vector<float>{-1.0f, 0.5f, 2.0f, 9.0f});
  l.buffers[1] = bytes_of(std::vector<float>(4, -1.0f));
  l.buffers[2] = bytes_of(std::vector<Params>{p});
  ASSERT_EQ(opencl().run(e, "k", l), "");
  auto out = values_of<float>(l.buffers[1]);
  std::vector<float> x = {-1.0f, 0.5f, 2.0f};
  for (int i = 0; i < 3; ++i) {
    float v = x[i] * 2.0f + 0.25f;
    float expect = std::max(v, 0.0f) + 1.0f + 0.5f + std::fma(v, 2.0f, 1.0f) + (float)std::min(i, 2) +
                   (v > 1.0f ? 20.0f : 10.0f) + 100.0f;
    EXPECT_FLOAT_EQ(out[i], expect) << i;
  }
  EXPECT_EQ(out[3], -1.0f);
}

}  // namespace

TEST(OpenClRun, SimdStridedLoopsUnrolledWithTheirWordsLoadedFirst) {
  // raise/prefetch_strided_loads.cc: a SIMD-strided loop whose body starts
  // with `uint w = p[U + v];` and stores nothing runs four iterations per
  // trip with the four words loaded first, each later one only when its
  // iteration runs. Row lengths around multiples of 4 * 32, partial last
  // trips included; the sum is the source's order per lane (exact here).
  REQUIRE_OPENCL();
  Emitted e = emit(R"(
kernel void rows(device const uint* w [[buffer(0)]], device uint* out [[buffer(1)]],
                 constant uint& n [[buffer(2)]], uint lane [[thread_index_in_simdgroup]],
                 uint row [[threadgroup_position_in_grid]]) {
  device const uint* w_row = w + row * n;
  uint acc = 0;
  for (uint c = lane; c < n; c += 32) {
    uint word = w_row[c];
    acc = acc * 3u + (word ^ c);
  }
  out[row * 32 + lane] = acc;
})");
  ASSERT_TRUE(e.error.empty()) << e.error;
  ASSERT_NE(e.cl.find("for (uint c = lane; c < *n; c += 4u * 32u) {"), std::string::npos) << e.cl;
  ASSERT_NE(e.cl.find("const uint word_w3 = (c + 3u * 32u < *n) ? w_row[c + 3u * 32u] : 0u;"), std::string::npos)
      << e.cl;
  ASSERT_NE(e.cl.find("mslport_prefetch_l2(&w_row[c + 4u * 32u]);"), std::string::npos) << e.cl;
  // Not when the body stores (the loads would move past the stores) or the
  // word is read under a condition (it may not be one the source reads).
  for (const char* body : {"uint word = w_row[c]; out[c] = word;", "uint word = c > 5 ? w_row[c] : 0u; acc += word;"}) {
    Emitted kept = emit(std::string(R"(
kernel void k(device const uint* w [[buffer(0)]], device uint* out [[buffer(1)]], constant uint& n [[buffer(2)]],
              uint lane [[thread_index_in_simdgroup]]) {
  device const uint* w_row = w + n;
  uint acc = 0;
  for (uint c = lane; c < n; c += 32) { )") +
                        body + R"( }
  out[lane] += acc;
})");
    ASSERT_TRUE(kept.error.empty()) << kept.error;
    EXPECT_NE(kept.cl.find("c += 32u) {"), std::string::npos) << kept.cl;
    EXPECT_EQ(kept.cl.find("_w3"), std::string::npos) << kept.cl;
  }
  for (uint32_t n : {1u, 31u, 32u, 100u, 127u, 128u, 129u, 200u, 257u, 384u}) {
    const uint32_t rows = 3;
    std::vector<uint32_t> w(size_t{rows} * n);
    for (size_t i = 0; i < w.size(); ++i) w[i] = uint32_t(i * 2654435761u);
    Launch l;
    l.grid = {32 * rows, 1, 1};
    l.tg = {32, 1, 1};
    l.buffers[0] = bytes_of(w);
    l.buffers[1] = bytes_of(std::vector<uint32_t>(32 * rows, 0xdeadbeefu));
    l.buffers[2] = bytes_of(std::vector<uint32_t>{n});
    ASSERT_EQ(opencl().run(e, "rows", l), "");
    auto out = values_of<uint32_t>(l.buffers[1]);
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t lane = 0; lane < 32; ++lane) {
        uint32_t acc = 0;
        for (uint32_t c = lane; c < n; c += 32) acc = acc * 3u + (w[size_t{r} * n + c] ^ c);
        EXPECT_EQ(out[r * 32 + lane], acc) << "n " << n << " row " << r << " lane " << lane;
      }
  }
}
