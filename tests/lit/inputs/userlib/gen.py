"""Golden cases of kernels/saxpy.metal, written with the mslport_golden
module the tool ships (`mslport --python-dir`), into any folder:
    gen.py PYTHON_DIR GOLDEN [reference|inputs-only|wrong]
reference: saxpy with expected outputs; inputs-only: scale with inputs
only (for check --differential); wrong: saxpy with expected outputs off by
one in two elements (a failing case)."""
import sys

sys.path.insert(0, sys.argv[1])
import numpy as np  # noqa: E402
from mslport_golden import Case, f32, u32, rng_for  # noqa: E402

root, what = sys.argv[2], sys.argv[3]
n = 1000
if what in ("reference", "wrong"):
    rng = rng_for("saxpy", "small")
    x, y = f32(rng.normal(size=n)), f32(rng.normal(size=n))
    expected = f32(3.0 * x.astype(np.float64) + y)
    if what == "wrong":
        expected[[7, 300]] += 1.0
    c = Case("saxpy", "small", "n=1000, 4 threadgroups of 256", root=root)
    c.threadgroups([4, 1, 1], [256, 1, 1])
    c.read(0, "x", x)
    c.read_write(1, "y", y, expected, atol=1e-6, rtol=1e-6, note="one fma per element")
    c.read(2, "a", f32([3.0]))
    c.read(3, "n", u32([n]))
    c.save()
else:
    rng = rng_for("scale", "inputs")
    c = Case("scale", "inputs", "n=1000, inputs only", root=root)
    c.threadgroups([4, 1, 1], [256, 1, 1])
    c.read(0, "x", f32(rng.normal(size=n)))
    c.output(1, "out", np.float32, [n], atol=0, rtol=1e-6, note="one multiplication per element")
    c.read(2, "n", u32([n]))
    c.save()
