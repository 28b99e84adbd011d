// A struct whose member functions multiply simdgroup_matrix tiles it holds
// (MLX's and candle's BlockMMA): the calls type-check (the tiles are reached
// through `this`, in the generic address space, and the shim's functions
// take them so), so the file parses and its other kernels translate; tiles
// as struct fields are not translated yet, reported at the kernel that
// uses them.
// RUN: %mslport translate %s --target openmp -o %t.cpp 2>&1 | FileCheck %s
// RUN: %mslport translate %s --target opencl -o %t.cl 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;

template <typename T>
struct TilePair {
    simdgroup_matrix<T, 8, 8> a, b, acc;
    void mma() { simdgroup_multiply_accumulate(acc, a, b, acc); }
};

kernel void tiles(device const float* A [[buffer(0)]], device float* C [[buffer(1)]]) {
    TilePair<float> t;
    simdgroup_load(t.a, A, 8);
    simdgroup_load(t.b, A, 8);
    t.acc = make_filled_simdgroup_matrix<float, 8>(0.0f);
    t.mma();
    simdgroup_store(t.acc, C, 8);
}
// CHECK: simdgroup_tiles_in_structs.metal:[[@LINE-7]]:{{[0-9]+}}: warning: struct field 'a' of type 'simdgroup_matrix<float, 8, 8>' is not supported yet [kernel 'tiles' skipped]

// An array of tiles as a field is refused alike (it was let through, and
// OpenCL's output named a type it does not define).
struct TileRow {
    simdgroup_float8x8 tiles[2];
};

kernel void tile_row(device const float* A [[buffer(0)]], device float* C [[buffer(1)]]) {
    TileRow r;
    simdgroup_load(r.tiles[0], A, 8);
    simdgroup_store(r.tiles[0], C, 8);
}
// CHECK: simdgroup_tiles_in_structs.metal:[[@LINE-4]]:{{[0-9]+}}: warning: struct field 'tiles' of type 'simdgroup_float8x8[2]' is not supported yet [kernel 'tile_row' skipped]

kernel void plain(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = 1.0f; }
// CHECK: simdgroup_tiles_in_structs.metal: 1 kernel translated, 2 skipped
