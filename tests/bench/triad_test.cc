#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "bench/bench.h"
#include "mslport/kernel_abi.h"
#include "runtime/bench_support.h"
#include "test_support.h"

namespace mslport::bench {
namespace {

// Builds the bench's OpenMP roof module (as `mslport bench` does) and loads
// its entry points.
void load_triad_module(std::map<std::string, mslport_entry_fn>* entries) {
  const std::string src = testing::write_temp_file("mslport_bench_triad.cpp", openmp_triad_source());
  const std::string build = std::filesystem::path(src).parent_path() / "triad-build";
  std::string error;
  ASSERT_TRUE(runtime::load_openmp_entries(src, build, entries, &error)) << error;
}

// Every form of the OpenMP roof computes the triad exactly (integers small
// enough that a + 3b is exact with or without a fused multiply-add),
// including the tail past the last whole vector; a form that wrote nothing
// or the wrong elements would make the roof a lie. The in-place form adds to
// what c held; the others overwrite a poisoned c.
TEST(OpenMpTriad, EveryFormComputesTheTriadIncludingTheTail) {
  std::map<std::string, mslport_entry_fn> entries;
  ASSERT_NO_FATAL_FAILURE(load_triad_module(&entries));
  ASSERT_TRUE(entries.count("mslport_bench_triad"));
  ASSERT_TRUE(entries.count("mslport_bench_triad_256"));
  ASSERT_TRUE(entries.count("mslport_bench_triad_inplace"));
  int forms = 0;
  for (const auto& [method, entry] : openmp_triad_forms()) {
    if (!entries.count(entry)) continue;  // triad-nt: x86 with AVX only
    ++forms;
    const size_t n = 4096 + 5;
    void *pc = nullptr, *px = nullptr, *py = nullptr;
    ASSERT_EQ(posix_memalign(&pc, 64, n * 4), 0);
    ASSERT_EQ(posix_memalign(&px, 64, n * 4), 0);
    ASSERT_EQ(posix_memalign(&py, 64, n * 4), 0);
    float *c = static_cast<float*>(pc), *x = static_cast<float*>(px), *y = static_cast<float*>(py);
    const bool in_place = method == "triad-inplace";
    for (size_t i = 0; i < n; ++i) {
      x[i] = float(i % 97);
      y[i] = float(i % 13) - 6.0f;
      c[i] = in_place ? float(i % 5) : -1e30f;  // poison where c is only written
    }
    float s = 3.0f;
    mslport_args a{};
    a.buffers[0] = c;
    a.buffers[1] = x;
    a.buffers[2] = y;
    a.buffers[3] = &s;
    for (int i = 0; i < 3; ++i) a.buffer_bytes[i] = n * 4;
    a.buffer_bytes[3] = 4;
    mslport_dispatch d{};
    char msg[256] = {0};
    ASSERT_EQ(entries.at(entry)(&a, &d, msg, sizeof msg), 0) << method << ": " << msg;
    for (size_t i = 0; i < n; ++i)
      ASSERT_EQ(c[i], (in_place ? float(i % 5) : x[i]) + 3.0f * y[i]) << method << " at " << i;
    std::free(pc);
    std::free(px);
    std::free(py);
  }
  EXPECT_GE(forms, 3);
}

// The read-only loop reads every element of a and b (its sum, stored in
// c[0], is exact for these small integers), the tail included.
TEST(OpenMpTriad, TheReadOnlyLoopReadsEveryElement) {
  std::map<std::string, mslport_entry_fn> entries;
  ASSERT_NO_FATAL_FAILURE(load_triad_module(&entries));
  ASSERT_TRUE(entries.count("mslport_bench_read"));
  const size_t n = 4096 + 5;
  std::vector<float> c(n, -1e30f), x(n), y(n);
  double want = 0;
  for (size_t i = 0; i < n; ++i) {
    x[i] = float(i % 97);
    y[i] = float(i % 13) - 6.0f;
    want += double(x[i]) + double(y[i]);
  }
  float s = 3.0f;
  mslport_args a{};
  a.buffers[0] = c.data();
  a.buffers[1] = x.data();
  a.buffers[2] = y.data();
  a.buffers[3] = &s;
  for (int i = 0; i < 3; ++i) a.buffer_bytes[i] = n * 4;
  a.buffer_bytes[3] = 4;
  mslport_dispatch d{};
  char msg[256] = {0};
  ASSERT_EQ(entries.at("mslport_bench_read")(&a, &d, msg, sizeof msg), 0) << msg;
  EXPECT_EQ(double(c[0]), want);
}

}  // namespace
}  // namespace mslport::bench
