// Builtin calls with an unsuffixed literal among their arguments, in the
// instances of a template kernel. Metal has no double: `0.5` is a float, so
// with T = float, x / 4 + 0.5 is float arithmetic, and with T = half, x / 4
// is a half and adding 0.5 makes a float. (clang types the literal as a
// double in a template instance; the calls must still be the float
// functions, not ambiguous between float, half and bfloat.)
//
// Dispatch: n threads (dispatchThreads). For thread i, with x = in[i]:
//   out[3i]     = T(fmax(0, fmin(1, x / 4 + 0.5)))   (a hard sigmoid)
//   out[3i + 1] = T(fabs(x * 0.25 - 1))
//   out[3i + 2] = T(floor(x * 0.5 + 0.25))
// Instances: feat_template_literal_calls_f (T = float), _h (T = half).
#include <metal_stdlib>
using namespace metal;

template <typename T>
kernel void feat_template_literal_calls(
    device const T* in  [[buffer(0)]],
    device T*       out [[buffer(1)]],
    uint i [[thread_position_in_grid]])
{
    T x = in[i];
    out[3 * i] = T(fmax(0, fmin(1, x / 4 + 0.5)));
    out[3 * i + 1] = T(fabs(x * 0.25 - 1));
    out[3 * i + 2] = T(floor(x * 0.5 + 0.25));
}

template [[host_name("feat_template_literal_calls_f")]] kernel void feat_template_literal_calls<float>(
    device const float*, device float*, uint);
template [[host_name("feat_template_literal_calls_h")]] kernel void feat_template_literal_calls<half>(
    device const half*, device half*, uint);
