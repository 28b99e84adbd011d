// A class converted to a scalar by its conversion operator template (MLX's
// complex_t: `template <typename U, typename = enable_if<...>> operator
// U() const device`), inside a template that writes the conversion as
// `static_cast<U>(x)` and as `U(x)` with U a template parameter, for
// objects in device and in thread memory.
//
// Dispatch: dispatchThreads n, any threadgroup size; z holds pairs (re, im)
// of small dyadic values.
//   as_int[i]   = int(trunc(z[i].re))
//   as_float[i] = z[i].re + float(trunc(z[i].re))  (a thread copy, then U(x))
#include <metal_stdlib>
using namespace metal;

template <typename T>
struct pair_number;
template <typename T>
static constexpr constant bool is_pair_number_v = false;
template <typename T>
static constexpr constant bool is_pair_number_v<pair_number<T>> = true;

template <typename T>
struct pair_number {
  T re;
  T im;
  template <typename U, typename = typename enable_if<!is_pair_number_v<U> && is_convertible_v<T, U>>::type>
  constexpr operator U() const device {
    return static_cast<U>(re);
  }
  template <typename U, typename = typename enable_if<!is_pair_number_v<U> && is_convertible_v<T, U>>::type>
  constexpr operator U() const thread {
    return static_cast<U>(re);
  }
};

template <typename T, typename U>
void convert_one(device const T* src, device U* dst, uint i) {
  dst[i] = static_cast<U>(src[i]);
}

template <typename T, typename U>
U convert_copy(T x) {
  return U(x) + static_cast<U>(int(x));
}

kernel void feat_conversion_operators(device const pair_number<float>* z [[buffer(0)]],
                                      device int* as_int [[buffer(1)]], device float* as_float [[buffer(2)]],
                                      uint i [[thread_position_in_grid]]) {
  convert_one(z, as_int, i);
  pair_number<float> local = z[i];
  as_float[i] = convert_copy<pair_number<float>, float>(local);
}
