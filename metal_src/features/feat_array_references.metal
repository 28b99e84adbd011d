// References to arrays: `thread float (&row)[4] = grid[k];` names the row
// itself, so writes through it change grid, and the index is taken when the
// reference is bound (k changing afterwards moves nothing). Also a row of a
// threadgroup 2-D array (read after a barrier), a constant struct's array
// members, a device struct's array member, and references to arrays passed
// to helpers (by reference, as an array parameter, a range-for over one).
//
// Dispatch: dispatchThreads n, full threadgroups of width g <= 32. x holds 4
// values per thread, a[c] = x[4i + c]; p.w holds 4 weights, p.rows 2 rows of
// 4 values. With k0 = i % 3, k1 = (k0 + 1) % 3:
//   grid[r][c]   = (r + 1) * a[c], then through row = grid[k0]:
//                  grid[k0][1] = 10, grid[k0][c] = grid[k0][c] / 2 + 1 (every c),
//                  then grid[k1][3] = -grid[k1][3] (a helper, whose other
//                  argument is the index variable, set to 0 first)
//   tsum         = sum of all of grid + 4 (sizeof(row) / sizeof(row[0]))
//   tiles[lid][c] = a[c] + c for each thread; after the barrier, with
//                  nb = the thread lid + 1 (mod g) of the same group:
//   gsum         = sum_c tiles[nb][c] + tiles[lid][0]
//   dot          = sum_c p.w[c] * a[c],   prow = sum_c p.rows[i % 2][c]
//   stats[i].v[c] = p.w[c] * a[c], plus 1 for c = 0 (written through a reference)
//   out[i]       = tsum + gsum + dot + prow + stats[i].v[0]
#include <metal_stdlib>
using namespace metal;

struct Params {
    float w[4];
    float rows[2][4];
};

struct Stats {
    float v[4];
};

float total(thread const float (&values)[4]) {
    float s = 0.0f;
    for (float v : values) s += v;
    return s;
}

float tile_total(threadgroup const float (&values)[4]) {
    return values[0] + values[1] + values[2] + values[3];
}

float row_total(constant const float (&values)[4]) {
    return values[0] + values[1] + values[2] + values[3];
}

// An array parameter: a pointer to the first element.
void halve(thread float values[4]) {
    for (int c = 0; c < 4; ++c) values[c] *= 0.5f;
}

// `which` names the caller's index variable: the row is bound before it changes.
void negate_last(thread float (&values)[4], thread uint& which) {
    which = 0;
    values[3] = -values[3];
}

kernel void feat_array_references(
    device const float* x     [[buffer(0)]],
    constant Params&    p     [[buffer(1)]],
    device Stats*       stats [[buffer(2)]],
    device float*       out   [[buffer(3)]],
    uint i   [[thread_position_in_grid]],
    uint lid [[thread_position_in_threadgroup]],
    uint g   [[threads_per_threadgroup]])
{
    float a[4];
    for (uint c = 0; c < 4; ++c) a[c] = x[4 * i + c];

    // A row of a thread 2-D array.
    float grid[3][4];
    for (uint r = 0; r < 3; ++r)
        for (uint c = 0; c < 4; ++c) grid[r][c] = float(r + 1) * a[c];
    uint k = i % 3;
    thread float (&row)[4] = grid[k];
    k = 0;
    row[1] = 10.0f;
    halve(row);
    for (thread float& e : row) e += 1.0f;
    uint k1 = (i % 3 + 1) % 3;
    negate_last(grid[k1], k1);
    const float tsum = total(grid[0]) + total(grid[1]) + total(grid[2]) + float(sizeof(row) / sizeof(row[0]));

    // A row of a threadgroup 2-D array: each thread fills its own.
    threadgroup float tiles[32][4];
    threadgroup float (&mine)[4] = tiles[lid];
    for (uint c = 0; c < 4; ++c) mine[c] = a[c] + float(c);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint nb = (lid + 1) % g;
    threadgroup float (&next)[4] = tiles[nb];
    nb = lid;
    const float gsum = tile_total(next) + tiles[lid][0];

    // Array members of a constant and of a device struct.
    constant const float (&w)[4] = p.w;
    constant const float (&pr)[4] = p.rows[i % 2];
    float dot = 0.0f;
    for (uint c = 0; c < 4; ++c) dot += w[c] * a[c];
    device float (&v)[4] = stats[i].v;
    for (uint c = 0; c < 4; ++c) v[c] = w[c] * a[c];
    v[0] += 1.0f;

    out[i] = tsum + gsum + dot + row_total(pr) + stats[i].v[0];
}
