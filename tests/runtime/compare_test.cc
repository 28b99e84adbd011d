#include "runtime/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace mslport::runtime {
namespace {

template <typename T>
CompareResult cmp(const std::vector<T>& expected, const std::vector<T>& got, double atol = 0, double rtol = 0,
                  const std::string& as = "", std::vector<size_t> shape = {}) {
  NpyArray e = make_npy(expected, shape);
  NpyArray g = make_npy(got, shape);
  return compare_output(e, g.data.data(), g.nbytes(), atol, rtol, as, "out");
}

TEST(Compare, IntegersCompareExactly) {
  EXPECT_TRUE(cmp<int32_t>({1, -2, 3}, {1, -2, 3}).pass);
  // Tolerances do not apply to integers.
  CompareResult r = cmp<int32_t>({1, -2, 3}, {1, -2, 4}, 10, 10);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.mismatches, 1u);
  EXPECT_EQ(r.max_abs_err, 1);
  EXPECT_DOUBLE_EQ(r.max_rel_err, 1.0 / 3);
  EXPECT_NE(r.message.find("out[2]: got 4, expected 3"), std::string::npos) << r.message;

  EXPECT_FALSE(cmp<uint8_t>({255}, {254}).pass);
  EXPECT_TRUE(cmp<uint64_t>({~0ull}, {~0ull}).pass);
  EXPECT_FALSE(cmp<int64_t>({1ll << 60}, {(1ll << 60) + 1}).pass);
  EXPECT_FALSE(cmp<bool>({true}, {false}).pass);
}

TEST(Compare, FloatsUseAtolPlusRtolTimesExpected) {
  // bound = atol + rtol*|exp| = 0.1 + 0.01*100 = 1.1
  EXPECT_TRUE(cmp<double>({100.0}, {101.0}, 0.1, 0.01).pass);
  EXPECT_FALSE(cmp<double>({100.0}, {101.2}, 0.1, 0.01).pass);
  EXPECT_TRUE(cmp<double>({-100.0}, {-98.95}, 0.1, 0.01).pass);
  // Zero tolerance: exact, but -0 == 0.
  EXPECT_TRUE(cmp<float>({0.0f}, {-0.0f}).pass);
  EXPECT_FALSE(cmp<float>({1.0f}, {std::nextafter(1.0f, 2.0f)}).pass);

  CompareResult r = cmp<float>({2.0f, 4.0f, 0.0f}, {2.5f, 4.0f, 1e-3f}, 1.0, 0.0);
  EXPECT_TRUE(r.pass);
  EXPECT_DOUBLE_EQ(r.max_abs_err, 0.5);
  // max |got-exp| / max(|exp|, 1e-30): the 0.0 expectation dominates.
  EXPECT_NEAR(r.max_rel_err, 1e-3 / 1e-30, 1e24);
  EXPECT_GT(r.max_rel_err, 1e20);
}

TEST(Compare, NanPassesOnlyWhereExpected) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(cmp<float>({nan, 1.0f}, {nan, 1.0f}).pass);
  CompareResult r = cmp<float>({1.0f, 2.0f}, {1.0f, nan}, 1e3, 1e3);
  EXPECT_FALSE(r.pass);
  EXPECT_TRUE(std::isinf(r.max_abs_err));
  EXPECT_NE(r.message.find("out[1]: got nan"), std::string::npos) << r.message;
  EXPECT_FALSE(cmp<float>({nan}, {1.0f}, 1e3, 1e3).pass);
  // Poison (0xFFFFFFFF) is a NaN and fails any finite expectation.
  uint32_t poison = 0xFFFFFFFFu;
  float p;
  std::memcpy(&p, &poison, 4);
  EXPECT_FALSE(cmp<float>({0.0f}, {p}, 1.0, 1.0).pass);
}

TEST(Compare, InfinitiesMustMatch) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(cmp<double>({inf, -inf}, {inf, -inf}).pass);
  EXPECT_FALSE(cmp<double>({inf}, {-inf}, 1, 1).pass);
  EXPECT_FALSE(cmp<double>({1e300}, {inf}, 1, 1).pass);
}

