// A SIMD-group function in a loop whose bound is a uniform value, in a
// `switch` on a uniform value, with threads past the end of the grid (a
// dispatchThreads grid that ends inside a threadgroup: OpenCL runs them and
// sends them back at the start). They must agree with the others on the
// branch and the trip count, though they set no value of their own. The
// parameters go through a local copy made by a brace list, as a kernel
// that hands a helper its arguments does.
//
// Dispatch: n threads (dispatchThreads) in 32-thread groups, one SIMD group
// each; g = threadgroup index, lanes t = the group's threads with i < n.
//   mode 2: for r = 0, 1 while 2g + r < limit:
//             out[2g + r] = sum over lanes t of x[t] * (r + 1)
//   other:  out[2g] = out[2g + 1] = -1
#include <metal_stdlib>
using namespace metal;

struct SwitchParams {
    int mode;
    int limit;
};

kernel void feat_uniform_switch_collective(
    device const float*     x   [[buffer(0)]],
    device float*           out [[buffer(1)]],
    constant SwitchParams&  p   [[buffer(2)]],
    uint   i    [[thread_position_in_grid]],
    uint3  tg   [[threadgroup_position_in_grid]],
    ushort lane [[thread_index_in_simdgroup]])
{
    const SwitchParams q = {p.mode, p.limit};
    switch (q.mode) {
        case 2: {
            const int r0 = int(tg.x) * 2;
            for (int r = 0; r < 2 && r0 + r < q.limit; ++r) {
                float s = simd_sum(x[i] * float(r + 1));
                if (lane == 0) {
                    out[r0 + r] = s;
                }
            }
            break;
        }
        default:
            if (lane == 0) {
                out[2 * tg.x] = -1.0f;
                out[2 * tg.x + 1] = -1.0f;
            }
            break;
    }
}
