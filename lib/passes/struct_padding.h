#pragma once
#include "ir/ir.h"
#include "support/diagnostics.h"
namespace mslport::passes {
// Gives every struct its Metal layout (ir::StructDef offsets and size) in a
// C-like target that lays fields out naturally. Both targets' vectors have
// Metal's sizes and alignments, so natural layout is Metal's except where
// the source asks for more (`alignas`): there an explicit
// `uchar mslport_padN[k]` field fills each gap, before a field or at the
// end, and member indices and struct initialisers are renumbered. A layout
// that natural alignment cannot reach (a field before its natural offset)
// is reported at the struct. Sizes are of the Metal types, so a target
// whose storage types differ in size must run it on the Metal types.
bool pad_structs(ir::Module& m, DiagEngine& diags, const std::string& backend);
}  // namespace mslport::passes
