// docs/msl-support.md, rendered from the intrinsic table: which Metal
// functions each target supports and with what precision.
// tests/ir/intrinsic_table_test.cc fails when the file is not what this
// renders (MSLPORT_UPDATE_DOCS=1 rewrites it).
#pragma once

#include <string>

namespace mslport::ir {

std::string render_msl_support();

}  // namespace mslport::ir
