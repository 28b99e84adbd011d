// Arrays of a class with a default constructor: every element is
// constructed, in one and two dimensions (MLX's scans: `U values[N_READS];`
// of complex_t).
//
// Dispatch: dispatchThreads n, any threadgroup size.
//   each element starts as (s, c) = (0.5, -1);
//   a[1].s += x[i]; g[1][0].c *= 2 x[i]
//   out[i] = a[0].s + a[1].s + a[2].c + g[0][1].s + g[1][0].c = 0.5 - x[i]
#include <metal_stdlib>
using namespace metal;

struct sum_and_scale {
  float s;
  float c;
  sum_and_scale() thread : s(0.5f), c(-1.0f) {}
};

kernel void feat_constructed_arrays(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                                    uint i [[thread_position_in_grid]]) {
  sum_and_scale a[3];
  sum_and_scale g[2][2];
  a[1].s += x[i];
  g[1][0].c *= 2.0f * x[i];
  out[i] = a[0].s + a[1].s + a[2].c + g[0][1].s + g[1][0].c;
}
