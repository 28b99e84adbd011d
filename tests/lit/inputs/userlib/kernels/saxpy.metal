// A user's small kernel library, kept outside any mslport checkout: the lit
// tests of the project file, new-case, check's strictness and reports,
// and --differential (tests/lit/diagnostics/user_*.test).
#include <metal_stdlib>
using namespace metal;

kernel void saxpy(device const float* x [[buffer(0)]], device float* y [[buffer(1)]],
                  constant float& a [[buffer(2)]], constant uint& n [[buffer(3)]],
                  uint i [[thread_position_in_grid]]) {
  if (i >= n) return;
  y[i] = a * x[i] + y[i];
}

kernel void scale(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                  constant uint& n [[buffer(2)]], uint i [[thread_position_in_grid]]) {
  if (i >= n) return;
  out[i] = SCALE * x[i];
}
