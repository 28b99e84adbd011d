// Values of aggregate types, as machine-generated MSL (SPIRV-Cross) builds
// them: an array wrapped in a struct template whose bound is an expression
// of the template argument (`T e[N ? N : 1]`), constructed by a functional
// cast of a brace list, `Wrap<float, 3>({...})`, at program scope and in
// the kernel, nested (a wrapper of structs); a local of a struct whose
// members have default member initializers (`= {...}` on an array member,
// `{v}` and `{}` on scalars) and wrapper members left uninitialised; a
// scalar's brace list.
//
// Dispatch: a grid of n threads. For thread i, with x = in[i], j = i % 3:
//   table = {0.5, 1.5, 2.5};  pairs = {{1, 2}, {3, 4}, {5, 6}}
//   s = Settings{}: gain 2, bias 0 (`{}`), taps {1, 2, 0, 0} (the rest zero);
//   s.w[0] = x, s.w[1] = 2x (a wrapper member set after default init)
//   out[i] = table[j] * x + pairs[j].hi - pairs[j].lo
//          + s.gain * (s.taps[0] + s.taps[1] + s.taps[2] + s.taps[3]) + s.bias
//          + s.w[0] + s.w[1]
//          + offsets[i % 2].x + offsets[i % 2].y   (offsets = {(0.5, 1), (2, 2)}: a
//            program-scope constant holding vectors)
#include <metal_stdlib>
using namespace metal;

template <typename T, size_t N>
struct Wrap {
    T e[N ? N : 1];
    thread T& operator[](size_t k) thread { return e[k]; }
    constexpr const thread T& operator[](size_t k) const thread { return e[k]; }
    constexpr const constant T& operator[](size_t k) const constant { return e[k]; }
};

struct Pair {
    float lo;
    float hi;
};

struct Settings {
    float gain{2.0f};
    float bias{};
    int taps[4] = {1, 2};
    Wrap<float, 2> w;
};

constant Wrap<float, 3> table = Wrap<float, 3>({ 0.5, 1.5, 2.5 });
constant Wrap<float2, 2> offsets = Wrap<float2, 2>({ float2(0.5, 1.0), float2(2.0) });

kernel void feat_aggregate_values(
    device const float* in  [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint i [[thread_position_in_grid]])
{
    const float x = in[i];
    const uint j = i % 3;
    Wrap<Pair, 3> pairs = Wrap<Pair, 3>({ Pair{ 1.0, 2.0 }, Pair{ 3.0, 4.0 }, Pair({ 5.0, 6.0 }) });
    Settings s;
    s.w[0] = x;
    s.w[1] = 2.0f * x;
    float r = table[j] * x + pairs[j].hi - pairs[j].lo;
    r += s.gain * float(s.taps[0] + s.taps[1] + s.taps[2] + s.taps[3]) + s.bias;
    r += offsets[i % 2].x + offsets[i % 2].y;
    out[i] = r + s.w[0] + s.w[1];
}
