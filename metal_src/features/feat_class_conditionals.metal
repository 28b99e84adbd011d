// ?: between objects of one class in different address spaces (a device
// element, a thread temporary, a class constant in the constant space),
// and a class-typed `static constexpr constant` member: MLX's reductions
// over complex_t (`in_bounds ? row[i] : op.init`). clang's OpenCL mode
// types each operand with its space; Metal's result is a copy of either.
//
// Dispatch: dispatchThreads n, any threadgroup size; 4 < n; z holds
// (re, im) pairs of small dyadic values.
//   a = i < 4 ? z[i] : (1, 2);  b = i odd ? a : (0, 0)
//   out[i] = a.re + 2 * b.im
#include <metal_stdlib>
using namespace metal;

template <typename T>
struct duo {
  T re;
  T im;
  constexpr duo(T r, T i) thread : re(r), im(i) {}
  constexpr duo() thread : re(0), im(0) {}
};

template <typename U>
struct ZeroInit {
  static constexpr constant U init = U(0, 0);
};

template <typename U>
U keep_or_zero(bool keep, U v) {
  return keep ? v : ZeroInit<U>::init;
}

kernel void feat_class_conditionals(device const duo<float>* z [[buffer(0)]], device float* out [[buffer(1)]],
                                    uint i [[thread_position_in_grid]]) {
  duo<float> a = (i < 4) ? z[i] : duo<float>(1.0f, 2.0f);
  duo<float> b = keep_or_zero(i % 2 == 1, a);
  out[i] = a.re + 2.0f * b.im;
}
