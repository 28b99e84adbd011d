// The names Metal code may use that the emitted C++ reserves: C++ keywords,
// the standard library's macros, the runtime's names and the names the
// emitted functions declare where kernel code is in scope (naga's
// back/*/keywords.rs). passes::rename_reserved renames them.
#pragma once

#include <string>

#include "passes/rename_reserved.h"

namespace mslport::back::openmp {

bool is_reserved_in_cpp(const std::string& name, passes::NameScope scope);
passes::ReservedNames cpp_reserved_names();

}  // namespace mslport::back::openmp
