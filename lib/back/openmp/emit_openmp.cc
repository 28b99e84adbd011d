// C++/OpenMP backend: lowers each kernel (passes::lower_execution_model),
// plans its work-item loops (work_item_loops.h) and prints
//   * a per-threadgroup function: threadgroup-level statements once,
//     everything else in `for (wi = 0; wi < nthreads; ++wi)` loops;
//   * a typed entry point (buffers as typed pointers, constant structs by
//     reference, dispatch geometry) that runs threadgroups in parallel;
//   * a generic extern "C" entry (mslport_args) for the runner.
#include "back/openmp/emit_openmp.h"

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "back/openmp/cpp_printer.h"
#include "back/openmp/invariant_division.h"
#include "back/openmp/keywords.h"
#include "back/openmp/prefix_guard.h"
#include "back/openmp/row_prefetch.h"
#include "back/openmp/sanitize.h"
#include "back/openmp/streaming_stores.h"
#include "back/openmp/work_item_loops.h"
#include "passes/eliminate_returns.h"
#include "passes/hoist_collectives.h"
#include "back/openmp/raise/loop_schedule_points.h"
#include "passes/lower_execution_model.h"
#include "passes/predicate_sync.h"
#include "passes/rename_reserved.h"

namespace mslport::back::openmp {
using namespace ir;
using ir::analysis::Uniformity;

namespace {

std::string loc_string(const SourceLoc& l) {
  std::string f = std::filesystem::path(l.file).filename().string();
  return f + ":" + std::to_string(l.line) + ":" + std::to_string(l.col);
}

class KernelEmitter {
 public:
  // `metal_name`: the kernel's name in the source, which the runner looks
  // up (k.name is the C++ one, renamed where C++ reserves it).
  KernelEmitter(const Module& m, const Kernel& k, const std::string& metal_name, const EmitOptions& opt,
                DiagEngine& diags)
      : m_(m), k_(k), metal_name_(metal_name), opt_(opt), diags_(diags), plan_(plan_work_item_loops(k)), p_(m, &k, &plan_, diags) {
    if (opt.sanitize) {
      san_ = std::make_unique<Sanitizer>(k, opt.sanitize);
      p_.set_sanitizer(san_.get());
    }
  }

  bool emit(std::ostringstream& cpp, std::ostringstream& header);

 private:
  // ---- output helpers
  void line(const std::string& s) { body_ << std::string(indent_ * 2, ' ') << s << "\n"; }
  void line_directive(const SourceLoc& l) {
    if (opt_.line_directives && l.valid()) body_ << "#line " << l.line << " \"" << l.file << "\"\n";
  }
  std::string ex(const Expr& e, bool wi) { return p_.expr(e, wi); }

  // ---- builtins
  std::string builtin_value(const Param& p, bool wi) const;
  std::set<int> builtins_used(const std::vector<const Stmt*>& stmts, const std::vector<const Expr*>& exprs) const;
  // The statements (or the recomputed values they read) use the SIMD lane or
  // SIMD-group index.
  bool uses_simd_lanes(const std::vector<const Stmt*>& stmts) const;
  // The statements read or write a private array at an index that differs
  // between the work-items of a SIMD group (`lut[nibble]`).
  bool indexes_private_array_per_lane(const std::vector<const Stmt*>& stmts) const;
  // Storage::Remat variables these statements use but do not declare, in
  // declaration order (dependencies first).
  std::vector<int> remat_used(const std::vector<const Stmt*>& stmts, const std::vector<const Expr*>& exprs) const;
  // What a work-item loop declares at its top for its statements (and the
  // values `exprs`): the per-work-item builtins and the recomputed variables
  // (dependencies first) they read.
  struct LoopValues {
    std::set<int> builtins;  // Kernel::params indices
    std::vector<int> remat;  // Kernel::vars indices
  };
  LoopValues loop_values(const std::vector<const Stmt*>& stmts, const std::vector<const Expr*>& exprs) const;
  // Declares, at the top of a work-item loop, the builtins and recomputed
  // variables the loop's statements use.
  void work_item_values(const std::vector<const Stmt*>& stmts, const std::vector<const Expr*>& exprs) {
    work_item_values(stmts, exprs, loop_values(stmts, exprs));
  }
  void work_item_values(const std::vector<const Stmt*>& stmts, const std::vector<const Expr*>& exprs,
                        const LoopValues& values);
  void declare_remat(int var) {
    line(p_.declarator(k_.vars[var].type, k_.vars[var].name) + " = " + ex(*plan_.remat_init[var], true) + ";");
  }
  // In a loop over one SIMD group's lanes, declares before the loop the
  // SIMD-group index and the recomputed values built only from it and from
  // uniform values (`row = tgid * 8 + simd_group`, `w_row = W + row * n`):
  // computed per lane, the compiler sees a vector of rows and gathers
  // through them; declared once, a row's reads are contiguous loads.
  // Takes what it declares out of `values`, so that work_item_values
  // declares only the rest, in the loop.
  void simd_group_values(LoopValues* values);
  // allow_simd = false for loops that leave early (return / divergence checks).
  // x_end: where each row's x loop stops (a prefix guard's bound).
  void open_work_item_loop(const std::vector<const Stmt*>& stmts, const std::vector<const Expr*>& exprs,
                           bool allow_simd = true, const std::string& x_end = "geo.tg_size.x");
  // Whether open_work_item_loop makes the loop `omp simd`.
  bool loop_is_simd(const std::vector<const Stmt*>& stmts, bool allow_simd) const;
  // A whole work-item loop (lz, ly, lx) running `body`; when some of its
  // stores can bypass the cache (streaming_stores.h), with a second copy
  // that does, chosen per run. `items`: how many work-items the loop runs in
  // this threadgroup (C++), for that choice.
  void x_loop(const std::vector<const Stmt*>& stmts, bool allow_simd, const std::string& x_end,
              const std::string& items, const std::function<void()>& body);
  void close_work_item_loop() {
    --indent_;
    line(simd_chunked_ && !simd_group_major_ ? "}}" : "}");
    const bool scope = !hoist_scopes_.empty() && hoist_scopes_.back();
    if (!hoist_scopes_.empty()) hoist_scopes_.pop_back();
    if (scope) {
      --indent_;
      line("}");
    }
  }
  // Emits a work-item loop running `body` over every work-item. When the
  // statements use the SIMD lane or SIMD-group index, threadgroups whose x
  // size is a multiple of 32 get the loop split per SIMD group, where the
  // lane is the induction variable minus a constant: `a[lane + 32 * k]`
  // becomes a contiguous vector load instead of a gather (wi % 32 hides the
  // stride from the compiler). Other sizes take the plain loop.
  void work_item_loop(const std::vector<const Stmt*>& stmts, const std::function<void()>& body);

  // ---- statements
  void tg_block(const Stmt& b);
  void tg_stmt(const Stmt& s);
  // A threadgroup-level loop whose iterations are only work-item loops over
  // SIMD lanes (a schedule point put them there: passes/loop_schedule_points.h)
  // can run one SIMD group at a time through all its iterations.
  bool runs_simd_group_major(const Stmt& loop) const;
  void uniform_loop(const Stmt& s);
  // The trip count of a threadgroup-level `for (v = 0; v < N; ++v)` (N as
  // C++), for x_loop's estimate of what a launch writes.
  std::optional<std::string> counted_trips(const Stmt& s);
  void wi_region(const std::vector<const Stmt*>& stmts);
  void wi_region_loops(const std::vector<const Stmt*>& stmts);
  // `if (tid < n) B` as a whole region: a loop over the passing work-items
  // running B (prefix_guard.h). False, emitting nothing, when `g` is empty
  // or its body needs the test.
  bool prefix_guarded_loop(const std::optional<PrefixGuard>& g);
  // Inside a row's loops (lz, ly open), when the row has work-items:
  // `defs` and the values `exprs` need, printed for lx = 0, then `then()`,
  // which prints what uses them (a row's first address).
  void first_item_of_row(const std::vector<const Stmt*>& defs, const std::vector<const Expr*>& exprs,
                         const std::string& x_end, const std::string& comment, const std::function<void()>& then);
  // Inside a row's loops: mslport::prefetch_ahead for each read, at its
  // address for lx = 0 (row_prefetch.h).
  void prefetch_rows(const PrefetchedReads& reads, const std::string& x_end);
  // eliminate_returns' `alive` flags are kept per work-item across loops:
  // the threadgroup function also keeps `mslport_all_alive`.
  bool tracks_all_alive() const {
    return alive_var_ >= 0 && !san_ && plan_.storage[alive_var_] == Storage::PerThread;
  }
  void wi_stmt(const Stmt& s);
  void wi_block_contents(const Stmt& b);
  static bool is_guard_return(const Stmt& s);
  void guarded_stmts(const std::vector<const Stmt*>& stmts, size_t from);
  void collective(const Stmt& s);
  // Evaluates a condition once per threadgroup; if it involves per-thread
  // values, evaluates it per thread and reports divergence.
  std::string tg_condition(const Expr& cond, const SourceLoc& where, const Stmt* body = nullptr);

