"""Golden cases for feat_parameter_references (metal_src/features/): local
references to parameters. References are NumPy from the kernel's documented
math (the comment at the top of its .metal file), not from any translation."""
import numpy as np

from common import Case, f32, reset_kernel_dir

KERNELS = ["feat_parameter_references"]
# Small integers plus a multiple of 1/4: every value is a float32 exactly.
EXACT = "integers below 2^10 plus a quarter: exact in float32"


def parameter_references(case, desc, n, tg, s):
    out = 5.0 + 6.0 + 3.0 + (np.arange(n, dtype=np.float64) + 1.0) + s
    c = Case("feat_parameter_references", case, desc)
    c.threads([n, 1, 1], [tg, 1, 1])
    c.write(0, "out", f32(out), 0, 0, EXACT)
    c.read(1, "s", f32([s]))
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    parameter_references("small", "70 threads in 32-thread groups (last partial), s = 0.25", 70, 32, 0.25)


if __name__ == "__main__":
    generate()
