// Temporaries: C++ materialises a prvalue where a reference needs an
// object ([class.temporary]), and Metal kernels lean on it.
//   * A functor called on a temporary: `Op()(x)` (MLX's unary kernels) and
//     `Op{}(x)`, a template operator() included. The object parameter of the
//     member call is bound to the temporary.
//   * A member function, one that changes its object, called on a brace
//     list's temporary: the change stays in the temporary.
//   * A struct temporary passed for a const reference parameter.
//   * A brace list of a struct as a value anywhere: assigned, read through a
//     member, stored to a buffer.
//
// Dispatch: a grid of n threads. For thread i, with x = in[i]:
//   out[i] = x*x                     (Square()(x))
//          + (2 + 1) * x + 1         (Affine{2, 1}.bump_apply(x): a becomes 3)
//          + 3                       (span(Pair{x, x + 3}))
//          + 5                       (Pair{x, 5}.hi)
//          + (x + 1)^2               (apply_op<Square>(x + 1), Square{}(...))
//   pairs[i] = Pair{x, -2x}, assigned over Pair{0, 0}
#include <metal_stdlib>
using namespace metal;

struct Square {
    template <typename T>
    T operator()(T x) thread { return x * x; }
};

struct Affine {
    float a;
    float b;
    float bump_apply(float x) thread {
        a += 1.0f;
        return a * x + b;
    }
};

struct Pair {
    float lo;
    float hi;
};

float span(const thread Pair& p) {
    return p.hi - p.lo;
}

template <typename Op>
float apply_op(float x) {
    return Op{}(x);
}

kernel void feat_temporary_objects(
    device const float* in    [[buffer(0)]],
    device float*       out   [[buffer(1)]],
    device Pair*        pairs [[buffer(2)]],
    uint i [[thread_position_in_grid]])
{
    float x = in[i];
    float r = Square()(x);
    r += Affine{2.0f, 1.0f}.bump_apply(x);
    r += span(Pair{x, x + 3.0f});
    r += Pair{x, 5.0f}.hi;
    r += apply_op<Square>(x + 1.0f);
    out[i] = r;
    Pair p = {0.0f, 0.0f};
    p = Pair{x, -2.0f * x};
    pairs[i] = p;
}
