// Step: the plan of a kernel's threadgroup function, built before anything is
// printed. It says what runs once per threadgroup (the raised IR's
// threadgroup-level statements, storage.h) and, for every loop over the
// work-items, which variant runs it: plain, split per SIMD group, one SIMD
// group at a time through a threadgroup loop, a second copy for when no
// work-item has returned, a copy whose stores bypass the cache; with its
// bounds, the values it declares, those hoisted before it and the reads it
// prefetches. print/kernel_printer.cc prints the plan and decides nothing.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "back/openmp/raise/loop_values.h"
#include "back/openmp/raise/prefix_guard.h"
#include "back/openmp/raise/row_prefetch.h"
#include "back/openmp/raise/sanitize.h"
#include "back/openmp/raise/storage.h"
#include "back/openmp/raise/streaming_stores.h"
#include "ir/ir.h"
#include "support/diagnostics.h"

namespace mslport::back::openmp {

// How a loop visits the work-items; x innermost with unit stride, so that
// thread_position_* along x is the induction variable the compiler
// vectorises over.
enum class LoopShape {
  Rows,            // for lz { for ly { for lx } }
  RowOpen,         // the lx loop alone, in the row a RowLoops choice opened
  SimdGroups,      // for lz, ly, each SIMD group sx { for lx in [sx, sx + 32) }: the lane
                   // is lx - sx, so `a[lane + 32 * k]` is a contiguous load
  SimdGroupLanes,  // the lane loop alone, in the SIMD group a SimdGroupMajor loop opened
};

// Where each row's x loop stops: the threadgroup's width, or the bound of
// the prefix guard around it (PrefixGuard::Index), computed before it.
enum class RowEnd { GroupWidth, BelowFlat, BelowX, BelowGridX };

struct WorkItemLoop {
  LoopShape shape = LoopShape::Rows;
  RowEnd end = RowEnd::GroupWidth;
  // `#pragma omp simd`: the work-items of a barrier interval are unordered
  // in Metal. Not for loops that leave early, that index a private array
  // per lane (gathers), or when sanitizing (the checker's calls in order).
  bool simd = false;
  LoopValues hoisted;  // a SIMD group's own values, declared before its lane loop
  LoopValues values;   // declared at the top of each work-item
  // What each work-item runs. Empty for the loops of a condition, a
  // collective or a loop step, whose node says what they run.
  std::vector<const ir::Stmt*> stmts;
  // `if (c) { ...; return; } rest` runs as `if (c) { ... } else { rest }`
  // (is_guard_return says which statements have that form).
  bool returns_as_if_else = false;
};

// The work-item lx = 0 of a row, run before the row's loop for an address
// (row_step.h): the loop's definitions it needs and their values.
struct FirstItem {
  std::vector<const ir::Stmt*> defs;
  LoopValues values;
};

// Copies of a region's loop, one chosen at run time, or the loop alone.
struct LoopChoice {
  enum class Kind {
    Loop,       // `loop`
    RowLoops,   // for lz { for ly { prefetches, staged stores, `loop` (RowOpen), streamed rows } }
    AllAlive,   // if (mslport_all_alive) { first, where the alive flag reads true } else { second }
    SimdWidth,  // if (geo.tg_size.x % 32 == 0) { first } else { second }
    Streamed,   // if (the launch stores past the cache) { first: RowLoops with streams } else { second }
  };
  Kind kind = Kind::Loop;
  WorkItemLoop loop;  // Loop, RowLoops
  // RowLoops: the reads asked for ahead, and their first work-item.
  PrefetchedReads prefetches;
  FirstItem prefetch_item;
  // RowLoops: the stores written per row with non-temporal stores.
  std::vector<StreamedStore> streams;
  std::vector<FirstItem> stream_items;
  // Streamed: the work-items the loop runs (as RowEnd counts them) and the
  // trip counts of the counted threadgroup loops around it.
  RowEnd items = RowEnd::GroupWidth;
  std::vector<const ir::Expr*> trips;
  std::unique_ptr<LoopChoice> first, second;
};

// A run of per-work-item statements between threadgroup-level ones.
struct Region {
  enum class Kind {
    Empty,          // only declarations the loops make themselves
    Loops,          // `loops`
    PrefixGuarded,  // `if (id < n) B` as loop bounds (prefix_guard.h): `guard`, then `loops` runs B
    PerWorkItem,    // returns that end only their work-item: `stmts` in a function per work-item
  };
  Kind kind = Kind::Empty;
  std::unique_ptr<LoopChoice> loops;
  std::optional<PrefixGuard> guard;
  std::vector<const ir::Stmt*> stmts;  // PerWorkItem
  LoopValues values;                   // PerWorkItem
  // The region can end work-items: mslport_all_alive is counted again after it.
  bool recount_all_alive = false;
};

// A threadgroup-uniform condition, evaluated once per threadgroup.
struct Condition {
  enum class Kind {
    Uniform,  // the expression itself
    Any,      // passes' loop vote: any work-item's operand (a loop over them)
    Agree,    // per work-item, with a run-time check that they agree
  };
  Kind kind = Kind::Uniform;
  const ir::Expr* expr = nullptr;
  WorkItemLoop loop;  // Any, Agree
  // Agree, sanitizing: the divergence finding's sites (the condition, and
  // the first synchronisation it guards; -1 for none).
  int site = -1, sync_site = -1;
};

// One threadgroup-level statement (or region) and what it needs.
struct TgNode {
  enum class Kind {
    Stmt,            // `stmt` as it is: a uniform declaration or expression, return, break,
                     // continue, a barrier's comment
    Skipped,         // nothing (its #line): a bare declaration the loops make, a prefetch
                     // hint whose address turned out per work-item
    Block,           // { body }
    If,              // if (cond) { body } else { else_body }
    UniformLoop,     // `stmt`, a loop with threadgroup-level init, condition and step: body
    SimdGroupMajor,  // if (x % 32 == 0) { for lz, ly, sx { body: one UniformLoop } } else { else_body: one }
    SyncLoop,        // `stmt`, a loop whose variable or condition is per work-item: `init`, `cond`
                     // each iteration (agreed on), body, then `step_loop` (or a uniform step)
    Collective,      // `stmt`: gather, combine (openmp_rt.h), scatter
    Region,          // `region` (no statement of its own when it is a run of them)
  };
  Kind kind = Kind::Stmt;
  const ir::Stmt* stmt = nullptr;
  std::vector<TgNode> body, else_body;
  Condition cond;
  Region region;
  std::vector<TgNode> init;               // SyncLoop: its init statement (zero or one node)
  std::optional<WorkItemLoop> step_loop;  // SyncLoop: a per-work-item step
  // Collective: the loop that gathers each lane's operands and the one that
  // hands each lane its result; sanitizing a shuffle, the site that checks
  // its source lanes (-1: none).
  WorkItemLoop gather, scatter;
  int shuffle_site = -1;
};

struct LoopPlan {
  std::vector<TgNode> body;
  int alive_var = -1;  // eliminate_returns' flag (-1: none): returned work-items skip the agreement checks
  // eliminate_returns' flag when the threadgroup function keeps
  // mslport_all_alive (-1: it does not): loops under `if (alive)` get a
  // copy for when no work-item has returned.
  int all_alive_var = -1;
  bool streams = false;                // some loop has a streaming copy: each thread fences after its threadgroups
  std::set<int> threadgroup_builtins;  // declared once at the top of the threadgroup function
};

struct LoopPlanOptions {
  bool sanitize = false;  // plain loops only, one work-item at a time
};

// `if (c) { ...; return; }` with no other return in it and no else.
bool is_guard_return(const ir::Stmt& s);

// Builds the plan of a raised kernel. Reports what the backend cannot run
// (a `continue` leaving a loop whose condition is per work-item); false then.
bool plan_loops(const ir::Kernel& k, const StoragePlan& storage, const LoopPlanOptions& options, SanitizerSites& sites,
                DiagEngine& diags, LoopPlan* out);

}  // namespace mslport::back::openmp