  const Module& m_;
  const Kernel& k_;
  const std::string& metal_name_;
  const EmitOptions& opt_;
  DiagEngine& diags_;
  WorkItemPlan plan_;
  CppPrinter p_;
  std::unique_ptr<Sanitizer> san_;  // only when sanitizing
  std::ostringstream body_;
  int indent_ = 1;
  int counter_ = 0;
  bool ok_ = true;
  std::vector<std::string> state_members_;
  int alive_var_ = -1;
  bool returns_if_converted_ = false;  // the loop being opened has its returns as if/else
  bool simd_chunked_ = false;          // the loop being emitted runs one SIMD group per chunk
  bool simd_group_major_ = false;      // inside runs_simd_group_major's loop: lz, ly and the SIMD group are open
  bool no_simd_chunks_ = false;        // its other copy, for x sizes that are no multiple of 32
  bool versioned_ = false;             // inside work_item_loop's two copies
  bool rows_open_ = false;             // x_loop's streaming copy opened the lz and ly loops itself
  std::vector<bool> hoist_scopes_;     // per open work-item loop: simd_group_values opened a `{` for it
  std::set<int> write_only_;           // streaming_stores.h's write_only_buffers
  RowPrefetchFacts row_prefetch_facts_;  // row_prefetch.h's facts about the kernel
  std::map<const Stmt*, int> staged_;  // stores printed into row buffer N (x_loop's streaming copy)
  std::vector<std::string> trips_;     // trip counts of the counted threadgroup-level loops being emitted
  bool streams_ = false;               // some loop has x_loop's streaming copy: the entry fences
};

std::string KernelEmitter::builtin_value(const Param& p, bool) const {
  bool scalar = p.type.is_scalar();
  auto pick = [&](const std::string& v3) { return scalar ? v3 + ".x" : (p.type.count == 2 ? "mslport::swizzle<0, 1>(" + v3 + ")" : v3); };
  switch (p.builtin) {
    case BuiltinId::ThreadPositionInGrid:
      return scalar ? "geo.tg_pos.x * geo.full_size.x + lx"
                    : pick("mslport::vec<uint32_t, 3>{geo.tg_pos.x * geo.full_size.x + lx, "
                           "geo.tg_pos.y * geo.full_size.y + ly, geo.tg_pos.z * geo.full_size.z + lz}");
    case BuiltinId::ThreadPositionInThreadgroup:
      return scalar ? "lx" : pick("mslport::vec<uint32_t, 3>{lx, ly, lz}");
    case BuiltinId::ThreadgroupPositionInGrid: return pick("geo.tg_pos");
    case BuiltinId::ThreadsPerThreadgroup: return pick("geo.tg_size");
    case BuiltinId::ThreadsPerGrid: case BuiltinId::GridSize: return pick("geo.grid");
    case BuiltinId::ThreadgroupsPerGrid: return pick("geo.ngroups");
    case BuiltinId::DispatchThreadsPerThreadgroup: return pick("geo.full_size");
    case BuiltinId::GridOrigin: return scalar ? "0u" : "mslport::vec<uint32_t, 3>{0u, 0u, 0u}";
    case BuiltinId::ThreadIndexInThreadgroup: return "wi";
    case BuiltinId::ThreadIndexInSimdgroup:
      return simd_chunked_ ? "(lx - mslport_sx)" : "wi % mslport::kSimdWidth";
    case BuiltinId::SimdgroupIndexInThreadgroup:
      return simd_chunked_ ? "((wi - (lx - mslport_sx)) / mslport::kSimdWidth)" : "wi / mslport::kSimdWidth";
    case BuiltinId::ThreadsPerSimdgroup: return "mslport::kSimdWidth";
    case BuiltinId::SimdgroupsPerThreadgroup: return "(geo.nthreads + mslport::kSimdWidth - 1) / mslport::kSimdWidth";
  }
  return "0";
}

std::vector<int> KernelEmitter::remat_used(const std::vector<const Stmt*>& stmts,
                                           const std::vector<const Expr*>& exprs) const {
  // Every recomputed variable the statements read, with the recomputed
  // variables those read, declared at the top of the loop (their own
  // declarations in the statements emit nothing), dependencies first.
  std::set<int> used;
  std::vector<const Expr*> todo;
  auto note = [&](const Expr& e) {
    walk_exprs(e, [&](const Expr& x) {
      if (x.kind == Expr::Kind::VarRef && plan_.storage[x.index] == Storage::Remat && used.insert(x.index).second)
        todo.push_back(plan_.remat_init[x.index]);
      return true;
    });
    return false;
  };
  for (auto* s : stmts) walk_stmt_exprs(*s, note);
  for (auto* e : exprs) if (e) note(*e);
  while (!todo.empty()) {
    const Expr* e = todo.back();
    todo.pop_back();
    note(*e);
  }
  std::vector<int> out;
  std::set<int> placed;
  while (placed.size() < used.size()) {
    size_t before = placed.size();
    for (int v : used) {
      if (placed.count(v)) continue;
      bool ready = true;
      walk_exprs(*plan_.remat_init[v], [&](const Expr& x) {
        if (x.kind == Expr::Kind::VarRef && plan_.storage[x.index] == Storage::Remat && !placed.count(x.index))
          ready = false;
        return ready;
      });
      if (!ready) continue;
      placed.insert(v);
      out.push_back(v);
    }
    if (placed.size() == before) break;  // cannot happen: definitions precede uses
  }
  return out;
}

KernelEmitter::LoopValues KernelEmitter::loop_values(const std::vector<const Stmt*>& stmts,
                                                    const std::vector<const Expr*>& exprs) const {
  LoopValues values;
  values.remat = remat_used(stmts, exprs);
  std::vector<const Expr*> all = exprs;
  for (int v : values.remat) all.push_back(plan_.remat_init[v]);
  values.builtins = builtins_used(stmts, all);
  return values;
}

void KernelEmitter::simd_group_values(LoopValues* values) {
  if (san_) return;
  std::vector<int> builtins;
  for (int i : values->builtins)
    if (ir::analysis::builtin_uniformity(k_.params[i].builtin) == Uniformity::Simdgroup) builtins.push_back(i);
  std::set<int> vars;
  auto group_level = [&](const Expr& init) {
    bool ok = true;
    walk_exprs(init, [&](const Expr& x) {
      if (x.kind == Expr::Kind::ParamRef && k_.params[x.index].kind == Param::Kind::Builtin)
        ok = ok && ir::analysis::builtin_uniformity(k_.params[x.index].builtin) <= Uniformity::Simdgroup;
      if (x.kind == Expr::Kind::VarRef && plan_.storage[x.index] == Storage::Remat)
        ok = ok && vars.count(x.index);
      return ok;
    });
    return ok;
  };
  std::vector<int> in_loop, hoisted;
  for (int v : values->remat)  // dependencies first
    if (group_level(*plan_.remat_init[v])) {
      vars.insert(v);
      hoisted.push_back(v);
    } else {
      in_loop.push_back(v);
    }
  if (builtins.empty() && hoisted.empty()) return;
  if (simd_group_major_) {  // the loop shares its block with others: a scope of its own
    line("{");
    ++indent_;
    hoist_scopes_.back() = true;
  }
  for (int i : builtins) {
    const Param& p = k_.params[i];
    line("const " + p_.type(p.type) + " " + p.name +
         " = (mslport_sx + geo.tg_size.x * (ly + geo.tg_size.y * lz)) / mslport::kSimdWidth;");
    values->builtins.erase(i);
  }
  for (int v : hoisted) declare_remat(v);
  values->remat = in_loop;
}

void KernelEmitter::work_item_values(const std::vector<const Stmt*>& stmts, const std::vector<const Expr*>& exprs,
                                     const LoopValues& values) {
  for (int i : values.builtins) {
    const Param& p = k_.params[i];
    line("const " + p_.type(p.type) + " " + p.name + " = " + builtin_value(p, true) + ";");
  }
  for (int v : values.remat) declare_remat(v);
  std::set<int> used;
  auto note = [&](const Expr& e) {
    walk_exprs(e, [&](const Expr& x) {
      if (x.kind == Expr::Kind::VarRef && plan_.declared_in_loop.count(x.index)) used.insert(x.index);
      return true;
    });
    return false;
  };
  for (auto* s : stmts) walk_stmt_exprs(*s, note);
  for (auto* e : exprs) if (e) note(*e);
  for (int v : used) line(p_.declarator(k_.vars[v].type, k_.vars[v].name) + "{};");
}

std::set<int> KernelEmitter::builtins_used(const std::vector<const Stmt*>& stmts,
                                           const std::vector<const Expr*>& exprs) const {
  std::set<int> used;
  auto note = [&](const Expr& e) {
    walk_exprs(e, [&](const Expr& x) {
      if (x.kind == Expr::Kind::ParamRef && k_.params[x.index].kind == Param::Kind::Builtin &&
          ir::analysis::builtin_uniformity(k_.params[x.index].builtin) != Uniformity::Threadgroup)
        used.insert(x.index);
      return true;
    });
    return false;
  };
  for (auto* s : stmts) walk_stmt_exprs(*s, note);
  for (auto* e : exprs) if (e) note(*e);
  return used;
}

static bool reads_var(const std::vector<const Stmt*>& stmts, int var) {
  bool found = false;
  for (auto* s : stmts)
    walk_stmt_exprs(*s, [&](const Expr& x) {
      found = found || (x.kind == Expr::Kind::VarRef && x.index == var);
      return !found;
    });
  return found;
}

static bool writes_var(const std::vector<const Stmt*>& stmts, int var) {
  for (auto* s : stmts)
    if (vars_written(*s).count(var)) return true;
  return false;
}

bool KernelEmitter::uses_simd_lanes(const std::vector<const Stmt*>& stmts) const {
  for (int i : loop_values(stmts, {}).builtins) {
    BuiltinId b = k_.params[i].builtin;
    if (b == BuiltinId::ThreadIndexInSimdgroup || b == BuiltinId::SimdgroupIndexInThreadgroup) return true;
  }
  return false;
}

bool KernelEmitter::indexes_private_array_per_lane(const std::vector<const Stmt*>& stmts) const {
  bool found = false;
  for (auto* s : stmts)
    walk_stmt_exprs(*s, [&](const Expr& e) {
      walk_exprs(e, [&](const Expr& x) {
        if (x.kind == Expr::Kind::Index && x.args[0]->kind == Expr::Kind::VarRef &&
            k_.vars[x.args[0]->index].type.is_array() &&
            plan_.uniformity.expr(k_, *x.args[1]) > Uniformity::Simdgroup)
          found = true;
        return !found;
      });
      return false;
    });
  return found;
}

void KernelEmitter::work_item_loop(const std::vector<const Stmt*>& stmts, const std::function<void()>& body) {
  // Statements under eliminate_returns' `if (alive)` get a second copy of
  // their loops for when no work-item of the group has returned: there the
  // test is known true and the loads under it are plain vector loads, not
  // masked ones (measured on AVX-512: weighted_sum_stacked_f32 19 -> 29
  // GB/s). Not where the statements themselves end work-items, and not
  // when sanitizing (the checker wants the one copy).
  if (tracks_all_alive() && !versioned_ && reads_var(stmts, alive_var_) && !writes_var(stmts, alive_var_)) {
    const bool converted = returns_if_converted_;
    versioned_ = true;
    line("if (mslport_all_alive) {  // no work-item has returned: the loops below without the `alive` test");
    ++indent_;
    p_.set_known_true(alive_var_);
    work_item_loop(stmts, body);
    p_.set_known_true(-1);
    --indent_;
    line("} else {");
    ++indent_;
    returns_if_converted_ = converted;
    work_item_loop(stmts, body);
    versioned_ = false;
    --indent_;
    line("}");
    return;
  }
  if (simd_group_major_) {
    open_work_item_loop(stmts, {});
    body();
    close_work_item_loop();
    return;
  }
  if (!uses_simd_lanes(stmts) || san_ || no_simd_chunks_) {
    x_loop(stmts, true, "geo.tg_size.x", "geo.nthreads", body);
    return;
  }
  const bool converted = returns_if_converted_;  // read by each open_work_item_loop
  line("if (geo.tg_size.x % mslport::kSimdWidth == 0) {");
  ++indent_;
  simd_chunked_ = true;
  open_work_item_loop(stmts, {});
  body();
  close_work_item_loop();
  simd_chunked_ = false;
  --indent_;
  line("} else {");
  ++indent_;
  returns_if_converted_ = converted;
  open_work_item_loop(stmts, {});
  body();
  close_work_item_loop();
  --indent_;
  line("}");
}

void KernelEmitter::open_work_item_loop(const std::vector<const Stmt*>& stmts, const std::vector<const Expr*>& exprs,
                                        bool allow_simd, const std::string& x_end) {
  // x innermost with unit stride, so thread_position_* along x is a plain
  // induction variable the compiler can vectorise over.
  if (!simd_group_major_ && !rows_open_) {
    line("for (uint32_t lz = 0; lz < geo.tg_size.z; ++lz)");
    line("for (uint32_t ly = 0; ly < geo.tg_size.y; ++ly)");
  }
  const bool simd = loop_is_simd(stmts, allow_simd);
  // Sanitizing: the checker's calls must run in order.
  p_.set_scalar_work_items(!simd || san_);
  LoopValues values = loop_values(stmts, exprs);
  hoist_scopes_.push_back(false);
  if (simd_chunked_) {
    if (!simd_group_major_)
      line("for (uint32_t mslport_sx = 0; mslport_sx < geo.tg_size.x; mslport_sx += mslport::kSimdWidth) {");
    simd_group_values(&values);
    if (simd && !san_) line("#pragma omp simd");
    line("for (uint32_t lx = mslport_sx; lx < mslport_sx + mslport::kSimdWidth; ++lx) {");
  } else {
    if (simd && !san_) line("#pragma omp simd");
    line("for (uint32_t lx = 0; lx < " + x_end + "; ++lx) {");
  }
  ++indent_;
  line("const uint32_t wi = lx + geo.tg_size.x * (ly + geo.tg_size.y * lz);");
  work_item_values(stmts, exprs, values);
}

void KernelEmitter::first_item_of_row(const std::vector<const Stmt*>& defs, const std::vector<const Expr*>& exprs,
                                      const std::string& x_end, const std::string& comment,
                                      const std::function<void()>& then) {
  line("if (" + x_end + " > 0) {" + (comment.empty() ? "" : "  // " + comment));
  ++indent_;
  line("const uint32_t lx = 0, wi = lx + geo.tg_size.x * (ly + geo.tg_size.y * lz);");
  line("(void)wi;");
  p_.set_scalar_work_items(true);
  work_item_values(defs, exprs);
  for (const Stmt* d : defs) wi_stmt(*d);
  then();
  --indent_;
  line("}");
}

void KernelEmitter::prefetch_rows(const PrefetchedReads& reads, const std::string& x_end) {
  if (reads.reads.empty()) return;
  std::vector<const Expr*> indices;
  for (const PrefetchedRead& r : reads.reads) indices.push_back(r.read->args[1].get());
  first_item_of_row(reads.index_defs, indices, x_end, "the lines this thread's next threadgroups read, about 16 KB on",
                    [&] {
                      for (const PrefetchedRead& r : reads.reads) {
                        const std::string row_bytes = "geo.tg_size.x * sizeof(*" + k_.params[r.buffer].name + ")";
                        line("mslport::prefetch_ahead(&" + ex(*r.read, true) + ", " + row_bytes + ", " + row_bytes +
                             ");");
                      }
                    });
}

bool KernelEmitter::loop_is_simd(const std::vector<const Stmt*>& stmts, bool allow_simd) const {
  // Work-items of one barrier interval are unordered in Metal (a race-free
  // kernel has no dependence between them), so the loop over them may run
  // as SIMD lanes, like a GPU's. Loops that leave early stay scalar.
  bool simd = allow_simd;
  // Vectorised, every access to a private array at a per-lane index is a
  // gather or a scatter, and `omp simd` makes the compiler vectorise
  // whatever its cost model says: dequant_matvec_4bit_v5, which rebuilds and
  // reads a 16-entry table per lane, ran 2x slower that way than scalar.
  simd = simd && !indexes_private_array_per_lane(stmts);
  if (!returns_if_converted_)
    for (auto* s : stmts) simd = simd && !ir::analysis::contains_return(*s);
  return simd;
}

void KernelEmitter::x_loop(const std::vector<const Stmt*>& stmts, bool allow_simd, const std::string& x_end,
                           const std::string& items, const std::function<void()>& body) {
  std::vector<StreamedStore> streamed;
  if (!san_ && !simd_group_major_ && !simd_chunked_ && staged_.empty() && loop_is_simd(stmts, allow_simd))
    streamed = find_streamed_stores(k_, plan_, write_only_, stmts, p_.known_true());
  PrefetchedReads reads;
  if (!san_ && !simd_group_major_ && !simd_chunked_ && !rows_open_)
    reads = find_prefetched_reads(k_, plan_, stmts, p_.known_true(), row_prefetch_facts_);
  // The plain loop; with reads to prefetch, each row (ly, lz) first asks for
  // the lines this thread's next threadgroups read.
  auto plain_loop = [&] {
    if (reads.reads.empty()) {
      open_work_item_loop(stmts, {}, allow_simd, x_end);
      body();
      close_work_item_loop();
      return;
    }
    line("for (uint32_t lz = 0; lz < geo.tg_size.z; ++lz)");
    line("for (uint32_t ly = 0; ly < geo.tg_size.y; ++ly) {");
    ++indent_;
    prefetch_rows(reads, x_end);
    rows_open_ = true;
    open_work_item_loop(stmts, {}, allow_simd, x_end);
    rows_open_ = false;
    body();
    close_work_item_loop();
    --indent_;
    line("}");
  };
  if (streamed.empty()) {
    plain_loop();
    return;
  }
  streams_ = true;
  const bool converted = returns_if_converted_;  // read by each open_work_item_loop
  std::string stores = items, item_bytes, names;
  for (const std::string& t : trips_) stores += " * uint64_t(" + t + ")";
  for (size_t i = 0; i < streamed.size(); ++i) {
    const Param& p = k_.params[streamed[i].buffer];
    item_bytes += (i ? " + sizeof(*" : "sizeof(*") + p.name + ")";
    names += (i ? ", " : "") + p.name;
  }
  line("if (mslport::streams_past_cache(geo, " + stores + ", " + item_bytes + ")) {  // " + names +
       ": rows staged, then written with non-temporal stores");
  ++indent_;
  line("for (uint32_t lz = 0; lz < geo.tg_size.z; ++lz)");
  line("for (uint32_t ly = 0; ly < geo.tg_size.y; ++ly) {");
  ++indent_;
  for (size_t i = 0; i < streamed.size(); ++i) {
    const StreamedStore& store = streamed[i];
    const std::string n = std::to_string(i), elem = p_.type(*k_.params[store.buffer].type.elem);
    const Expr& target = *store.stmt->expr->args[0];  // P[E]
    line(elem + "* mslport_row" + n + " = nullptr;");
    line("alignas(64) " + elem + " mslport_stage" + n + "[mslport::kMaxThreads];");
    // Where the row's stores start: E with lx = 0. (Taken from the loop as a
    // last value instead, `omp simd lastprivate`, swiglu_fused ran 1.2x slower.)
    first_item_of_row(store.index_defs, {target.args[1].get()}, x_end, "",
                      [&] { line("mslport_row" + n + " = &" + ex(target, true) + ";"); });
    staged_[store.stmt] = (int)i;
  }
  prefetch_rows(reads, x_end);
  rows_open_ = true;
  open_work_item_loop(stmts, {}, allow_simd, x_end);
  rows_open_ = false;
  body();
  close_work_item_loop();
  staged_.clear();
  for (size_t i = 0; i < streamed.size(); ++i) {
    const std::string n = std::to_string(i);
    line("mslport::stream_row(mslport_row" + n + ", mslport_stage" + n + ", " + x_end + ");");
  }
  --indent_;
  line("}");
  --indent_;
  line("} else {");
  ++indent_;
  returns_if_converted_ = converted;
  plain_loop();
  --indent_;
  line("}");
}

// The first barrier or SIMD-group function in `s` (for the divergence finding's note).
static const Stmt* first_sync(const Stmt* s) {
  const Stmt* found = nullptr;
  if (s)
    walk_stmts(*s, [&](const Stmt& x) {
      if (found) return false;
      if ((x.kind == Stmt::Kind::Barrier && !x.lockstep) || passes::is_canonical_collective_stmt(x)) found = &x;
      return !found;
    });
  return found;
}

std::string KernelEmitter::tg_condition(const Expr& cond, const SourceLoc& where, const Stmt* body) {
  if (plan_.tg_evaluable(k_, cond)) return ex(cond, false);
  if (cond.kind == Expr::Kind::Call && cond.spelling == passes::kThreadgroupAny) {
    // Any thread still iterating keeps the whole threadgroup iterating.
    std::string c = "mslport_any" + std::to_string(counter_++);
    line("bool " + c + " = false;");
    open_work_item_loop({}, {cond.args[0].get()}, /*allow_simd=*/false);
    line(c + " = " + c + " || " + ex(*cond.args[0], true) + ";");
    close_work_item_loop();
    return c;
  }
  std::string c = "mslport_cond" + std::to_string(counter_++);
  line("// Threads must agree on this condition (it guards a barrier or SIMD-group function).");
  line("bool " + c + " = false;");
  line("{");
  ++indent_;
  line("bool mslport_first = true;");
  if (san_) line("uint32_t mslport_first_wi = 0;");
  open_work_item_loop({}, {&cond}, /*allow_simd=*/false);
  if (alive_var_ >= 0) line("if (!" + p_.var_ref(alive_var_, true) + ") continue;");
  line("const bool v = " + ex(cond, true) + ";");
  line("if (mslport_first) { " + c + " = v; mslport_first = false;" + (san_ ? " mslport_first_wi = wi;" : "") + " }");
  std::string report;
  if (san_) {
    const Stmt* sync = first_sync(body);
    const SourceLoc& sync_loc = sync && sync->kind != Stmt::Kind::Barrier && sync->expr
                                    ? (sync->kind == Stmt::Kind::Decl ? sync->expr->loc : sync->expr->args[1]->loc)
                                    : (sync ? sync->loc : where);
    report = "mslport_san.divergent(" + san_->site(where) + ", " + (sync ? "&" + san_->site(sync_loc) : "nullptr") +
             ", mslport_first_wi, " + c + ", wi); ";
  }
  line("else if (v != " + c + ") { " + report + "err.set(mslport::divergence_message(\"" + loc_string(where) +
       "\", geo)); return; }");
  close_work_item_loop();
  --indent_;
  line("}");
  return c;
}

void KernelEmitter::tg_block(const Stmt& b) {
  std::vector<const Stmt*> run;
  for (auto& s : b.stmts) {
    if (plan_.is_tg_level(s.get())) {
      if (!run.empty()) { wi_region(run); run.clear(); }
      tg_stmt(*s);
    } else {
      run.push_back(s.get());
    }
  }
  if (!run.empty()) wi_region(run);
}

void KernelEmitter::collective(const Stmt& s) {
  const Expr& c = s.kind == Stmt::Kind::Decl ? *s.expr : *s.expr->args[1];
  int target = s.kind == Stmt::Kind::Decl ? s.var : s.expr->args[0]->index;
  std::string n = "mslport_c" + std::to_string(counter_++);
  std::string vt = p_.type(c.args[0]->type);
  std::string rt = p_.type(c.type);
  state_members_.push_back("bool " + n + "_act[mslport::kMaxThreads];");
  state_members_.push_back(vt + " " + n + "_in[mslport::kMaxThreads];");
  state_members_.push_back(rt + " " + n + "_out[mslport::kMaxThreads];");
  bool has_arg = c.args.size() > 1;
  if (has_arg) state_members_.push_back("uint32_t " + n + "_arg[mslport::kMaxThreads];");
  line("// " + std::string(collective_name(c.collective_op)) + " at " + loc_string(c.loc) +
       ": combines the active lanes of each 32-lane SIMD group");
  std::vector<const Expr*> exprs;
  for (auto& a : c.args) exprs.push_back(a.get());
  exprs.push_back(c.mask.get());
  open_work_item_loop({}, exprs);
  line("const bool act = " + (c.mask ? ex(*c.mask, true) : std::string("true")) + ";");
  line("st." + n + "_act[wi] = act;");
  std::string args = "st." + n + "_in[wi] = " + ex(*c.args[0], true) + ";";
  if (has_arg) args += " st." + n + "_arg[wi] = uint32_t(" + ex(*c.args[1], true) + ");";
  line("if (act) { " + args + " }");
  close_work_item_loop();
  std::string in = "st." + n + "_in", act = "st." + n + "_act", out = "st." + n + "_out", arg = "st." + n + "_arg";
  switch (c.collective_op) {
    case CollectiveOp::SimdSum: case CollectiveOp::SimdProduct: case CollectiveOp::SimdMax: case CollectiveOp::SimdMin:
    case CollectiveOp::SimdAnd: case CollectiveOp::SimdOr: case CollectiveOp::SimdXor: {
      static const std::map<CollectiveOp, const char*> kOp = {
          {CollectiveOp::SimdSum, "Sum"}, {CollectiveOp::SimdProduct, "Product"}, {CollectiveOp::SimdMax, "Max"},
          {CollectiveOp::SimdMin, "Min"}, {CollectiveOp::SimdAnd, "And"}, {CollectiveOp::SimdOr, "Or"},
          {CollectiveOp::SimdXor, "Xor"}};
      line("mslport::simd_reduce(mslport::Reduce::" + std::string(kOp.at(c.collective_op)) + ", " + in + ", " + act +
           ", nthreads, " + out + ");");
      break;
    }
    case CollectiveOp::SimdPrefixInclusiveSum: case CollectiveOp::SimdPrefixExclusiveSum:
      line(std::string("mslport::simd_prefix_sum(") +
           (c.collective_op == CollectiveOp::SimdPrefixInclusiveSum ? "true" : "false") + ", " + in + ", " + act +
           ", nthreads, " + out + ");");
      break;
    case CollectiveOp::SimdBroadcast: case CollectiveOp::SimdBroadcastFirst: case CollectiveOp::SimdShuffle:
    case CollectiveOp::SimdShuffleDown: case CollectiveOp::SimdShuffleUp: case CollectiveOp::SimdShuffleXor: {
      static const std::map<CollectiveOp, const char*> kKind = {
          {CollectiveOp::SimdBroadcast, "Broadcast"}, {CollectiveOp::SimdBroadcastFirst, "BroadcastFirst"},
          {CollectiveOp::SimdShuffle, "Index"}, {CollectiveOp::SimdShuffleDown, "Down"},
          {CollectiveOp::SimdShuffleUp, "Up"}, {CollectiveOp::SimdShuffleXor, "Xor"}};
      line("mslport::simd_shuffle(mslport::Shuffle::" + std::string(kKind.at(c.collective_op)) + ", " + in + ", " +
           (has_arg ? arg : std::string("(const uint32_t*)nullptr")) + ", " + act + ", nthreads, " + out + ");");
      if (san_ && has_arg)
        line("mslport_san.shuffle(" + san_->site(c.loc) + ", mslport::Shuffle::" + kKind.at(c.collective_op) + ", " +
             arg + ", " + act + ", nthreads);");
      break;
    }
    case CollectiveOp::SimdAll: case CollectiveOp::SimdAny:
      line(std::string("mslport::simd_vote(") + (c.collective_op == CollectiveOp::SimdAll ? "true" : "false") + ", " +
           in + ", " + act + ", nthreads, " + out + ");");
      break;
    case CollectiveOp::SimdBallot:
      line("mslport::simd_ballot(" + in + ", " + act + ", nthreads, " + out + ");");
      break;
  }
  // Sanitizer: a collective orders the accesses of the lanes of each SIMD group.
  if (san_) line("mslport_san.simd_sync();");
  open_work_item_loop({}, {});
  line("if (" + act + "[wi]) " + p_.var_ref(target, true) + " = " + out + "[wi];");
  close_work_item_loop();
}

void KernelEmitter::tg_stmt(const Stmt& s) {
  line_directive(s.loc);
  switch (s.kind) {
    case Stmt::Kind::Block:
      line("{");
      ++indent_;
      tg_block(s);
      --indent_;
      line("}");
      break;
    case Stmt::Kind::Decl: {
      if (passes::is_canonical_collective_stmt(s)) { collective(s); break; }
      const Var& v = k_.vars[s.var];
      if (plan_.storage[s.var] == Storage::Uniform) {
        std::string d = (v.is_const ? "const " : "") + p_.declarator(v.type, v.name);
        line(s.expr ? d + " = " + ex(*s.expr, false) + ";" : d + ";");
      } else if (s.expr) {
        // A per-thread value declared at threadgroup level.
        std::vector<const Stmt*> one{&s};
        wi_region(one);
      }
      break;
    }
    case Stmt::Kind::ExprStmt:
      if (passes::is_canonical_collective_stmt(s)) { collective(s); break; }
      if (plan_.tg_evaluable(k_, *s.expr)) {
        line(ex(*s.expr, false) + ";");
      } else if (is_prefetch_hint(s)) {
        // A hint whose address is per thread after all (a variable assigned
        // under an early return's flag): not worth a loop over work-items.
      } else {
        std::vector<const Stmt*> one{&s};
        wi_region(one);
      }
      break;
    case Stmt::Kind::If: {
      std::string c = tg_condition(*s.expr, s.loc, s.body.get());
      line("if (" + c + ") {");
      ++indent_;
      tg_block(*s.body);
      --indent_;
      if (s.else_body && !s.else_body->stmts.empty()) {
        line("} else {");
        ++indent_;
        tg_block(*s.else_body);
        --indent_;
      }
      line("}");
      break;
    }
    case Stmt::Kind::For: case Stmt::Kind::While: case Stmt::Kind::DoWhile: {
      bool init_tg = !s.init || (s.init->kind == Stmt::Kind::Decl && plan_.storage[s.init->var] == Storage::Uniform);
      bool cond_tg = !s.expr || plan_.tg_evaluable(k_, *s.expr);
      bool step_tg = !s.step || plan_.tg_evaluable(k_, *s.step);
      if (init_tg && cond_tg && step_tg) {
        if (!runs_simd_group_major(s)) {
          uniform_loop(s);
          break;
        }
        // Each SIMD group through every iteration, then the next: one
        // contiguous stream per group (a mat-vec's row) instead of eight
        // interleaved, and the group's values stay in cache between
        // iterations. Metal orders SIMD groups only at barriers, and the
        // lanes of each still run the iterations in lock-step.
        line("if (geo.tg_size.x % mslport::kSimdWidth == 0) {  // one SIMD group at a time through the whole loop");
        ++indent_;
        line("for (uint32_t lz = 0; lz < geo.tg_size.z; ++lz)");
        line("for (uint32_t ly = 0; ly < geo.tg_size.y; ++ly)");
        line("for (uint32_t mslport_sx = 0; mslport_sx < geo.tg_size.x; mslport_sx += mslport::kSimdWidth) {");
        ++indent_;
        simd_group_major_ = simd_chunked_ = true;
        uniform_loop(s);
        simd_group_major_ = simd_chunked_ = false;
        --indent_;
        line("}");
        --indent_;
        line("} else {");
        ++indent_;
        no_simd_chunks_ = true;
        uniform_loop(s);
        no_simd_chunks_ = false;
        --indent_;
        line("}");
        break;
      }
      // General form: per-thread loop variable, condition checked uniform.
      bool has_exit = false;
      walk_stmts(*s.body, [&](const Stmt& x) {
        if (x.kind == Stmt::Kind::For || x.kind == Stmt::Kind::While || x.kind == Stmt::Kind::DoWhile) return false;
        if (x.kind == Stmt::Kind::Continue && plan_.is_tg_level(&x)) has_exit = true;
        return true;
      });
      if (has_exit) {
        diags_.error(s.loc, "'continue' in a loop with barriers whose condition depends on per-thread values is "
                            "not supported by the OpenMP backend yet");
        ok_ = false;
      }
      line("{");
      ++indent_;
      if (s.init) tg_stmt(*s.init);
      line("for (bool mslport_first_iter = true;; mslport_first_iter = false) {");
      ++indent_;
      if (s.kind == Stmt::Kind::DoWhile) {
        if (s.expr) {
          line("if (!mslport_first_iter) {");
          ++indent_;
          std::string c = tg_condition(*s.expr, s.loc, s.body.get());
          line("if (!" + c + ") break;");
          --indent_;
          line("}");
        }
      } else if (s.expr) {
        std::string c = tg_condition(*s.expr, s.loc, s.body.get());
        line("if (!" + c + ") break;");
      }
      tg_block(*s.body);
      if (s.step) {
        if (step_tg) {
          line(ex(*s.step, false) + ";");
        } else {
          open_work_item_loop({}, {s.step.get()});
          line(ex(*s.step, true) + ";");
          close_work_item_loop();
        }
      }
      --indent_;
      line("}");
      --indent_;
      line("}");
      break;
    }
    case Stmt::Kind::Return: line("return;"); break;
    case Stmt::Kind::Break: line("break;"); break;
    case Stmt::Kind::Continue: line("continue;"); break;
    case Stmt::Kind::Barrier:
      if (s.lockstep)
        line("// work-item loops split here (" + loc_string(s.loc) +
             "; inserted for SIMD-group lock-step or to run a loop inside out, not a Metal barrier)");
      else
        line(std::string("// ") + (s.simdgroup_scope ? "simdgroup_barrier" : "threadgroup_barrier") + " (" +
             loc_string(s.loc) + "): every work-item loop above has finished");
      if (san_ && s.lockstep)
        line("// (inserted for SIMD-group lock-step: no Metal ordering point, so the sanitizer ignores it)");
      else if (san_ && s.simdgroup_scope)
        line("mslport_san.simd_sync();");
      else if (san_)
        line("mslport_san.barrier(" + san_->site(s.loc) + ", " + ((s.mem_flags & 1) ? "true" : "false") + ");");
      break;
  }
}

bool KernelEmitter::runs_simd_group_major(const Stmt& loop) const {
  if (san_ || simd_group_major_ || no_simd_chunks_ || loop.kind != Stmt::Kind::For) return false;
  std::vector<const Stmt*> region;
  std::function<bool(const Stmt&)> collect = [&](const Stmt& b) {
    for (auto& s : b.stmts) {
      if (s->kind == Stmt::Kind::Barrier && s->lockstep) continue;  // the schedule point itself
      if (s->kind == Stmt::Kind::Block && plan_.is_tg_level(s.get())) {
        if (!collect(*s)) return false;
        continue;
      }
      if (plan_.is_tg_level(s.get()) || ir::analysis::contains_return(*s)) return false;
      region.push_back(s.get());
    }
    return true;
  };
  if (!collect(*loop.body) || region.empty() || !uses_simd_lanes(region)) return false;
  return !(tracks_all_alive() && writes_var(region, alive_var_));
}

void KernelEmitter::uniform_loop(const Stmt& s) {
  std::string init;
  if (s.init) {
    const Var& v = k_.vars[s.init->var];
    init = p_.declarator(v.type, v.name) + (s.init->expr ? " = " + ex(*s.init->expr, false) : "");
  }
  std::string cond = s.expr ? ex(*s.expr, false) : "";
  if (s.kind == Stmt::Kind::For) {
    line("for (" + init + "; " + cond + "; " + (s.step ? ex(*s.step, false) : "") + ") {");
  } else if (s.kind == Stmt::Kind::While) {
    line("while (" + cond + ") {");
  } else {
    line("do {");
  }
  ++indent_;
  const std::optional<std::string> trips = counted_trips(s);
  if (trips) trips_.push_back(*trips);
  tg_block(*s.body);
  if (trips) trips_.pop_back();
  --indent_;
  line(s.kind == Stmt::Kind::DoWhile ? "} while (" + cond + ");" : "}");
}

std::optional<std::string> KernelEmitter::counted_trips(const Stmt& s) {
  // for (T v = 0; v < N; v += 1) or ++v / v++, v not written in the body.
  if (s.kind != Stmt::Kind::For || !s.init || s.init->kind != Stmt::Kind::Decl || !s.init->expr ||
      s.init->expr->kind != Expr::Kind::IntLit || s.init->expr->int_value != 0 || !s.expr || !s.step)
    return std::nullopt;
  const int v = s.init->var;
  auto is_v = [&](const Expr& e) { return e.kind == Expr::Kind::VarRef && e.index == v; };
  const Expr& c = *s.expr;
  if (c.kind != Expr::Kind::Binary || c.binary_op != BinaryOp::Lt || !is_v(*c.args[0])) return std::nullopt;
  const Expr& st = *s.step;
  const bool plus_one =
      (st.kind == Expr::Kind::Assign && st.assign_op == BinaryOp::Add && is_v(*st.args[0]) &&
       st.args[1]->kind == Expr::Kind::IntLit && st.args[1]->int_value == 1) ||
      (st.kind == Expr::Kind::Unary && (st.unary_op == UnaryOp::PreInc || st.unary_op == UnaryOp::PostInc) &&
       is_v(*st.args[0]));
  if (!plus_one || vars_written(*s.body).count(v)) return std::nullopt;
  return ex(*c.args[1], false);
}

void KernelEmitter::wi_region(const std::vector<const Stmt*>& stmts) {
  wi_region_loops(stmts);
  // Kept for work_item_loop's copies: recounted after every loop that can
  // end work-items (256 bytes, vectorised), read as one flag by the others.
  if (tracks_all_alive() && writes_var(stmts, alive_var_))
    line("mslport_all_alive = mslport::all_true(st." + k_.vars[alive_var_].name + ", nthreads);");
}

void KernelEmitter::wi_region_loops(const std::vector<const Stmt*>& stmts) {
  // Only declarations of variables each work-item loop recomputes or
  // declares itself: nothing to run.
  bool empty = true;
  for (auto* s : stmts)
    empty = empty && s->kind == Stmt::Kind::Decl &&
            (plan_.storage[s->var] == Storage::Remat || (!s->expr && plan_.declared_in_loop.count(s->var)));
  if (empty) return;
  bool has_return = false;
  for (auto* s : stmts) has_return = has_return || ir::analysis::contains_return(*s);
  if (!has_return) {
    if (stmts.size() == 1 && prefix_guarded_loop(match_prefix_guard(k_, plan_, *stmts[0]))) return;
    work_item_loop(stmts, [&] {
      for (auto* s : stmts) wi_stmt(*s);
    });
    return;
  }
  // `if (c) { ...; return; } rest` at the top of the region becomes
  // `if (c) { ... } else { rest }`: a plain loop the compiler can vectorise.
  int returns = 0, guards = 0;
  for (auto* s : stmts) {
    walk_stmts(*s, [&](const Stmt& x) {
      returns += x.kind == Stmt::Kind::Return;
      return true;
    });
    guards += is_guard_return(*s);
  }
  if (returns == 1 && guards == 1 && prefix_guarded_loop(match_prefix_return(k_, plan_, stmts))) return;
  if (returns == guards) {
    returns_if_converted_ = true;
    work_item_loop(stmts, [&] {
      returns_if_converted_ = false;
      guarded_stmts(stmts, 0);
    });
    returns_if_converted_ = false;
    return;
  }
  // Otherwise a `return` ends only this work-item: run its statements in a lambda.
  line("auto mslport_work_item = [&](uint32_t wi, uint32_t lx, uint32_t ly, uint32_t lz) {");
  ++indent_;
  work_item_values(stmts, {});
  for (auto* s : stmts) wi_stmt(*s);
  --indent_;
  line("};");
  line("for (uint32_t lz = 0; lz < geo.tg_size.z; ++lz)");
  line("for (uint32_t ly = 0; ly < geo.tg_size.y; ++ly)");
  line("for (uint32_t lx = 0; lx < geo.tg_size.x; ++lx)");
  line("  mslport_work_item(lx + geo.tg_size.x * (ly + geo.tg_size.y * lz), lx, ly, lz);");
}

bool KernelEmitter::prefix_guarded_loop(const std::optional<PrefixGuard>& g) {
  // Sanitizing, the checker sees every work-item's test; one SIMD group at a
  // time, the group's own loop is already open.
  if (san_ || !g || simd_group_major_) return false;
  const std::vector<const Stmt*>& body = g->body;
  // SIMD lanes want work_item_loop's per-SIMD-group copy; eliminate_returns'
  // flag wants its two copies: both keep the test.
  if ((tracks_all_alive() && reads_var(body, alive_var_)) || uses_simd_lanes(body)) return false;
  const SourceLoc& at = g->test->loc;
  line_directive(at);
  const std::string n = "mslport_below" + std::to_string(counter_++);
  line("{  // the test at " + loc_string(at) + " as the loop's bounds: only the work-items that pass run");
  ++indent_;
  std::string value = ex(*g->bound, false), end, count;
  switch (g->index) {
    case PrefixGuard::Index::Flat:
      end = "geo.x_end_below(ly, lz, " + n + ")";
      count = "std::min(" + n + ", geo.nthreads)";
      break;
    case PrefixGuard::Index::X:
      end = "std::min(geo.tg_size.x, " + n + ")";
      count = "uint64_t(" + end + ") * geo.tg_size.y * geo.tg_size.z";
      break;
    case PrefixGuard::Index::GridX:  // the same for every row: computed once
      value = "geo.x_end_below_grid(" + value + ")";
      end = n;
      count = "uint64_t(" + n + ") * geo.tg_size.y * geo.tg_size.z";
      break;
  }
  line("const uint32_t " + n + " = " + value + ";");
  x_loop(body, true, end, count, [&] {
    for (auto* b : body) wi_stmt(*b);
  });
  --indent_;
  line("}");
  return true;
}

bool KernelEmitter::is_guard_return(const Stmt& s) {
  if (s.kind != Stmt::Kind::If || (s.else_body && !s.else_body->stmts.empty()) || s.body->stmts.empty() ||
      s.body->stmts.back()->kind != Stmt::Kind::Return)
    return false;
  for (size_t i = 0; i + 1 < s.body->stmts.size(); ++i)
    if (ir::analysis::contains_return(*s.body->stmts[i])) return false;
  return true;
}

void KernelEmitter::guarded_stmts(const std::vector<const Stmt*>& stmts, size_t from) {
  for (size_t i = from; i < stmts.size(); ++i) {
    const Stmt& s = *stmts[i];
    if (!is_guard_return(s)) {
      wi_stmt(s);
      continue;
    }
    line_directive(s.loc);
    if (s.body->stmts.size() == 1) {  // just `return`: run the rest when the condition fails
      if (i + 1 == stmts.size()) return;
      line("if (!(" + ex(*s.expr, true) + ")) {");
      ++indent_;
      guarded_stmts(stmts, i + 1);
      --indent_;
      line("}");
      return;
    }
    line("if (" + ex(*s.expr, true) + ") {");
    ++indent_;
    for (size_t j = 0; j + 1 < s.body->stmts.size(); ++j) wi_stmt(*s.body->stmts[j]);
    --indent_;
    if (i + 1 == stmts.size()) {
      line("}");
      return;
    }
    line("} else {");
    ++indent_;
    guarded_stmts(stmts, i + 1);
    --indent_;
    line("}");
    return;
  }
}

void KernelEmitter::wi_block_contents(const Stmt& b) {
  ++indent_;
  for (auto& c : b.stmts) wi_stmt(*c);
  --indent_;
}

void KernelEmitter::wi_stmt(const Stmt& s) {
  line_directive(s.loc);
  switch (s.kind) {
    case Stmt::Kind::Block:
      line("{");
      wi_block_contents(s);
      line("}");
      break;
    case Stmt::Kind::Decl: {
      const Var& v = k_.vars[s.var];
      // Declared by work_item_values.
      if (plan_.storage[s.var] == Storage::Remat || (!s.expr && plan_.declared_in_loop.count(s.var))) break;
      if (plan_.storage[s.var] == Storage::PerThread) {
        if (!s.expr) break;
        if (s.expr->kind == Expr::Kind::InitList) {
          std::string tmp = "mslport_init" + std::to_string(counter_++);
          line("const " + p_.declarator(v.type, tmp) + " = " + ex(*s.expr, true) + ";");
          line("std::memcpy(&" + p_.var_ref(s.var, true) + ", &" + tmp + ", sizeof " + tmp + ");");
        } else {
          line(p_.var_ref(s.var, true) + " = " + ex(*s.expr, true) + ";");
        }
        break;
      }
      std::string d = (v.is_const ? "const " : "") + p_.declarator(v.type, v.name);
      line(s.expr ? d + " = " + ex(*s.expr, true) + ";" : d + ";");
      break;
    }
    case Stmt::Kind::ExprStmt:
      // A threadgroup's prefetch hint in a loop that stayed per work-item:
      // once per work-item it would ask for the same lines 256 times.
      if (is_prefetch_hint(s)) break;
      if (auto it = staged_.find(&s); it != staged_.end()) {  // x_loop's streaming copy
        const std::string n = std::to_string(it->second);
        line("mslport_stage" + n + "[lx] = " + ex(*s.expr->args[1], true) + ";");
        break;
      }
      // The defining assignment of a recomputed variable: each loop that
      // reads it computes it (work_item_values).
      if (s.expr->kind == Expr::Kind::Assign && !s.expr->assign_op && s.expr->args[0]->kind == Expr::Kind::VarRef &&
          plan_.storage[s.expr->args[0]->index] == Storage::Remat)
        break;
      line(ex(*s.expr, true) + ";");
      // Sanitizing: an early return (eliminate_returns' `alive = false`) is
      // remembered for the divergence check of later barriers.
      if (san_ && alive_var_ >= 0 && s.expr->kind == Expr::Kind::Assign && !s.expr->assign_op &&
          s.expr->args[0]->kind == Expr::Kind::VarRef && s.expr->args[0]->index == alive_var_)
        line("mslport_san.returned(" + san_->site(s.loc) + ", wi);");
      break;
    case Stmt::Kind::If:
      if (s.expr->kind == Expr::Kind::VarRef && s.expr->index == p_.known_true() &&
          (!s.else_body || s.else_body->stmts.empty())) {
        line("{  // if (" + k_.vars[alive_var_].name + "): true in this copy");
        wi_block_contents(*s.body);
        line("}");
        break;
      }
      line("if (" + ex(*s.expr, true) + ") {");
      wi_block_contents(*s.body);
      if (s.else_body && !s.else_body->stmts.empty()) {
        line("} else {");
        wi_block_contents(*s.else_body);
      }
      line("}");
      break;
    case Stmt::Kind::For: {
      std::string init;
      bool init_inline = !s.init || s.init->kind == Stmt::Kind::Decl || s.init->kind == Stmt::Kind::ExprStmt;
      if (s.init && s.init->kind == Stmt::Kind::Decl && plan_.storage[s.init->var] != Storage::PerThread) {
        const Var& v = k_.vars[s.init->var];
        init = p_.declarator(v.type, v.name) + (s.init->expr ? " = " + ex(*s.init->expr, true) : "");
      } else if (s.init && s.init->kind == Stmt::Kind::Decl) {
        init = s.init->expr ? p_.var_ref(s.init->var, true) + " = " + ex(*s.init->expr, true) : "";
      } else if (s.init && s.init->kind == Stmt::Kind::ExprStmt) {
        init = ex(*s.init->expr, true);
      }
      if (!init_inline) {
        line("{");
        ++indent_;
        wi_stmt(*s.init);
      }
      line("for (" + init + "; " + (s.expr ? ex(*s.expr, true) : "") + "; " + (s.step ? ex(*s.step, true) : "") +
           ") {");
      wi_block_contents(*s.body);
      line("}");
      if (!init_inline) {
        --indent_;
        line("}");
      }
      break;
    }
    case Stmt::Kind::While:
      line("while (" + ex(*s.expr, true) + ") {");
      wi_block_contents(*s.body);
      line("}");
      break;
    case Stmt::Kind::DoWhile:
      line("do {");
      wi_block_contents(*s.body);
      line("} while (" + ex(*s.expr, true) + ");");
      break;
    case Stmt::Kind::Return: line("return;"); break;
    case Stmt::Kind::Break: line("break;"); break;
    case Stmt::Kind::Continue: line("continue;"); break;
    case Stmt::Kind::Barrier:
      diags_.error(s.loc, "internal error: barrier inside a work-item loop");
      ok_ = false;
      break;
  }
}

bool KernelEmitter::emit(std::ostringstream& cpp, std::ostringstream& header) {
  write_only_ = write_only_buffers(k_);
  row_prefetch_facts_ = row_prefetch_facts(k_);
  for (size_t i = 0; i < k_.vars.size(); ++i)
    if (k_.vars[i].name == passes::kAliveVarName) alive_var_ = (int)i;
  // Body first: it decides the state struct's members.
  if (plan_.has_sync) {
    tg_block(*k_.body);
  } else {
    std::vector<const Stmt*> all;
    for (auto& s : k_.body->stmts) all.push_back(s.get());
    if (!all.empty()) wi_region(all);
  }
  for (size_t i = 0; i < k_.vars.size(); ++i) {
    if (plan_.storage[i] != Storage::PerThread) continue;
    const Var& v = k_.vars[i];
    Type t = v.type;
    // name[kMaxThreads] goes right after the name, before any array bounds.
    std::string decl = p_.declarator(t, v.name + "[mslport::kMaxThreads]");
    state_members_.insert(state_members_.begin(), decl + ";");
  }

  // Parameter lists.
  std::vector<std::string> typed_params, tg_params, tg_args, generic_args;
  for (auto& p : k_.params) {
    switch (p.kind) {
      case Param::Kind::Buffer:
        typed_params.push_back(p_.type(p.type) + " " + p.name);
        tg_params.push_back(p_.type(p.type) + " " + p.name);
        tg_args.push_back(p.name);
        generic_args.push_back("mslport::require_buffer<" + p_.type(*p.type.elem) + ">(a, " + std::to_string(p.index) +
                               ", \"" + p.name + "\")");
        break;
      case Param::Kind::ConstantRef:
      case Param::Kind::ConstantValue:
        typed_params.push_back("const " + p_.type(p.type) + "& " + p.name);
        // By value inside the threadgroup: a reference could alias the
        // buffers the kernel writes, forcing a reload after every store.
        tg_params.push_back("const " + p_.type(p.type) + " " + p.name);
        tg_args.push_back(p.name);
        generic_args.push_back("*mslport::require_buffer<const " + p_.type(p.type) + ">(a, " +
                               std::to_string(p.index) + ", \"" + p.name + "\")");
        break;
      case Param::Kind::ThreadgroupMemory:
        typed_params.push_back("uint32_t " + p.name + "_bytes");
        tg_params.push_back(p_.type(p.type) + " " + p.name);
        tg_args.push_back("static_cast<" + p_.type(p.type) + ">(" + p.name + "_mem.data())");
        if (san_) {  // the checker bounds it by the size asked for
          tg_params.push_back("uint32_t " + p.name + "_bytes");
          tg_args.push_back(p.name + "_bytes");
        }
        generic_args.push_back("a->threadgroup_bytes[" + std::to_string(p.index) + "]");
        break;
      case Param::Kind::Builtin:
        break;
    }
  }
  typed_params.push_back("const mslport_dispatch& dispatch");
  generic_args.push_back("*d");
  auto join = [](const std::vector<std::string>& v, const std::string& sep) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
    return s;
  };

