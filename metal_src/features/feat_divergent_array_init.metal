// A 4-bit quantised mat-vec shaped like the engine's (each SIMD group owns
// NR rows; per-thread arrays of partial sums and of x values), whose arrays
// are declared and initialised inside a lane-divergent branch around
// simd_sum: only SIMD groups with a row to compute enter it, and only lanes
// with columns left read x.
//
//   out[r] = sum_c scale[r, c / 32] * nibble(w, r, c) * x[c]
//
// w: [rows, cols / 8] uint, nibble j of word (r, c8) is column 8 * c8 + j;
// scale: [rows, cols / 32]. Dispatch: threadgroups of 64 threads (2 SIMD
// groups), ceil(rows / (2 * NR)) of them; cols a multiple of 32.
#include <metal_stdlib>
using namespace metal;

#define NR 2

kernel void feat_divergent_array_init(
    device const uint*  w     [[buffer(0)]],
    device const float* scale [[buffer(1)]],
    device const float* x     [[buffer(2)]],
    device float*       out   [[buffer(3)]],
    constant uint&      rows  [[buffer(4)]],
    constant uint&      cols  [[buffer(5)]],
    uint tg   [[threadgroup_position_in_grid]],
    uint lane [[thread_index_in_simdgroup]],
    uint sg   [[simdgroup_index_in_threadgroup]])
{
    const uint first_row = (tg * 2 + sg) * NR;
    const uint words = cols / 8;
    if (first_row < rows) {
        float sumf[NR] = {0.f};
        for (uint c8 = lane; c8 < words; c8 += 32) {
            float yl[8] = {x[8 * c8 + 0], x[8 * c8 + 1], x[8 * c8 + 2], x[8 * c8 + 3],
                           x[8 * c8 + 4], x[8 * c8 + 5], x[8 * c8 + 6], x[8 * c8 + 7]};
            for (uint r = 0; r < NR && first_row + r < rows; ++r) {
                const uint packed = w[(first_row + r) * words + c8];
                const float s = scale[(first_row + r) * (cols / 32) + c8 / 4];
                float part = 0.f;
                for (uint j = 0; j < 8; ++j) part += float((packed >> (4 * j)) & 15u) * yl[j];
                sumf[r] += s * part;
            }
        }
        float tot[NR] = {simd_sum(sumf[0]), simd_sum(sumf[1])};
        for (uint r = 0; r < NR; ++r) {
            if (lane == 0 && first_row + r < rows) out[first_row + r] = tot[r];
        }
    }
}
