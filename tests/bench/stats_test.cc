#include "bench/stats.h"

#include <gtest/gtest.h>

namespace mslport::bench {
namespace {

TEST(Percentile, InterpolatesLinearlyBetweenClosestRanksLikeNumPy) {
  // numpy.percentile([1, 2, 3, 4], [0, 10, 50, 90, 100]) = [1, 1.3, 2.5, 3.7, 4]
  std::vector<double> v{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(percentile(v, 0), 1.0);
  EXPECT_NEAR(percentile(v, 10), 1.3, 1e-12);
  EXPECT_DOUBLE_EQ(percentile(v, 50), 2.5);
  EXPECT_NEAR(percentile(v, 90), 3.7, 1e-12);
  EXPECT_DOUBLE_EQ(percentile(v, 100), 4.0);
}

TEST(Percentile, MedianOfOddCountIsTheMiddleValue) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2.0);
  EXPECT_DOUBLE_EQ(median({7}), 7.0);
}

TEST(Percentile, EmptyAndOutOfRange) {
  EXPECT_DOUBLE_EQ(percentile({}, 50), 0.0);
  EXPECT_DOUBLE_EQ(percentile({1, 2}, -5), 1.0);
  EXPECT_DOUBLE_EQ(percentile({1, 2}, 500), 2.0);
}

TEST(Summarize, ReportsMedianSpreadAndExtremes) {
  std::vector<double> v;
  for (int i = 10; i >= 0; --i) v.push_back(i);  // 0..10
  Summary s = summarize(v);
  EXPECT_EQ(s.n, 11u);
  EXPECT_DOUBLE_EQ(s.median, 5.0);
  EXPECT_DOUBLE_EQ(s.p10, 1.0);
  EXPECT_DOUBLE_EQ(s.p90, 9.0);
  EXPECT_DOUBLE_EQ(s.min, 0.0);
  EXPECT_DOUBLE_EQ(s.max, 10.0);
}

TEST(GeometricMean, OfRatios) {
  EXPECT_NEAR(geometric_mean({2.0, 0.5}), 1.0, 1e-12);
  EXPECT_NEAR(geometric_mean({1.0, 4.0}), 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(geometric_mean({}), 0.0);
}

}  // namespace
}  // namespace mslport::bench
