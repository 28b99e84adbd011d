// Pointers into program-scope constant arrays, as quantised formats walk
// their lookup grids: a pointer moved into a table by arithmetic and passed
// to a helper, one cast to bytes, one taken with &, one chosen between two
// of them with ?:, and a row of a two-dimensional table.
//
// Dispatch: n threads (dispatchThreads). With s = feat_scales (s[k] =
// (k + 1) / 2), g = feat_grid (grid[r] holds the bytes 4r+1 .. 4r+4, low
// first), rows = feat_rows (rows[a][k] = 4a + k + 1), and for thread i,
// v = x[i], r = i % 4, a = i % 2:
//   out[2i]   = v * (s[2r] + s[2r+1]) + sum of the four bytes of g[r]
//   out[2i+1] = (i odd ? s[2r+1] : s[7]) - s[6] + rows[a][3] + rows[a][1]
#include <metal_stdlib>
using namespace metal;

constant float feat_scales[8] = {0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f, 3.5f, 4.0f};
constant uint feat_grid[4] = {0x04030201u, 0x08070605u, 0x0c0b0a09u, 0x100f0e0du};
constant float feat_rows[2][4] = {{1.0f, 2.0f, 3.0f, 4.0f}, {5.0f, 6.0f, 7.0f, 8.0f}};

static float feat_sum2(constant float* q) {
    return q[0] + q[1];
}

kernel void feat_constant_table_pointer(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint i [[thread_position_in_grid]])
{
    const uint r = i % 4;
    constant float* row = feat_scales + 2 * r;
    constant uchar* bytes = (constant uchar*)(feat_grid + r);
    constant float* last = &feat_scales[6];
    constant float* pick = (i & 1) ? row : last;
    constant float* two_d = feat_rows[i & 1];
    constant float* second = &two_d[1];
    float b = 0.0f;
    for (int j = 0; j < 4; ++j) {
        b += float(bytes[j]);
    }
    out[2 * i + 0] = x[i] * feat_sum2(row) + b;
    out[2 * i + 1] = pick[1] - *last + two_d[3] + *second;
}