  header << "// " << k_.name << " (" << loc_string(k_.loc) << ")\n";
  header << "void " << k_.name << "(" << join(typed_params, ", ") << ");\n\n";

  std::string state = k_.name + "_state";
  cpp << "// ---- " << k_.name << " (" << loc_string(k_.loc) << ")\n\n";
  cpp << "namespace {\n";
  cpp << "// Per-work-item values that live across a barrier or SIMD-group function.\n";
  cpp << "struct " << state << " {\n";
  for (auto& mbr : state_members_) cpp << "  " << mbr << "\n";
  if (state_members_.empty()) cpp << "  char unused;\n";
  cpp << "};\n\n";
  std::vector<std::string> tgp = tg_params;
  tgp.push_back("const mslport::Geometry& geo");
  tgp.push_back(state + "& st");
  tgp.push_back("mslport::ErrorSlot& err");
  if (san_) cpp << san_->site_definitions() << "\n";
  cpp << "// One threadgroup.\n";
  cpp << "void " << k_.name << "_threadgroup(" << join(tgp, ", ") << ") {\n";
  cpp << "  const uint32_t nthreads = geo.nthreads;\n";
  cpp << "  (void)st; (void)err; (void)nthreads;\n";
  if (tracks_all_alive())
    cpp << "  bool mslport_all_alive = true;  // no work-item of the group has returned\n  (void)mslport_all_alive;\n";
  for (auto& a : k_.tg_allocs) cpp << "  " << p_.declarator(a.type, a.name) << ";\n";
  if (san_)
    for (auto& l : san_->begin_statements(p_)) cpp << "  " << l << "\n";
  // Uniform builtins once per threadgroup.
  std::set<int> uniform_builtins;
  walk_stmt_exprs(*k_.body, [&](const Expr& e) {
    walk_exprs(e, [&](const Expr& x) {
      if (x.kind == Expr::Kind::ParamRef && k_.params[x.index].kind == Param::Kind::Builtin &&
          ir::analysis::builtin_uniformity(k_.params[x.index].builtin) == Uniformity::Threadgroup)
        uniform_builtins.insert(x.index);
      return true;
    });
    return false;
  });
  for (int i : uniform_builtins) {
    const Param& p = k_.params[i];
    cpp << "  const " << p_.type(p.type) << " " << p.name << " = " << builtin_value(p, false) << ";\n";
  }
  cpp << body_.str();
  cpp << "}\n";
  cpp << "}  // namespace\n\n";

