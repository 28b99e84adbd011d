// Reduction operators as kernel libraries write them: a functor class whose
// identity is a static constexpr member read through the object (`U acc =
// op.init;`, MLX's reductions), passed to a template by type.
//
// Dispatch: dispatchThreads n, any threadgroup size; x holds 4 values per
// thread.
//   out[i] = sum of x[4i..4i+3] + max(-100, x[4i..4i+3])
#include <metal_stdlib>
using namespace metal;

template <typename U>
struct Sum {
  static constexpr constant U init = U(0);
  U operator()(U a, U b) thread { return a + b; }
};

template <typename U>
struct Max {
  static constexpr constant U init = U(-100);
  U operator()(U a, U b) thread { return max(a, b); }
};

template <typename Op, typename U>
U reduce4(device const U* x, uint i) {
  Op op;
  U acc = op.init;
  for (int k = 0; k < 4; ++k) acc = op(acc, x[4 * i + k]);
  return acc;
}

kernel void feat_reduction_ops(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                               uint i [[thread_position_in_grid]]) {
  out[i] = reduce4<Sum<float>>(x, i) + reduce4<Max<float>>(x, i);
}
