"""Writes a kernel whose body nests N levels deep, to stdout.

Usage: gen_nested.py sum|ternary|elseif|for N
  sum      o[i] = o[0] + o[1] + ... (N terms: nests N-1 deep)
  ternary  o[i] = i == 0u ? 0.0f : i == 1u ? 1.0f : ... (N conditions)
  elseif   if (i == 0u) {...} else if (i == 1u) {...} ... (N branches)
  for      N nested for loops
"""
import sys

shape, n = sys.argv[1], int(sys.argv[2])
print("#include <metal_stdlib>\nusing namespace metal;")
print("kernel void deep(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {")
if shape == "sum":
    print("  o[i] = " + " + ".join("o[%d]" % (k % 7) for k in range(n)) + ";")
elif shape == "ternary":
    print("  o[i] = " + "".join("i == %du ? %d.0f : " % (k, k) for k in range(n)) + "0.0f;")
elif shape == "elseif":
    print("  float v = 0.0f;")
    print("  " + " else ".join("if (i == %du) { v = %d.0f; }" % (k, k) for k in range(n)))
    print("  o[i] = v;")
elif shape == "for":
    print("  float v = 0.0f;")
    print("  " + "".join("for (uint k%d = 0; k%d < 2u; ++k%d) " % (k, k, k) for k in range(n)) + "v += 1.0f;")
    print("  o[i] = v;")
else:
    sys.exit("unknown shape " + shape)
print("}")
