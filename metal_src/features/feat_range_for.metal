// Range-based for loops: over thread, threadgroup, constant and device
// arrays, a struct's array member (through an object and through `this`),
// an array of structs, metal::array, the rows of a 2-D array; the loop
// variable by value, by reference (writes change the array) and by const
// reference; nested loops with break and continue; inside a template.
//
// Dispatch: dispatchThreads n, threadgroups of any width. x holds 4 values
// per thread, a[k] = x[4i + k]; p.w holds 4 weights.
//   tw[k] = (k + 1) * w[k]             (threadgroup, written by each group's thread 0)
//   stats[i].v[k] = w[k] * a[k]        (device struct member, written by reference)
//   dot   = sum_k w[k] * a[k]
//   tsum  = sum_k tw[k]
//   sq    = sum_k a[k]^2               (metal::array squared in place, a template sums it)
//   half  = sum_k a[k] / 2             (a struct's member array scaled through `this`)
//   pairs = a0 * (a0 + a1) + a2 * (a2 + a3)   (an array of {a, b} structs, b += a by reference)
//   row   = sum_k a[k] for even i, -sum_k a[k] for odd i   (row i % 2 of grid = {a, -a})
//   out[i] = dot + tsum + sq + half + pairs + row
//   counts[i] = over the rows a, then -a: per row, the values before the first
//               one above 5 that are not negative
#include <metal_stdlib>
using namespace metal;

struct Weights {
    float w[4];
};

struct Stats {
    float v[4];
};

struct Pair {
    float a;
    float b;
};

struct Window {
    float vals[4];
    void scale(float f) {
        for (auto& v : vals) v *= f;
    }
    float total() const {
        float s = 0.0f;
        for (float v : this->vals) s += v;
        return s;
    }
};

template <typename T, size_t N>
T sum_of(thread const array<T, N>& values) {
    T s = T(0);
    for (const auto& v : values) s += v;
    return s;
}

kernel void feat_range_for(
    device const float* x      [[buffer(0)]],
    constant Weights&   p      [[buffer(1)]],
    device Stats*       stats  [[buffer(2)]],
    device float*       out    [[buffer(3)]],
    device uint*        counts [[buffer(4)]],
    uint i   [[thread_position_in_grid]],
    uint lid [[thread_position_in_threadgroup]])
{
    threadgroup float tw[4];
    if (lid == 0) {
        int k = 0;
        for (threadgroup float& t : tw) {
            t = float(k + 1) * p.w[k];
            ++k;
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);

    float a[4];
    uint k = 0;
    for (thread float& e : a) {
        e = x[4 * i + k];
        ++k;
    }

    k = 0;
    for (device float& s : stats[i].v) {
        s = p.w[k] * a[k];
        ++k;
    }

    float dot = 0.0f;
    k = 0;
    for (float w : p.w) {
        dot += w * a[k];
        ++k;
    }
    float tsum = 0.0f;
    for (auto t : tw) tsum += t;

    array<float, 4> m;
    k = 0;
    for (auto& e : m) {
        e = a[k];
        ++k;
    }
    for (auto& e : m) e = e * e;
    const float sq = sum_of(m);

    Window win;
    k = 0;
    for (auto& v : win.vals) {
        v = a[k];
        ++k;
    }
    win.scale(0.5f);
    const float half_sum = win.total();

    Pair pairs[2] = {{a[0], a[1]}, {a[2], a[3]}};
    for (thread Pair& q : pairs) q.b += q.a;
    float pair_sum = 0.0f;
    for (Pair q : pairs) pair_sum += q.a * q.b;

    float grid[2][4];
    k = 0;
    for (float v : a) {
        grid[0][k] = v;
        grid[1][k] = -v;
        ++k;
    }
    float row = 0.0f;
    for (float g : grid[i % 2]) row += g;

    uint c = 0;
    for (const auto& r : grid) {
        for (float g : r) {
            if (g < 0.0f) continue;
            if (g > 5.0f) break;
            ++c;
        }
    }
    counts[i] = c;
    out[i] = dot + tsum + sq + half_sum + pair_sum + row;
}
