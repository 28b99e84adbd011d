// Which buffers a kernel reads and which it writes: for `mslport new-case`,
// which writes a golden case's skeleton from a kernel's signature (a buffer
// only read is an input, one only written an output, one both is
// read_write).
#pragma once

#include "ir/ir.h"

namespace mslport::ir::analysis {

struct BufferAccess {
  bool read = false;
  bool written = false;
};

// For each parameter of `k` (by position; meaningful for Param::Kind::Buffer,
// whose pointer the body reads or writes through). Pointers copied into
// local variables (`device float* row = out + r * n;`) count as the buffer,
// and so does every pointer expression derived from it. A pointer handed to
// a call the analysis cannot see into (any Metal function but the
// simdgroup_matrix load and store) counts as read and written. Run on a
// kernel whose helpers are inlined (passes::inline_functions).
std::vector<BufferAccess> buffer_accesses(const Kernel& k);

}  // namespace mslport::ir::analysis
