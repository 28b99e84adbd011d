// Names that the shared passes put into the IR and that analyses must
// recognise: the calls they insert and the flag variable of early returns.
// The passes create them; the analyses in ir/analysis/ read them.
#pragma once

namespace mslport::ir {

// `if (!__mslport_in_grid()) return;`: the OpenCL backend's grid guard
// (bool, per thread: false for the work-items a dispatchThreads grid rounds up).
constexpr const char* kInGrid = "__mslport_in_grid";
// `__mslport_threadgroup_any(c)`: true when c holds for any thread of the
// threadgroup (bool, the same for every thread); predicate_sync's loop vote.
constexpr const char* kThreadgroupAny = "__mslport_threadgroup_any";
// eliminate_returns' per-thread flag: false once the thread has returned.
constexpr const char* kAliveVarName = "mslport_alive";

}  // namespace mslport::ir
