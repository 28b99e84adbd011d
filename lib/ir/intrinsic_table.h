// The table of Metal standard library functions (intrinsic_table.def): what
// each call becomes in the IR, how its result's uniformity and its effects
// follow, and how each backend lowers it. Every layer reads the rows; no
// layer after the front end matches a function by its name.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace mslport::ir {

enum class Intrinsic {
  None,  // not a Metal function (a call a backend's own step inserted)
#define INTRINSIC(Id, ...) Id,
#include "ir/intrinsic_table.def"
#undef INTRINSIC
};

enum class IntrinsicGroup {
  Math,
  Integer,
  Relational,
  Geometric,
  Common,
  Atomic,
  Simd,
  Quad,
  Synchronisation,
  SimdMatrix,
  Reinterpret,
  Internal
};
// The IR node a call becomes.
enum class IntrinsicForm { Call, Collective, Barrier, SimdMatrix, Bitcast };
// The uniformity of the result: that of the arguments, or fixed.
enum class IntrinsicUniformity { Args, Thread, Simdgroup, Threadgroup };
enum class IntrinsicEffect {
  Pure,
  Atomic,  // an atomic read-modify-write of what its first argument points to
  Sync,    // a step of the whole SIMD group or threadgroup
};

struct IntrinsicInfo {
  Intrinsic id;
  const char* name;  // Metal's
  IntrinsicGroup group;
  IntrinsicForm form;
  const char* signature;
  IntrinsicUniformity uniformity;
  IntrinsicEffect effect;
  // C++/OpenMP: the mslport::msl function a Call becomes; "*" the form's own
  // lowering; "" not supported.
  const char* openmp;
  // OpenCL C 1.2: "=" the builtin of the same name, another name that
  // builtin or prelude helper, "#" a rewrite of its own, "*" the form's own
  // lowering, "" not supported.
  const char* opencl;
  const char* precision;

  bool on_openmp() const { return openmp[0] != '\0'; }
  bool on_opencl() const { return opencl[0] != '\0'; }
  // The OpenCL builtin a Call becomes when it keeps or changes its name only.
  std::string opencl_builtin() const;
};

const std::vector<IntrinsicInfo>& intrinsic_table();
const IntrinsicInfo& intrinsic_info(Intrinsic id);
// The row for a Metal name as the front end spells it ("exp",
// "precise::exp", "atomic_fetch_add_explicit"), or nullopt.
std::optional<Intrinsic> intrinsic_named(const std::string& name);
const char* intrinsic_group_name(IntrinsicGroup g);

}  // namespace mslport::ir
