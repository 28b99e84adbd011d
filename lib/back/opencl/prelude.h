// The helper functions an emitted .cl defines before its kernels: Metal
// builtins that OpenCL C 1.2 lacks (clipped edge threadgroups, bf16/half
// storage, SIMD-group collectives emulated through local memory, with a warp
// shuffle path for NVIDIA under #ifdef MSLPORT_NV_SHFL). Raise steps ask for
// what they use; only that is printed, in a stable order.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace mslport::back::opencl {

// 16-bit float formats stored as ushort bits (no cl_khr_fp16 on PoCL).
enum class NarrowFloat { BFloat, Half };
enum class NarrowConv {
  ToFloat,    // bits -> float
  FromFloat,  // float -> bits, round to nearest even
  Round,      // float -> float representable in the narrow format
};

class Prelude {
 public:
  // A fixed helper by name (e.g. "mslport_in_grid"); its dependencies come first.
  void require(const std::string& name);
  // SIMD-group collective `op` on values of OpenCL type `value_type` (after
  // raising: never bool, half or bfloat; bool votes use "int"). `is_float`
  // picks fmin/fmax over min/max. Returns the helper's name.
  std::string simd_helper(ir::CollectiveOp op, const std::string& value_type, bool is_float);
  // Collectives of bools (all, any, ballots, is_first, active-thread
  // masks): their helpers take and combine ints.
  static bool is_vote(ir::CollectiveOp op);
  // simd_ / quad_shuffle_and_fill_*: (data, filling, delta, modulo), the
  // modulo 0 where the call has none.
  static bool is_fill(ir::CollectiveOp op);
  // Conversion for `width` lanes (1 = scalar). Returns the helper's name.
  std::string narrow_helper(NarrowFloat kind, NarrowConv conv, int width);
  // simdgroup_matrix<T, 8, 8> helpers (raise/simdgroup_matrix.cc): `op` is
  // "load" / "store" (with the pointer's address space qualifier, e.g.
  // "__global"), "multiply", "multiply_accumulate" or "filled"; `format`
  // the tile's element type ("float", "half", "bfloat": half and bfloat
  // memory is ushort bits, and their tiles hold floats rounded to them).
  // Returns the helper's name; the matrix type is kSimdMatrixType.
  std::string simdgroup_matrix_helper(const std::string& op, const std::string& space = "",
                                      const std::string& format = "float");
  // Defines the matrix type itself (a struct of 64 floats); returns its name.
  std::string simdgroup_matrix_type();
  static constexpr const char* kSimdMatrixType = "mslport_simdgroup_float8x8";
  // Metal's fract(x) for float`width`. Returns the helper's name.
  std::string fract_helper(int width);
  // Metal functions OpenCL C 1.2 lacks (ctz, reverse_bits, extract_bits,
  // insert_bits, median3, fmedian3, length_squared, distance_squared), for
  // arguments of OpenCL type `type` ("uint4", "float"): the helper's name,
  // or "" for types it does not serve (prelude_stdlib.cc).
  std::string stdlib_helper(ir::Intrinsic id, const std::string& type);
  // Metal's atomic function `id` on an atomic `value` in `space` ("global"
  // or "local"): the OpenCL 1.2 builtin or the helper (compare-and-swap
  // loops where OpenCL has no builtin), or "" (prelude_stdlib.cc).
  std::string atomic_helper(ir::Intrinsic id, ir::ScalarKind value, const std::string& space);

  // Drops the helpers that neither `called` nor the kept helpers call (a
  // raise step may define a helper and later rewrite its call away).
  void keep_only(const std::set<std::string>& called);

  bool empty() const { return items_.empty(); }
  // The helpers' definitions, dependencies first.
  std::string text() const;

 private:
  struct Item {
    std::string name, text;
    std::vector<std::string> deps;
  };
  void add(const std::string& name, const std::string& text, std::vector<std::string> deps = {});
  // NVIDIA warp-shuffle path of a SIMD-group helper (under #ifdef
  // MSLPORT_NV_SHFL, taken when mslport_nv_warps holds), or "" for value
  // types it does not handle (they keep the emulation everywhere).
  std::string fill_helper(ir::CollectiveOp op, const std::string& value_type);
  std::string nv_simd_fast_path(ir::CollectiveOp op, const std::string& value_type, bool is_float);
  // Defines mslport_nv_shfl_{idx,bfly,up}_T; returns the item's name.
  std::string nv_shuffle_helper(const std::string& value_type);
  std::vector<Item> items_;
  std::set<std::string> have_;
};

}  // namespace mslport::back::opencl
