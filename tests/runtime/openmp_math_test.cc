// The Metal math functions of mslport/openmp_rt.h that emitted C++ calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "mslport/openmp_rt.h"

namespace {

// Distance in units in the last place between a float result and the exact
// value (float64 here), measured at the exact value's float neighbourhood.
double ulps(float got, double exact) {
  float e = float(exact);
  float up = std::nextafter(std::fabs(e), std::numeric_limits<float>::infinity());
  double ulp = double(up) - std::fabs(double(e));
  return std::fabs(double(got) - exact) / ulp;
}

TEST(OpenMpMath, ExpIsWithinTwoUlpOverTheWholeFloatRange) {
  double worst = 0;
  float worst_x = 0;
  // Every 997th float of both signs up to |x| = 104 (about four million
  // points), subnormal results included.
  uint32_t top = 0;
  float lim = 104.0f;
  std::memcpy(&top, &lim, 4);
  for (uint32_t bits = 0; bits < top; bits += 997) {
    for (float sign : {1.0f, -1.0f}) {
      float x;
      std::memcpy(&x, &bits, 4);
      x *= sign;
      if (x > 88.72f) continue;  // the result overflows: see ExpEdgeCases
      double u = ulps(mslport::msl::exp(x), std::exp(double(x)));
      if (u > worst) worst = u, worst_x = x;
    }
  }
  EXPECT_LE(worst, 2.0) << "at x = " << worst_x;
}

TEST(OpenMpMath, ExpEdgeCases) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(mslport::msl::exp(0.0f), 1.0f);
  EXPECT_EQ(mslport::msl::exp(-0.0f), 1.0f);
  EXPECT_EQ(mslport::msl::exp(inf), inf);
  EXPECT_EQ(mslport::msl::exp(-inf), 0.0f);
  EXPECT_EQ(mslport::msl::exp(88.73f), inf);  // past FLT_MAX
  EXPECT_EQ(mslport::msl::exp(1000.0f), inf);
  EXPECT_EQ(mslport::msl::exp(-104.0f), 0.0f);
  EXPECT_EQ(mslport::msl::exp(-1000.0f), 0.0f);
  EXPECT_TRUE(std::isnan(mslport::msl::exp(std::numeric_limits<float>::quiet_NaN())));
  // Largest finite result and a subnormal one.
  EXPECT_NEAR(mslport::msl::exp(88.72f) / std::exp(double(88.72f)), 1.0, 2.5e-7);
  EXPECT_NEAR(mslport::msl::exp(-100.0f), std::exp(double(-100.0f)), 1.5e-45);
  // precise::exp is libm's.
  EXPECT_EQ(mslport::msl::precise::exp(1.5f), std::exp(1.5f));
}

TEST(OpenMpMath, ExpOfVectorsIsPerLane) {
  mslport::vec<float, 4> v{0.0f, 1.0f, -2.0f, 10.0f};
  mslport::vec<float, 4> r = mslport::msl::exp(v);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(r[i], mslport::msl::exp(v[i]));
}

}  // namespace

TEST(OpenMpMath, UdivAndUmodAreExact) {
  // Exhaustive near the edges where a double reciprocal is most likely to
  // round across an integer, random elsewhere.
  std::vector<uint32_t> edges;
  for (uint32_t v = 1; v < 300; ++v) edges.push_back(v);
  for (uint32_t v = 0; v < 300; ++v) edges.push_back(0xffffffffu - v);
  for (int s = 1; s < 32; ++s)
    for (int d = -2; d <= 2; ++d) edges.push_back((1u << s) + uint32_t(d));
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&] {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return uint32_t(state >> 11);
  };
  auto check = [](uint32_t a, uint32_t b) {
    ASSERT_EQ(mslport::udiv(a, b), a / b) << a << " / " << b;
    ASSERT_EQ(mslport::umod(a, b), a % b) << a << " % " << b;
    // The prepared divisor (back/openmp/invariant_division.h).
    const auto r = mslport::udiv_prepare(b);
    ASSERT_EQ(mslport::udiv(a, r), a / b) << a << " / prepared " << b;
    ASSERT_EQ(mslport::umod(a, r), a % b) << a << " % prepared " << b;
  };
  for (uint32_t b : edges) {
    if (b == 0) continue;
    for (uint32_t a : edges) check(a, b);
    for (uint32_t k = 1; k < 64; ++k) {  // multiples of b and their neighbours
      uint64_t m = uint64_t(b) * (next() % (uint64_t(0xffffffffu / b) + 1));
      for (int d = -1; d <= 1; ++d)
        if (int64_t(m) + d >= 0 && m + d <= 0xffffffffull) check(uint32_t(m + d), b);
    }
  }
  for (int i = 0; i < 1000000; ++i) {
    uint32_t b = next() >> (next() % 32);
    if (b) check(next(), b);
  }
  // Division by zero is undefined in Metal: no trap, the GPUs' all-ones.
  EXPECT_EQ(mslport::udiv(7, 0), 0xffffffffu);
  EXPECT_EQ(mslport::umod(7, 0), 7u);
  EXPECT_EQ(mslport::udiv(7, mslport::udiv_prepare(0)), 0xffffffffu);
  EXPECT_EQ(mslport::umod(7, mslport::udiv_prepare(0)), 7u);
  // The forms for loops that stay scalar agree, zero divisor included.
  for (uint32_t b : {0u, 1u, 3u, 8u, 0xffffffffu})
    for (uint32_t a : {0u, 7u, 64u, 0xfffffffeu}) {
      EXPECT_EQ(mslport::udiv_scalar(a, b), mslport::udiv(a, b)) << a << " / " << b;
      EXPECT_EQ(mslport::umod_scalar(a, b), mslport::umod(a, b)) << a << " % " << b;
    }
}