TEST(Compare, Bfloat16StorageIsExactUnlessAskedOtherwise) {
  // 1.0 and the next bfloat16 up.
  CompareResult exact = cmp<uint16_t>({0x3F80}, {0x3F81}, 1.0, 1.0);
  EXPECT_FALSE(exact.pass);
  CompareResult tol = cmp<uint16_t>({0x3F80}, {0x3F81}, 0.0, 1e-2, "bfloat16");
  EXPECT_TRUE(tol.pass) << tol.message;
  EXPECT_NEAR(tol.max_abs_err, 0.0078125, 1e-12);
  EXPECT_FALSE(cmp<uint16_t>({0x3F80}, {0x4000}, 0.0, 1e-2, "bfloat16").pass);  // 1 vs 2
  EXPECT_FLOAT_EQ(bfloat16_to_float(0xC040), -3.0f);
}

TEST(Compare, HalfFloats) {
  EXPECT_FLOAT_EQ(half_to_float(0x3C00), 1.0f);
  EXPECT_FLOAT_EQ(half_to_float(0xC000), -2.0f);
  EXPECT_FLOAT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::isinf(half_to_float(0x7C00)));
  EXPECT_TRUE(std::isnan(half_to_float(0x7E00)));
  NpyArray e = make_npy<uint16_t>({0x3C00});
  e.descr = "<f2";
  e.kind = 'f';
  uint16_t got = 0x3C01;  // 1 + 2^-10
  EXPECT_TRUE(compare_output(e, &got, 2, 1e-3, 0, "", "h").pass);
  EXPECT_FALSE(compare_output(e, &got, 2, 1e-4, 0, "", "h").pass);
  EXPECT_TRUE(cmp<uint16_t>({0x3C00}, {0x3C01}, 1e-3, 0, "float16").pass);
}

TEST(Compare, ExactModeAndStructuredCompareBytes) {
  EXPECT_FALSE(cmp<float>({0.0f}, {-0.0f}, 1, 1, "exact").pass);
  uint8_t e[8] = {1, 2, 3, 4, 5, 6, 7, 8}, g[8] = {1, 2, 3, 4, 5, 6, 7, 9};
  NpyArray s = make_structured_npy("[('a', '<u4'), ('b', '<f4')]", 8, {1}, e);
  EXPECT_TRUE(compare_output(s, e, 8, 0, 0, "", "s").pass);
  CompareResult r = compare_output(s, g, 8, 0, 0, "", "s");
  EXPECT_FALSE(r.pass);
  EXPECT_NE(r.message.find("bytewise"), std::string::npos) << r.message;
}

TEST(Compare, ReportsMultiDimIndexAndSizeMismatch) {
  CompareResult r = cmp<int32_t>({0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 6}, 0, 0, "", {2, 3});
  EXPECT_NE(r.message.find("out[1, 2]"), std::string::npos) << r.message;
  NpyArray e = make_npy<float>({1, 2});
  float got[1] = {1};
  CompareResult sz = compare_output(e, got, 4, 0, 0, "", "out");
  EXPECT_FALSE(sz.pass);
  EXPECT_NE(sz.message.find("4 bytes"), std::string::npos) << sz.message;
  EXPECT_FALSE(compare_output(e, got, 8, 0, 0, "bogus", "out").pass);
}

TEST(Compare, LimitsReportedMismatches) {
  std::vector<int32_t> e(100, 0), g(100, 1);
  CompareResult r = cmp<int32_t>(e, g);
  EXPECT_EQ(r.mismatches, 100u);
  EXPECT_NE(r.message.find("100 of 100"), std::string::npos);
  EXPECT_NE(r.message.find("..."), std::string::npos);
  EXPECT_EQ(r.message.find("out[10]"), std::string::npos);
}

}  // namespace
}  // namespace mslport::runtime
