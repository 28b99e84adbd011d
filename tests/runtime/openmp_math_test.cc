// The Metal math functions of mslport/openmp_rt.h that emitted C++ calls.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

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
