// Calls that change no result in a port: clang's optimisation hints, which
// machine-generated MSL guards with __has_builtin (SPIRV-Cross's SPV_EXPECT
// and SPV_ASSUME), and shader logging through a program-scope logger (MLX's
// `constant os_log logger(...)`), whose output has no stream here.
// __builtin_expect(x, c) is x; __builtin_assume(c) never evaluates c.
//
// Dispatch: a grid of n threads. For thread i, with x = in[i]:
//   out[i] = x < 0 ? -x : 2 * x
#include <metal_stdlib>
#include <metal_logging>
using namespace metal;

#if __has_builtin(__builtin_expect)
#define LIKELY(x) __builtin_expect(x, true)
#else
#define LIKELY(x) (x)
#endif
#if __has_builtin(__builtin_assume)
#define ASSUME(x) __builtin_assume(x)
#else
#define ASSUME(x)
#endif

constant os_log logger("mslport.features", "hints");

kernel void feat_hints_and_logging(
    device const float* in  [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint i [[thread_position_in_grid]])
{
    ASSUME(i < 4096u);
    const float x = in[i];
    if (LIKELY(x >= 0.0f)) {
        out[i] = 2.0f * x;
    } else {
        logger.log_debug("negative input at %u", i);
        out[i] = -x;
    }
}
