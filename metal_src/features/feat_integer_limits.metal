// The extreme values of int and long as written results: numeric_limits
// folds to literals, and the lowest of each (-2^31, -2^63) has no literal
// of its own type in C++ (`-2147483648` negates a long, and 2^63 fits no
// signed type), so the emitted code must spell it another way. Used as a
// sentinel by arg-min/arg-max reductions (MLX's ArgMax of int64).
//
// Dispatch: dispatchThreads n, any threadgroup size; 0 <= v[i] <= 1000.
//   out[4i + 0] = -2^31 + v[i]
//   out[4i + 1] = -2^63 + v[i]
//   out[4i + 2] = 2^31 - 1 - v[i]
//   out[4i + 3] = 2^63 - 1 - v[i]
#include <metal_stdlib>
using namespace metal;

struct IntegerLimits {
  int lowest32;
  long lowest64;
  int highest32;
  long highest64;
};

kernel void feat_integer_limits(device const int* v [[buffer(0)]], device long* out [[buffer(1)]],
                                uint i [[thread_position_in_grid]]) {
  const IntegerLimits lim{numeric_limits<int>::min(), numeric_limits<long>::lowest(), numeric_limits<int>::max(),
                          numeric_limits<long>::max()};
  const int x = v[i];
  out[4 * i + 0] = long(lim.lowest32 + x);
  out[4 * i + 1] = lim.lowest64 + x;
  out[4 * i + 2] = long(lim.highest32 - x);
  out[4 * i + 3] = lim.highest64 - x;
}