TEST(OpenMpMath, StridedTripCountsMatchTheLoopsTheyReplace) {
  // for (v = start; v < n; v += c) with start < bound: strided_trips is the
  // number of iterations of the slowest thread (start 0), full_trips the
  // number every thread (start up to bound - 1) completes. Counted by
  // running the loops, edges of the 32-bit range included.
  auto iterations = [](uint64_t start, uint64_t n, uint64_t c) {
    uint64_t k = 0;
    for (uint64_t v = start; v < n; v += c) ++k;
    return k;
  };
  for (uint32_t n : {0u, 1u, 31u, 32u, 33u, 63u, 64u, 65u, 255u, 256u, 257u, 4096u, 4100u})
    for (uint32_t c : {1u, 7u, 32u, 48u, 256u})
      for (uint32_t bound : {1u, 32u, 48u, 256u}) {
        ASSERT_EQ(mslport::strided_trips(n, c), iterations(0, n, c)) << n << " " << c;
        uint64_t every = ~uint64_t(0);
        for (uint32_t start = 0; start < bound; ++start) every = std::min(every, iterations(start, n, c));
        // full_trips counts iterations it with it * c + bound <= n, which
        // every start < bound completes; when c < bound, starts that share
        // an iteration's range can do more, never fewer.
        uint64_t full = mslport::full_trips(n, bound, c);
        ASSERT_LE(full, every) << n << " " << bound << " " << c;
        if (c >= bound) {
          ASSERT_EQ(full, every) << n << " " << bound << " " << c;
        }
        for (uint64_t it = 0; it < full; ++it) ASSERT_LE(it * c + bound, n);
        ASSERT_GT(full * c + bound, n);
      }
  EXPECT_EQ(mslport::strided_trips(0xffffffffu, 32u), 0x8000000u);
  EXPECT_EQ(mslport::full_trips(0xffffffffu, 32u, 32u), 0x7ffffffu);
  EXPECT_EQ(mslport::full_trips(0xffffffffu, 0xffffffffu, 1u), 1u);
}

TEST(OpenMpMath, PrefetchHintsPastTheEndOfABufferDoNotFault) {
  // mslport::prefetch_ahead asks for lines about 16 KB (at least one
  // stride) past `p`: at the end of a buffer those are past it (a prefetch
  // never faults; the addresses are integers, never dereferenced pointers).
  std::vector<float> small(16, 1.0f);
  mslport::prefetch_ahead(small.data() + 15, 1u << 30, 4096);
  mslport::prefetch_ahead(nullptr, 0xffffffffu, 256);
  mslport::prefetch_ahead(small.data(), 0, 64);  // stride 0: one "iteration" ahead, the same lines
  EXPECT_EQ(small[15], 1.0f);
}

