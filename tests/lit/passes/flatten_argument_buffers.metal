// An argument buffer (a struct of pointers bound as one buffer): each pointer
// the kernel reads becomes a buffer parameter bound through it, at its byte
// offset, in the order of the offsets; the parameter's struct becomes its
// _slots twin (each pointer an 8-byte ulong at the same offset), through
// which the other members still read. A nested struct of pointers likewise.
// RUN: %mslport ir %s --target openmp --print-after=flatten_argument_buffers --verify-each | FileCheck %s
// RUN: %mslport ir %s --target opencl --print-after=flatten_argument_buffers --verify-each | FileCheck %s
#include <metal_stdlib>
using namespace metal;

struct Pair {
    device const float* src;
    device float* dst;
};

struct Args {
    uint n;
    Pair io;
    constant float* scale;
};

kernel void k(constant Args& args [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    if (i < args.n) args.io.dst[i] = args.io.src[i] * args.scale[0];
}

// CHECK-LABEL: IR after flatten_argument_buffers
// CHECK: struct Pair_slots (size 16, align 8)
// CHECK-NEXT: 0 src: ulong
// CHECK-NEXT: 8 dst: ulong
// CHECK: struct Args_slots (size 32, align 8)
// CHECK-NEXT: 0 n: uint
// CHECK-NEXT: 8 io: Pair_slots
// CHECK-NEXT: 24 scale: ulong
// CHECK-LABEL: kernel k
// CHECK-NEXT: param 0 buffer(2) args: constant Args_slots&
// CHECK-NEXT: param 1 builtin thread_position_in_grid i: uint
// CHECK-NEXT: param 2 buffer(2)+8 args_io_src: device const float*
// CHECK-NEXT: param 3 buffer(2)+16 args_io_dst: device float*
// CHECK-NEXT: param 4 buffer(2)+24 args_scale: constant const float*
// CHECK: if (i < args.n)
// CHECK: args_io_dst[i] = args_io_src[i] * args_scale[0]
