"""Golden cases for casts between packed vectors in device memory and aligned
vectors (metal_src/features/feat_packed_vector_casts.metal), the forms
SPIRV-Cross writes for packed struct members.

References are plain NumPy written from the kernel's documented math and
Metal's conversion rules (float to int toward zero, integer narrowing modulo
2^n, float to half to nearest), never from the translator's output. The
struct buffer is built and compared as uint32 words with Metal's layout:
packed_float3 at 0, float at 12, packed_half3 at 16 (two pad bytes after it),
packed_int2 at 24, packed_uchar4 at 32; 36 bytes."""
import numpy as np

from common import Case, f32, rng_for, reset_kernel_dir

KERNELS = ["feat_packed_vector_casts"]
WORDS = 9


def pack(a, b, h, n, c):
    """The uint32 words of a Packed array."""
    count = len(a)
    raw = np.zeros((count, WORDS * 4), dtype=np.uint8)
    raw[:, 0:12] = f32(a).view(np.uint8).reshape(count, 12)
    raw[:, 12:16] = f32(b).view(np.uint8).reshape(count, 4)
    raw[:, 16:22] = np.asarray(h, dtype=np.float16).view(np.uint8).reshape(count, 6)
    raw[:, 24:32] = np.asarray(n, dtype=np.int32).view(np.uint8).reshape(count, 8)
    raw[:, 32:36] = np.asarray(c, dtype=np.uint8).reshape(count, 4)
    return raw.view(np.uint32).ravel()


def packed_vector_casts(case, desc, n_tg):
    k = "feat_packed_vector_casts"
    rng = rng_for(k, case)
    count = n_tg * 32
    a = rng.integers(-32, 33, size=(count, 3)) / 4.0          # quarters up to 8: exact in half
    b = rng.integers(-100, 100, size=count).astype(np.float64)
    h = (rng.integers(-16, 17, size=(count, 3)) / 4.0).astype(np.float16)
    n = rng.integers(-1000, 1001, size=(count, 2))
    c = rng.integers(0, 256, size=(count, 4))
    c[::5, 3] = 255  # wraps to 0 in uchar
    hf = h.astype(np.float64)
    a2 = 2.0 * a + hf
    h2 = a.astype(np.float16)
    assert np.array_equal(h2.astype(np.float64), a)
    n2 = np.trunc(2.5 * a[:, :2]).astype(np.int64)               # toward zero
    c2 = (c + 1) % 256
    b2 = hf[:, 2] + n[:, 0] + n[:, 1]
    out = np.zeros((count, 4))
    out[:, :3] = hf + a
    out[:, 3] = c[:, 3]
    c_ = Case(k, case, desc)
    c_.threadgroups([n_tg, 1, 1], [32, 1, 1])
    c_.read_write(0, "buf", pack(a, b, h, n, c), pack(a2, b2, h2, n2, c2), 0, 0,
                  "exact, as uint32 words: quarters below 24 in float, quarters below 8 in half, integers "
                  "(float to int toward zero, uchar modulo 256); the pad bytes stay 0")
    c_.write(1, "out", f32(out.ravel()), 0, 0, "exact: quarters below 16 and integers below 256")
    c_.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    packed_vector_casts("small", "3 threadgroups of 32, one struct each, every fifth c.w = 255", 3)
