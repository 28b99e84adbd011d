#include "bench/stats.h"

#include <algorithm>
#include <cmath>

namespace mslport::bench {

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  p = std::clamp(p, 0.0, 100.0);
  double pos = p / 100.0 * double(v.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, v.size() - 1);
  double frac = pos - double(lo);
  return v[lo] + (v[hi] - v[lo]) * frac;
}

double median(const std::vector<double>& values) { return percentile(values, 50); }

Summary summarize(const std::vector<double>& values) {
  Summary s;
  s.n = values.size();
  if (values.empty()) return s;
  s.median = percentile(values, 50);
  s.p10 = percentile(values, 10);
  s.p90 = percentile(values, 90);
  auto [mn, mx] = std::minmax_element(values.begin(), values.end());
  s.min = *mn;
  s.max = *mx;
  return s;
}

double geometric_mean(const std::vector<double>& values) {
  double sum = 0;
  size_t n = 0;
  for (double v : values) {
    if (v > 0) {
      sum += std::log(v);
      ++n;
    }
  }
  return n ? std::exp(sum / double(n)) : 0;
}

}  // namespace mslport::bench
