// Uniformity analysis: which values and which control-flow points are the
// same for every thread of a threadgroup (or of a SIMD group).
//
// Levels are ordered; `join` takes the worse. `Unknown` is for values read
// from device/threadgroup memory: they may well be uniform, but nothing
// proves it, so a barrier under such a condition is checked at run time
// (CPU backend) rather than rejected.
#pragma once

#include <unordered_map>
#include <vector>

#include "ir/ir.h"

namespace mslport::ir::analysis {

enum class Uniformity {
  Threadgroup = 0,  // same for all threads of the threadgroup
  Simdgroup = 1,    // same within each SIMD group
  Unknown = 2,      // depends on memory contents
  Thread = 3,       // depends on the thread's position: provably varying
};
inline Uniformity join(Uniformity a, Uniformity b) { return a > b ? a : b; }
const char* uniformity_name(Uniformity u);

struct UniformityInfo {
  std::vector<Uniformity> vars;                             // per Kernel::vars
  std::unordered_map<const ir::Stmt*, Uniformity> control;  // control level a statement executes at
  // For loops: the level at which the loop decides to iterate again (its
  // condition, and any break/continue inside it).
  std::unordered_map<const ir::Stmt*, Uniformity> loop_level;
  // Level of an expression's value given the variable levels.
  Uniformity expr(const ir::Kernel& k, const ir::Expr& e) const;
  // As expr(), for IR a pass rewrote after the analysis: an expression that
  // reads a variable created since (an index past `vars`) is at `new_vars`,
  // the level the rewriting pass assumes for the variables it made.
  Uniformity expr_after_rewrite(const ir::Kernel& k, const ir::Expr& e, Uniformity new_vars) const;
  Uniformity control_of(const ir::Stmt* s) const {
    auto it = control.find(s);
    return it == control.end() ? Uniformity::Threadgroup : it->second;
  }
};

Uniformity builtin_uniformity(ir::BuiltinId b);
UniformityInfo analyze_uniformity(const ir::Kernel& k);

// True if the statement (transitively) contains a barrier or a collective.
bool contains_sync(const ir::Stmt& s);
bool contains_collective(const ir::Expr& e);
bool contains_return(const ir::Stmt& s);

}  // namespace mslport::ir::analysis
