// CXType -> ir::Type. clang computed every type already; this only maps the
// C++-for-OpenCL spelling of Metal types (ext vectors, address-space
// qualifiers, the shim's simdgroup_matrix) onto the IR's type vocabulary.
#pragma once

#include <clang-c/Index.h>

#include <optional>
#include <string>

#include "front/front_context.h"

namespace mslport::front {

// Returns nullopt and a reason ("type 'X'") when the type has no IR form.
// Qualifiers and the address space of a non-pointer value type are dropped
// (they belong to the object, not the value).
std::optional<ir::Type> convert_type(FrontContext& ctx, CXType t, std::string* why);

// The shim's struct for Metal's bool2/3/4 (__mslport_bool_vector<N>), as
// its declaration or a specialisation of it: the IR's bool vector.
bool is_bool_vector(const FrontContext& ctx, CXCursor record);

// The address space a clang type is qualified with (Private when none).
ir::AddressSpace address_space_of(CXType t);

// Registers the struct declared by `decl` (once) and returns its index into
// Module::structs, with Metal layout offsets.
std::optional<int> struct_index(FrontContext& ctx, CXCursor decl, std::string* why);

}  // namespace mslport::front
