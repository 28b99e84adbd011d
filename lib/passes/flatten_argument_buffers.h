// Step: argument buffers (MSL 2.13). A kernel parameter whose struct holds
// pointers to device or constant memory (`constant Args& args [[buffer(0)]]`,
// `device Args* args`) is an argument buffer: the host stores the addresses
// of other buffers in it, as Metal 3's host writes a buffer's gpuAddress.
//
// Each pointer the kernel reads out of it (`args.x`, `args->inner.y`) becomes
// a Buffer parameter of its own, bound through the argument buffer
// (Param::argument_buffer_offset: the pointer's byte offset in it), and the
// parameter's struct becomes `S_slots`: S with each pointer an 8-byte slot
// (ulong) at the same offset, so its other fields read as before.
//
// Why: OpenCL C 1.2 cannot read a pointer out of a buffer (its host has no
// device addresses), so the pointee must be a kernel argument; doing it for
// both targets gives every backend, the sanitizer and the runtime an ordinary
// buffer to bind, bound and check.
//
// Refused, at the use: a pointer of an argument buffer that the kernel
// writes or takes the address of, one read through an array index, and the
// argument buffer (or a part holding pointers) read as a whole value.
//
// After inline_functions (a helper's uses are the kernel's by then), before
// rename_reserved (which renames the parameters it adds, like any other).
#pragma once

#include "ir/ir.h"
#include "support/diagnostics.h"

namespace mslport::passes {

bool flatten_argument_buffers(ir::Module& m, DiagEngine& diags);
// The same for one kernel of `m` (or a copy of one); the _slots structs
// go into `m`.
bool flatten_argument_buffers(ir::Module& m, ir::Kernel& k, DiagEngine& diags);

}  // namespace mslport::passes