  cpp << "void " << k_.name << "(" << join(typed_params, ", ") << ") {\n";
  cpp << "  mslport::validate_dispatch(dispatch);\n";
  cpp << "  const int64_t ngroups = int64_t(mslport::group_count(dispatch));\n";
  cpp << "  mslport::ErrorSlot err;\n";
  if (san_) {
    // Sanitizing: one threadgroup at a time, so the checker's device-buffer
    // shadow sees the whole dispatch without locks.
    cpp << "  mslport::san::dispatch_begin();\n";
    cpp << "#pragma omp parallel num_threads(1)\n";
  } else {
    cpp << "#pragma omp parallel\n";
  }
  cpp << "  {\n";
  cpp << "    std::unique_ptr<" << state << "> st(new " << state << ");\n";
  for (auto& p : k_.params)
    if (p.kind == Param::Kind::ThreadgroupMemory)
      cpp << "    mslport::ThreadgroupMemory " << p.name << "_mem(" << p.name << "_bytes);\n";
  // Non-temporal stores are weakly ordered: each thread fences its own once,
  // after its last threadgroup (not per threadgroup: a fence waits for the
  // stores to drain, and per 1 KB row that stalled residual_add by 1.5x).
  // The kernel never reads those buffers (streaming_stores.h), so nothing
  // during the launch can see the order.
  cpp << "#pragma omp for schedule(static)" << (streams_ ? " nowait" : "") << "\n";
  cpp << "    for (int64_t g = 0; g < ngroups; ++g) {\n";
  cpp << "      if (err.failed()) continue;\n";
  cpp << "      const mslport::Geometry geo(dispatch, uint64_t(g));\n";
  std::vector<std::string> call_args = tg_args;
  call_args.push_back("geo");
  call_args.push_back("*st");
  call_args.push_back("err");
  cpp << "      " << k_.name << "_threadgroup(" << join(call_args, ", ") << ");\n";
  cpp << "    }\n";
  if (streams_) cpp << "    mslport::stream_fence();  // this thread's non-temporal stores, before the launch returns\n";
  cpp << "  }\n";
  cpp << "  err.rethrow();\n";
  cpp << "}\n\n";

