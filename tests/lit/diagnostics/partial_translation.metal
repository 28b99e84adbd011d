// Partial translation: the kernel that cannot be translated is left out with
// its reasons as warnings, the others are translated, and the summary line
// counts both; --Werror makes the same reasons errors and fails.
// RUN: %mslport translate %s --target opencl -o %t.cl 2>&1 | FileCheck %s
// RUN: grep -q "__kernel void good" %t.cl
// RUN: not grep -q "textured" %t.cl
// RUN: not %mslport translate %s --target opencl --Werror -o %t.strict.cl 2>&1 | FileCheck --check-prefix=STRICT %s
// RUN: test ! -e %t.strict.cl
// RUN: %mslport translate %s --target openmp --kernel good -o %t.cpp 2>&1 | FileCheck --check-prefix=ONE %s
#include <metal_stdlib>
using namespace metal;
kernel void good(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = 1.0f; }
// CHECK: partial_translation.metal:[[@LINE+2]]:43: warning: textures and samplers are not supported yet [kernel 'textured' skipped]
// STRICT: partial_translation.metal:[[@LINE+1]]:43: error: textures and samplers are not supported yet [kernel 'textured' not translated]
kernel void textured(texture2d<float> t [[texture(0)]], device float* o [[buffer(0)]], uint2 i [[thread_position_in_grid]]) {
  o[i.x] = t.read(i).x;
}
// CHECK: partial_translation.metal: 1 kernel translated, 1 skipped
// STRICT: partial_translation.metal: 1 kernel translated, 1 skipped
// ONE: partial_translation.metal: 1 kernel translated, 0 skipped
