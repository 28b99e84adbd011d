// A union of a bool vector and an integer of its size, to read the lanes as
// one word (MLX's reductions build an atomic AND/OR mask so: `union
// bool4_or_uint { bool4 b; unsigned int i; };`). A bool is one byte, 1 for
// true, so the word holds a byte per lane, lane 0 lowest.
//
// Dispatch: dispatchThreads n, any threadgroup size.
//   lanes all true, then lane i % 4 false: out[i] = 0x01010101 - (1 << 8 (i % 4))
#include <metal_stdlib>
using namespace metal;

union bool4_or_word {
  bool4 b;
  uint i;
};

kernel void feat_bool_vector_union(device uint* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  bool4_or_word u;
  u.b = {true, true, true, true};
  u.b[i % 4] = false;
  out[i] = u.i;
}
