# Writes a kernel whose body is an else-if chain of N branches (argv[1]).
import sys

n = int(sys.argv[1])
print("#include <metal_stdlib>")
print("using namespace metal;")
print("kernel void chain(device const uint* in [[buffer(0)]], device float* out [[buffer(1)]],")
print("                  uint tid [[thread_position_in_grid]]) {")
print("  uint x = in[tid];")
print("  float r = 0.0f;")
print("  if (x == 0u) { r = 0.0f; }")
for i in range(1, n):
    print(f"  else if (x == {i}u) {{ r = {i}.0f; }}")
print("  out[tid] = r;")
print("}")
