// Compile-time type logic as kernel libraries write it: variable templates
// (`is_floating_point_v<T>`, the user's own `constexpr constant bool
// is_x<T>`), Apple's internal `_disjunction`/`_conjunction` (MLX's
// atomics), `metal::remove_addrspace_t`, a class template's `static
// constexpr constant U init = static_cast<U>(0)` (MLX's scans), and
// `uniform<T>` with `make_uniform` (MLX's gemv), and __builtin_ctz of a
// template parameter (MLX's hadamard).
//
// Dispatch: dispatchThreads n, any threadgroup size; |s[i]| small.
//   fout[i] = 2 * x[i] * n + 0.25
//   sout[i] = (s[i] + 1) * n
#include <metal_stdlib>
using namespace metal;

template <typename T>
constexpr constant bool is_small_int = _disjunction<is_same<T, short>, is_same<T, char>>::value;
template <typename T>
constexpr constant bool is_float32 = _conjunction<is_floating_point<T>, bool_constant<sizeof(T) == 4>>::value;

template <typename U>
struct Sum {
  static constexpr constant U init = static_cast<U>(0);
  U operator()(U a, U b) const { return a + b; }
};

template <typename T>
T scaled(T v, uniform<int> n) {
  using plain_t = metal::remove_addrspace_t<T>;
  plain_t r = v;
  if (is_floating_point_v<T>) r = r * plain_t(2);
  if (is_small_int<T>) r = r + plain_t(1);
  return r * plain_t(n);
}

// A compiler builtin folded at compile time (MLX's hadamard: `constexpr
// short logN = __builtin_ctz(N);`).
template <int N>
int log2_of() {
  constexpr int r = __builtin_ctz(N);
  return r;
}

kernel void feat_type_traits(device const float* x [[buffer(0)]], device const short* s [[buffer(1)]],
                             device float* fout [[buffer(2)]], device short* sout [[buffer(3)]],
                             constant int& n [[buffer(4)]], uint i [[thread_position_in_grid]]) {
  const uniform<int> un = make_uniform(n);
  constexpr const uniform<int> two = make_uniform(2);  // MLX's gemv: a constexpr uniform
  Sum<float> op;
  float acc = Sum<float>::init;
  acc = op(acc, scaled(x[i], un));
  fout[i] = acc + (is_float32<float> ? 0.25f : 0.0f) + (is_float32<half> ? 100.0f : 0.0f) + float(two - 2) +
            float(log2_of<8>() - 3);
  sout[i] = scaled(s[i], un) + (is_small_int<int> ? short(100) : short(0));
}
