// Order statistics of repeated timings.
#pragma once

#include <cstddef>
#include <vector>

namespace mslport::bench {

// The p-th percentile (p in [0, 100]) with linear interpolation between the
// closest ranks (NumPy's default): position p/100 * (n - 1) of the sorted
// values. 0 for an empty input.
double percentile(std::vector<double> values, double p);
double median(const std::vector<double>& values);

struct Summary {
  size_t n = 0;
  double median = 0, p10 = 0, p90 = 0, min = 0, max = 0;
};
Summary summarize(const std::vector<double>& values);

// Geometric mean of positive values (0 if none).
double geometric_mean(const std::vector<double>& values);

}  // namespace mslport::bench
