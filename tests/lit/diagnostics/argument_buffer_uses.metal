// What is refused of an argument buffer, at the use, each costing only its
// kernel: reading the whole struct (or a part holding pointers) as a value,
// writing one of its pointers, and indexing an array of argument buffers.
// An array of pointers in one is read by element: writing an element is refused.
// RUN: %mslport translate %s --target openmp -o %t.cpp 2>&1 | FileCheck %s
// RUN: %mslport translate %s --target opencl -o %t.cl 2>&1 | FileCheck %s
// RUN: not %mslport translate %s --target opencl --Werror -o %t.strict.cl 2>&1 | FileCheck --check-prefix=STRICT %s
#include <metal_stdlib>
using namespace metal;

struct Args {
    device float* out;
    uint n;
};

kernel void copies(constant Args& args [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    Args local = args;
    local.out[i] = 1.0f;
}
// CHECK: argument_buffer_uses.metal:[[@LINE-3]]:{{[0-9]+}}: warning: kernel 'copies' reads argument buffer 'args' as a whole value; only its members can be read: not supported yet [kernel 'copies' skipped]
// STRICT: argument_buffer_uses.metal:[[@LINE-4]]:{{[0-9]+}}: error: kernel 'copies' reads argument buffer 'args' as a whole value

kernel void writes(device Args& args [[buffer(0)]], device float* other [[buffer(1)]],
                   uint i [[thread_position_in_grid]]) {
    args.out = other;
}
// CHECK: argument_buffer_uses.metal:[[@LINE-2]]:10: warning: kernel 'writes' writes or takes the address of pointer 'args.out' of argument buffer 'args': not supported yet

kernel void indexes(device Args* args [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    args[i].out[0] = 2.0f;
}
// CHECK: argument_buffer_uses.metal:[[@LINE-2]]:5: warning: kernel 'indexes' uses argument buffer 'args' other than to read its members (an array of argument buffers, or the pointer itself): not supported yet

kernel void fine(constant Args& args [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    if (i < args.n) args.out[i] = 3.0f;
}

struct Table {
    device float* rows[4];
};

kernel void arrays(device Table& t [[buffer(0)]], device float* other [[buffer(1)]],
                   uint i [[thread_position_in_grid]]) {
    t.rows[i & 3] = other;
}
// CHECK: argument_buffer_uses.metal:[[@LINE-2]]:5: warning: kernel 'arrays' writes or takes the address of an element of 't.rows' of argument buffer 't': not supported yet

// CHECK: argument_buffer_uses.metal: 1 kernel translated, 4 skipped