  cpp << "extern \"C\" int mslport_entry_" << k_.name
      << "(const mslport_args* a, const mslport_dispatch* d, char* msg, size_t msg_len) {\n";
  cpp << "  try {\n";
  if (san_) cpp << "    mslport::san::current_args() = a;  // buffer sizes for the bounds checks\n";
  cpp << "    " << k_.name << "(" << join(generic_args, ", ") << ");\n";
  cpp << "    return 0;\n";
  cpp << "  } catch (const std::exception& e) {\n";
  cpp << "    std::snprintf(msg, msg_len, \"%s: %s\", \"" << metal_name_ << "\", e.what());\n";
  cpp << "    return 1;\n";
  cpp << "  }\n";
  cpp << "}\n\n";
  return ok_ && p_.ok();
}

}  // namespace

bool emit_module(const Module& module, const EmitOptions& options, DiagEngine& diags, EmitResult* out) {
  Module m = clone_module(module);
  bool ok = true;
  passes::Pipeline p(m, diags, nullptr);
  passes::rename_reserved(m, cpp_reserved_names());
  for (auto& k : m.kernels) {
    if (!options.sanitize) prepare_invariant_divisors(k);
    // Sanitizing checks the kernel's own schedule points, not ours.
    ok = passes::lower_statements(p, m, k, {}) &&
         (options.sanitize || (insert_loop_schedule_points(k), true)) &&
         passes::lower_synchronisation(p, m, k) && ok;
  }
  if (!ok) return false;

  std::string src = std::filesystem::path(module.source_path).filename().string();
  std::string banner = "// Generated by mslport " + options.tool_version + " from " + src +
                       " (C++/OpenMP backend). Do not edit: regenerate with `mslport regen`.\n";
  std::ostringstream header, cpp;
  CppPrinter types(m, nullptr, nullptr, diags);
  header << banner << "#pragma once\n\n#include <mslport/" << (options.sanitize ? "sanitizer_rt.h" : "openmp_rt.h")
         << ">\n\nnamespace mslport_kernels {\n\n";
  for (auto& s : m.structs) {
    header << "struct " << s.name << " {\n";
    for (auto& f : s.fields) header << "  " << types.declarator(f.type, f.name) << ";\n";
    header << "};\n";
    for (auto& f : s.fields)
      header << "static_assert(offsetof(" << s.name << ", " << f.name << ") == " << f.offset
             << ", \"Metal layout of " << s.name << "." << f.name << "\");\n";
    header << "static_assert(sizeof(" << s.name << ") == " << s.size << ", \"Metal size of " << s.name << "\");\n\n";
  }
  for (auto& c : m.constants) {
    CppPrinter cp(m, nullptr, nullptr, diags);
    header << "static constexpr " << types.declarator(c.type, c.name) << " = "
           << (c.init ? cp.expr(*c.init, false) : "{}") << ";\n";
  }
  if (!m.constants.empty()) header << "\n";

  cpp << banner;
  // With no header name the declarations go into the .cpp itself (stdout).
  if (!options.header_name.empty()) cpp << "#include \"" << options.header_name << "\"\n";
  cpp << "@HEADER@\n#include <cstddef>\n\nnamespace mslport_kernels {\n\n";
  for (size_t i = 0; i < m.kernels.size(); ++i) {
    KernelEmitter e(m, m.kernels[i], module.kernels[i].name, options, diags);
    ok = e.emit(cpp, header) && ok;
  }
  header << "}  // namespace mslport_kernels\n";
  cpp << "}  // namespace mslport_kernels\n\n";
  cpp << "#ifdef MSLPORT_RUNNER_MODULE\n";
  cpp << "extern \"C\" const mslport_kernel_info* mslport_module_kernels(int* count) {\n";
  cpp << "  static const mslport_kernel_info kernels[] = {\n";
  for (size_t i = 0; i < m.kernels.size(); ++i)
    cpp << "      {\"" << module.kernels[i].name << "\", &mslport_kernels::mslport_entry_" << m.kernels[i].name
        << "},\n";
  cpp << "  };\n";
  cpp << "  *count = " << m.kernels.size() << ";\n";
  cpp << "  return kernels;\n";
  cpp << "}\n";
  if (options.sanitize) {
    cpp << "// The sanitizer's findings since the last call, one a line (see mslport/sanitizer_rt.h).\n";
    cpp << "extern \"C\" size_t mslport_san_report(char* buf, size_t len) {\n";
    cpp << "  return mslport::san::serialize_findings(buf, len);\n";
    cpp << "}\n";
  }
  cpp << "#endif\n";
  if (!ok) return false;
  out->header_source = header.str();
  out->cpp_source = cpp.str();
  std::string inline_header;
  if (options.header_name.empty()) {
    inline_header = out->header_source.substr(banner.size());
  }
  out->cpp_source.replace(out->cpp_source.find("@HEADER@"), 8, inline_header);
  return true;
}

}  // namespace mslport::back::openmp
