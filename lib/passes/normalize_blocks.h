#pragma once
#include "ir/ir.h"
namespace mslport::passes {
// Makes every if/else and loop body a Block, so later passes can always
// insert statements next to a statement.
void normalize_blocks(ir::Kernel& k);
}  // namespace mslport::passes
