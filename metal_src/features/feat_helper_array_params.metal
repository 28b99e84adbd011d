// Helper functions whose parameters are written as arrays. C++ adjusts such
// a parameter to a pointer to its element, in the element's address space:
// `constant const int64_t s[2]` takes a `constant const int64_t*`, and a
// helper that writes `thread float v[2]` writes the caller's array. MLX
// passes its stride buffers to index helpers this way.
//
// Dispatch: dispatchThreads (W, H), any threadgroup size; x holds
// W * strides[1] floats, strides five int64.
//   i = gid.y * W + gid.x
//   out[2i]     = x[gid.x * strides[1] + gid.y * strides[0]] + 1
//   out[2i + 1] = gid.x * strides[2] + gid.y * strides[3] + strides[4] - 1
#include <metal_stdlib>
using namespace metal;

// One `return`: read as the expression it computes.
inline int64_t location(uint2 e, constant const int64_t s[2]) {
  return e.x * s[1] + e.y * s[0];
}

// A loop over the array parameter.
int64_t affine(int3 e, constant const int64_t s[3]) {
  int64_t r = 0;
  for (int d = 0; d < 3; ++d) r += e[d] * s[d];
  return r;
}

// Writes through the parameter: the caller's array changes.
void shift_pair(thread float v[2]) {
  v[0] += 1.0f;
  v[1] -= 1.0f;
}

void store_pair(device float dst[], uint i, thread const float v[2]) {
  dst[2 * i] = v[0];
  dst[2 * i + 1] = v[1];
}

kernel void feat_helper_array_params(device const float* x [[buffer(0)]],
                                     constant const int64_t* strides [[buffer(1)]],
                                     device float* out [[buffer(2)]],
                                     uint2 gid [[thread_position_in_grid]],
                                     uint2 grid [[threads_per_grid]]) {
  const uint i = gid.y * grid.x + gid.x;
  float v[2] = {x[location(gid, strides)], float(affine(int3(int(gid.x), int(gid.y), 1), strides + 2))};
  shift_pair(v);
  store_pair(out, i, v);
}
