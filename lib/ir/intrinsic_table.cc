#include "ir/intrinsic_table.h"

#include <map>
#include <stdexcept>

namespace mslport::ir {

std::string IntrinsicInfo::opencl_builtin() const {
  std::string n = opencl;
  if (n != "=") return n;
  n = name;
  if (n.rfind("precise::", 0) == 0) n = n.substr(9);
  return n;
}

const std::vector<IntrinsicInfo>& intrinsic_table() {
  using G = IntrinsicGroup;
  using F = IntrinsicForm;
  using U = IntrinsicUniformity;
  using E = IntrinsicEffect;
  static const std::vector<IntrinsicInfo> kTable = {
#define INTRINSIC(Id, name, group, form, signature, uniformity, effect, openmp, opencl, precision) \
  {Intrinsic::Id, name, G::group, F::form, signature, U::uniformity, E::effect, openmp, opencl, precision},
#include "ir/intrinsic_table.def"
#undef INTRINSIC
  };
  return kTable;
}

const IntrinsicInfo& intrinsic_info(Intrinsic id) {
  if (id == Intrinsic::None) throw std::logic_error("intrinsic_info(Intrinsic::None)");
  // Rows are in enumerator order: None is 0, the first row 1.
  return intrinsic_table().at(static_cast<size_t>(id) - 1);
}

std::optional<Intrinsic> intrinsic_named(const std::string& name) {
  static const std::map<std::string, Intrinsic> kByName = [] {
    std::map<std::string, Intrinsic> m;
    for (auto& row : intrinsic_table()) m.emplace(row.name, row.id);
    return m;
  }();
  auto it = kByName.find(name);
  if (it == kByName.end()) return std::nullopt;
  return it->second;
}

const char* intrinsic_group_name(IntrinsicGroup g) {
  switch (g) {
    case IntrinsicGroup::Math: return "math";
    case IntrinsicGroup::Integer: return "integer";
    case IntrinsicGroup::Relational: return "relational";
    case IntrinsicGroup::Geometric: return "geometric";
    case IntrinsicGroup::Common: return "common";
    case IntrinsicGroup::Atomic: return "atomic";
    case IntrinsicGroup::Simd: return "SIMD-group";
    case IntrinsicGroup::Quad: return "quad-group";
    case IntrinsicGroup::Synchronisation: return "synchronisation";
    case IntrinsicGroup::SimdMatrix: return "simdgroup_matrix";
    case IntrinsicGroup::Reinterpret: return "reinterpretation";
    case IntrinsicGroup::Internal: return "internal";
  }
  return "?";
}

}  // namespace mslport::ir
