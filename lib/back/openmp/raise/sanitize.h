// Step (only for `mslport check --sanitize`): instruments the kernel for the
// checker of mslport/sanitizer_rt.h. Every access to threadgroup memory and
// device buffers becomes a checked access, simdgroup_matrix operations
// report to the checker, and the points the checker orders accesses by
// (barriers, SIMD-group functions, early returns) are marked by calls of
// their own. The calls are intrinsics (the names below) that the printer
// spells as methods of the threadgroup's checker; the default output never
// sees them.
#pragma once

#include <climits>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace mslport::back::openmp {

// EmitOptions::sanitize bits (the same values as mslport::san::kRace ...).
enum SanitizeCheck : unsigned { kSanitizeRace = 1, kSanitizeBounds = 2, kSanitizeInit = 4, kSanitizeDivergence = 8 };

// The intrinsics, with their operands. A site is an int literal indexing
// SanitizerSites; a region one of Checker's allocation ids (below).
//   *__mslport_san_access(site, use, region, T* address): the element,
//     checked (use: 0 read, 1 write, 2 read and write); mslport_san.ref
//   __mslport_san_tile_load / _tile_store(site, region, simdgroup_load's
//     or simdgroup_store's operands): the tile's elements, checked
//   __mslport_san_tile_op(site, op): `op`, counted for the divergence check
//   __mslport_san_barrier(site, device): a threadgroup_barrier (device:
//     mem_flags::mem_device), threadgroup level
//   __mslport_san_simd_sync(): a SIMD-group function or simdgroup_barrier,
//     threadgroup level
//   __mslport_san_returned(site): the work-item returned (the alive flag
//     went false)
constexpr const char* kSanAccess = "__mslport_san_access";
constexpr const char* kSanTileLoad = "__mslport_san_tile_load";
constexpr const char* kSanTileStore = "__mslport_san_tile_store";
constexpr const char* kSanTileOp = "__mslport_san_tile_op";
constexpr const char* kSanBarrier = "__mslport_san_barrier";
constexpr const char* kSanSimdSync = "__mslport_san_simd_sync";
constexpr const char* kSanReturned = "__mslport_san_returned";

// An ExprStmt calling kSanBarrier or kSanSimdSync: it runs once per
// threadgroup, where the statement it marks does.
bool is_sanitizer_sync_event(const ir::Stmt& s);

// The source locations the checker reports, by the index the intrinsics
// name (printed as `mslport_site_<kernel>_<index>`).
struct SanitizerSites {
  std::vector<ir::SourceLoc> locs;
  int site(const ir::SourceLoc& loc) {
    locs.push_back(loc);
    return int(locs.size()) - 1;
  }
};

// The allocations the checker knows, by region id: the static threadgroup
// allocations (their index), then the kernel parameters that are buffers or
// threadgroup memory (tg_allocs.size() + the parameter's index). An access
// through another pointer names a region to look up at run time.
constexpr int kRegionFindDevice = -1, kRegionFindThreadgroup = -2;  // sanitizer_rt.h
constexpr int kRegionNotChecked = INT_MIN;                          // private memory, constants by value

// Rewrites the lowered kernel (after passes::lower_synchronisation, so that
// the barriers and alive flags the lowering adds are instrumented too).
void instrument_for_sanitizer(ir::Kernel& k, SanitizerSites& sites);

}  // namespace mslport::back::openmp
