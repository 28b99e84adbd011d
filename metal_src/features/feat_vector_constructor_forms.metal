// Metal's vector constructors in the forms libraries write besides
// `float4(a, b)`: a declaration that constructs its vector with
// parentheses (`short2 offset(a, b);`, MLX's reductions), and the
// constructor named by the vector's template, `vec<float, 4>(h4)` (an
// element conversion) and `metal::vec<float, 4>(a, b, c, d)`.
//
// Dispatch: dispatchThreads n, any threadgroup size; h a half4 per thread.
//   idx[i] = short2(i % 4, i / 4)
//   out[i] = (x, 2, 0.5, -1) + 2 * (x, x, x, x) + float4(h[i]) - (2, x, 1, 2), x = x[i]
#include <metal_stdlib>
using namespace metal;

kernel void feat_vector_constructor_forms(device const float* x [[buffer(0)]],
                                          device const half4* h [[buffer(1)]],
                                          device float4* out [[buffer(2)]],
                                          device short2* idx [[buffer(3)]],
                                          uint i [[thread_position_in_grid]]) {
  short2 offset(i % 4, i / 4);  // uint pieces, converted to short
  float2 xy(x[i], 2.0f);
  vec<float, 4> q(xy, 0.5f, -1.0f);
  const float4 w(x[i]);  // one scalar: every lane
  float4 hv = vec<float, 4>(h[i]);
  float4 s = metal::vec<float, 4>(xy.y, xy.x, 1.0f, 2.0f);
  out[i] = q + w * 2.0f + hv - s;
  idx[i] = offset;
}
