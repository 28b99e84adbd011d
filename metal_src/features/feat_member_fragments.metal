// A struct template that keeps its data as vector fragments whose length is
// a static constexpr member (`typedef vec<T, kElems> frag_type;`) and reads
// them as one array of elements through `reinterpret_cast<thread T*>` in
// its `thread` member functions: MLX's steel matrix tiles.
//
// Dispatch: dispatchThreads n, any threadgroup size.
//   the fragments hold b, b + 1, ..., b + 7 (b = x[i]) two by two;
//   out[i] = sum over f < 4 of (b + 2f) * (b + 2f + 1)
#include <metal_stdlib>
using namespace metal;

template <typename T>
struct Fragments {
  static constexpr constant int kElems = 2;
  static constexpr constant int kFrags = 4;
  typedef vec<T, kElems> frag_type;
  frag_type frags[kFrags];

  thread T* elems() thread { return reinterpret_cast<thread T*>(frags); }

  void fill(T base) thread {
    thread T* e = elems();
    for (int k = 0; k < kElems * kFrags; ++k) e[k] = base + T(k);
  }

  T products() const thread {
    T r = T(0);
    for (int f = 0; f < kFrags; ++f) r += frags[f].x * frags[f].y;
    return r;
  }
};

kernel void feat_member_fragments(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                                  uint i [[thread_position_in_grid]]) {
  Fragments<float> t;
  t.fill(x[i]);
  out[i] = t.products();
}
