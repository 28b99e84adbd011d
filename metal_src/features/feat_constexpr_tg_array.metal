// Compile-time values as real libraries write them: a constexpr function
// sizing a threadgroup array, program-scope `constexpr constant` values, a
// `using` alias and decltype, and Metal's type traits and numeric limits
// choosing code (is_same, is_floating_point, enable_if, numeric_limits).
//
// Dispatch: threadgroups of 16 threads; x has 16 values per threadgroup.
//   tile[2*16] holds the threadgroup's 16 values twice;
//   out[g*16 + t] = max over the 16 values  (starting from numeric_limits<float>::lowest())
//                   + t * STRIDE (STRIDE = 3)
#include <metal_stdlib>
using namespace metal;

constexpr constant int kThreads = 16;
constexpr constant int STRIDE = 3;

constexpr int doubled(int n) { return 2 * n; }

using value_t = float;

template <typename T, typename = enable_if_t<is_floating_point<T>::value>>
T lowest_value() { return numeric_limits<T>::lowest(); }

template <typename T>
T pick_max(T a, T b) {
    if (is_same<T, float>::value) {
        return fmax(a, b);
    }
    return a > b ? a : b;
}

kernel void feat_constexpr_tg_array(
    device const value_t* x   [[buffer(0)]],
    device value_t*       out [[buffer(1)]],
    uint lid   [[thread_position_in_threadgroup]],
    uint group [[threadgroup_position_in_grid]])
{
    threadgroup value_t tile[doubled(kThreads)];
    decltype(tile[0] + 0.0f) v = x[group * kThreads + lid];
    tile[lid] = v;
    tile[lid + kThreads] = v;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    value_t best = lowest_value<value_t>();
    for (int j = 0; j < doubled(kThreads); ++j) {
        best = pick_max(best, tile[j]);
    }
    out[group * kThreads + lid] = best + float(lid * STRIDE);
}
