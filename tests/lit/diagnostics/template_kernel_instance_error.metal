// An error clang finds only in one instance of a template kernel is the
// reason that instance is skipped (not "has no definition").
// RUN: %mslport translate %s --target openmp -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not="has no definition"
#include <metal_stdlib>
using namespace metal;
template <typename V>
kernel void lanes(device V* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    o[i].x = 1.0f;
}
// CHECK: template_kernel_instance_error.metal:[[@LINE-2]]:{{[0-9]+}}: warning: member reference base type {{.*}}[kernel 'lanes_f1' skipped]
template [[host_name("lanes_f2")]] kernel void lanes<float2>(device float2*, uint);
template [[host_name("lanes_f1")]] kernel void lanes<float>(device float*, uint);
// CHECK: template_kernel_instance_error.metal: 1 kernel translated, 1 skipped