// The shuffle-and-fill examples of MSL 6.9.3 on one quad (data a b c d =
// 1 2 3 4, filling fa fb fc fd = -1 -2 -3 -4), every lane active.
TEST(OpenMpRuntime, QuadShuffleAndFillFollowTheSpecificationsExamples) {
  const float data[4] = {1, 2, 3, 4}, fill[4] = {-1, -2, -3, -4};
  const bool act[4] = {true, true, true, true};
  auto run = [&](bool down, uint32_t delta, uint32_t modulo) {
    const uint32_t d[4] = {delta, delta, delta, delta}, m[4] = {modulo, modulo, modulo, modulo};
    std::vector<float> out(4);
    mslport::group_fill(4u, down, data, fill, d, m, act, 4u, out.data());
    return out;
  };
  EXPECT_EQ(run(false, 2, 0), (std::vector<float>{-3, -4, 1, 2}));  // fc fd a b
  EXPECT_EQ(run(false, 1, 2), (std::vector<float>{-2, 1, -4, 3}));  // fb a fd c
  EXPECT_EQ(run(true, 2, 0), (std::vector<float>{3, 4, -1, -2}));   // c d fa fb
  EXPECT_EQ(run(true, 1, 2), (std::vector<float>{2, -1, 4, -3}));   // b fa d fc
}

// quad_ballot: bit j for lane j of each quad where it is active and true.
TEST(OpenMpRuntime, QuadBallotSetsTheActiveTrueLanesBits) {
  const bool in[8] = {true, false, true, true, false, false, false, true};
  const bool act[8] = {true, true, false, true, false, false, false, false};
  uint32_t out[8];
  mslport::group_ballot(4u, in, act, 8u, out);
  EXPECT_EQ(out[0], 0x9u);  // lanes 0 and 3 (lane 2 is inactive)
  EXPECT_EQ(out[5], 0x0u);  // an inactive quad
}

// Dynamic threadgroup memory: the block size is computed in 64 bits (in 32
// bits, `bytes + 63` wrapped near 2^32 to a 1-line block), and a launch
// that gives no memory for a [[threadgroup(n)]] argument is an error.
TEST(OpenMpRuntime, ThreadgroupMemorySizesDoNotWrap) {
  EXPECT_EQ(mslport::ThreadgroupMemory::lines_for(0), 1u);
  EXPECT_EQ(mslport::ThreadgroupMemory::lines_for(64), 2u);
  EXPECT_EQ(mslport::ThreadgroupMemory::lines_for(4294967295u), 67108865u);
  mslport_args a;
  std::memset(&a, 0, sizeof a);
  a.threadgroup_bytes[2] = 512;
  EXPECT_EQ(mslport::require_threadgroup_memory(&a, 2, "s"), 512u);
  EXPECT_THROW(mslport::require_threadgroup_memory(&a, 0, "s"), std::runtime_error);
}

// Metal's bool vectors: comparisons, logical operators, any/all/select lane
// by lane (select takes b where the mask is true), and conversions (nonzero
// is true, true is 1); a written swizzle changes the lanes it names.
TEST(OpenMpMath, BoolVectorsAreLaneByLane) {
  using mslport::vec;
  const vec<float, 4> a{1.0f, 2.0f, -0.0f, NAN}, b{2.0f, 2.0f, 1.0f, 0.0f};
  const vec<bool, 4> lt = a < b;
  EXPECT_TRUE(lt.x && !lt.y && lt.z && !lt.w);
  const vec<bool, 4> nz = mslport::convert<vec<bool, 4>>(a);
  EXPECT_TRUE(nz.x && nz.y && !nz.z && nz.w);  // -0 is false, NaN true
  const vec<bool, 4> both = lt && !nz, either = lt || nz, same = lt == nz;
  EXPECT_TRUE(!both.x && !both.y && both.z && !both.w);
  EXPECT_TRUE(either.x && either.y && either.z && either.w);
  EXPECT_TRUE(same.x && !same.y && !same.z && !same.w);
  EXPECT_TRUE(mslport::msl::any(lt));
  EXPECT_FALSE(mslport::msl::all(lt));
  EXPECT_TRUE(mslport::msl::all(either));
  const vec<float, 4> s = mslport::msl::select(a, b, lt);
  EXPECT_EQ(s.x, 2.0f);
  EXPECT_EQ(s.y, 2.0f);
  EXPECT_EQ(s.z, 1.0f);
  EXPECT_TRUE(std::isnan(s.w));
  const vec<float, 4> ones = mslport::convert<vec<float, 4>>(lt);
  EXPECT_TRUE(ones.x == 1.0f && ones.y == 0.0f && ones.z == 1.0f && ones.w == 0.0f);
  vec<bool, 4> w = lt;
  mslport::swizzle_lanes<3, 0>(w) = vec<bool, 2>{true, false};
  EXPECT_TRUE(!w.x && !w.y && w.z && w.w);
  vec<int, 3> v{1, 2, 3};
  mslport::swizzle_lanes<2, 0>(v) += vec<int, 2>{10, 20};
  EXPECT_TRUE(v.x == 21 && v.y == 2 && v.z == 13);
}
