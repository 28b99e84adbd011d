// Loops over the work-items as the plan chose them (raise/loop_plan.h): the
// values each declares, the rows of a prefetching or streaming copy, and
// the copies chosen at run time.
#include "back/openmp/print/body_printer.h"

namespace mslport::back::openmp::print_detail {

void BodyPrinter::declare_values(const LoopValues& v, bool simd_groups) {
  for (int i : v.builtins) {
    const Param& p = k_.params[i];
    line("const " + p_.type(p.type) + " " + p.name + " = " + builtin_value(p, simd_groups) + ";");
  }
  for (int r : v.remat) declare_remat(r);
  for (int d : v.declared) line(p_.declarator(k_.vars[d].type, k_.vars[d].name) + "{};");
}

void BodyPrinter::declare_hoisted(const LoopValues& v) {
  for (int i : v.builtins) {
    const Param& p = k_.params[i];
    line("const " + p_.type(p.type) + " " + p.name +
         " = (mslport_sx + geo.tg_size.x * (ly + geo.tg_size.y * lz)) / mslport::kSimdWidth;");
  }
  for (int r : v.remat) declare_remat(r);
}

// ------------------------------------------------------------------ loops --

std::string BodyPrinter::row_end(RowEnd e, const Scope& scope) const {
  switch (e) {
    case RowEnd::GroupWidth: return "geo.tg_size.x";
    case RowEnd::BelowFlat: return "geo.x_end_below(ly, lz, " + scope.below + ")";
    case RowEnd::BelowX: return "std::min(geo.tg_size.x, " + scope.below + ")";
    case RowEnd::BelowGridX: return scope.below;  // the same for every row: computed once
  }
  return "";
}

std::string BodyPrinter::work_items(RowEnd e, const Scope& scope) const {
  switch (e) {
    case RowEnd::GroupWidth: return "geo.nthreads";
    case RowEnd::BelowFlat: return "std::min(" + scope.below + ", geo.nthreads)";
    case RowEnd::BelowX: return "uint64_t(" + row_end(e, scope) + ") * geo.tg_size.y * geo.tg_size.z";
    case RowEnd::BelowGridX: return "uint64_t(" + scope.below + ") * geo.tg_size.y * geo.tg_size.z";
  }
  return "";
}

void BodyPrinter::open_loop(const WorkItemLoop& l, const Scope& scope) {
  if (l.shape == LoopShape::Rows || l.shape == LoopShape::SimdGroups) {
    line("for (uint32_t lz = 0; lz < geo.tg_size.z; ++lz)");
    line("for (uint32_t ly = 0; ly < geo.tg_size.y; ++ly)");
  }
  // Without `omp simd`, uint division by a run-time value is a hardware divide.
  p_.set_scalar_work_items(!l.simd);
  const bool simd_groups = l.shape == LoopShape::SimdGroups || l.shape == LoopShape::SimdGroupLanes;
  if (simd_groups) {
    if (l.shape == LoopShape::SimdGroups)
      line("for (uint32_t mslport_sx = 0; mslport_sx < geo.tg_size.x; mslport_sx += mslport::kSimdWidth) {");
    const bool hoisted = !l.hoisted.builtins.empty() || !l.hoisted.remat.empty();
    if (hoisted && l.shape == LoopShape::SimdGroupLanes) {  // the loop shares its block with others
      line("{");
      ++indent_;
    }
    declare_hoisted(l.hoisted);
    if (l.simd) line("#pragma omp simd");
    line("for (uint32_t lx = mslport_sx; lx < mslport_sx + mslport::kSimdWidth; ++lx) {");
  } else {
    if (l.simd) line("#pragma omp simd");
    line("for (uint32_t lx = 0; lx < " + row_end(l.end, scope) + "; ++lx) {");
  }
  ++indent_;
  line("const uint32_t wi = lx + geo.tg_size.x * (ly + geo.tg_size.y * lz);");
  declare_values(l.values, simd_groups);
}

void BodyPrinter::close_loop(const WorkItemLoop& l) {
  --indent_;
  line(l.shape == LoopShape::SimdGroups ? "}}" : "}");
  const bool hoisted = !l.hoisted.builtins.empty() || !l.hoisted.remat.empty();
  if (hoisted && l.shape == LoopShape::SimdGroupLanes) {
    --indent_;
    line("}");
  }
}

void BodyPrinter::loop(const WorkItemLoop& l, const Scope& scope) {
  open_loop(l, scope);
  if (l.returns_as_if_else) guarded_stmts(l.stmts, 0, scope);
  else
    for (auto* s : l.stmts) wi_stmt(*s, scope);
  close_loop(l);
}

void BodyPrinter::choice(const LoopChoice& c, const Scope& scope) {
  switch (c.kind) {
    case LoopChoice::Kind::Loop: loop(c.loop, scope); return;
    case LoopChoice::Kind::RowLoops: row_loops(c, scope); return;
    case LoopChoice::Kind::AllAlive:
      line("if (mslport_all_alive) {  // no work-item has returned: the loops below without the `alive` test");
      ++indent_;
      p_.set_known_true(raised_.loops.all_alive_var);
      choice(*c.first, scope);
      p_.set_known_true(-1);
      --indent_;
      line("} else {");
      ++indent_;
      choice(*c.second, scope);
      --indent_;
      line("}");
      return;
    case LoopChoice::Kind::SimdWidth:
      line("if (geo.tg_size.x % mslport::kSimdWidth == 0) {");
      ++indent_;
      choice(*c.first, scope);
      --indent_;
      line("} else {");
      ++indent_;
      choice(*c.second, scope);
      --indent_;
      line("}");
      return;
    case LoopChoice::Kind::Streamed: {
      std::string stores = work_items(c.items, scope), item_bytes, names;
      for (const Expr* t : c.trips) stores += " * uint64_t(" + ex(*t, false) + ")";
      const std::vector<StreamedStore>& streamed = c.first->streams;
      for (size_t i = 0; i < streamed.size(); ++i) {
        const Param& p = k_.params[streamed[i].buffer];
        item_bytes += (i ? " + sizeof(*" : "sizeof(*") + p.name + ")";
        names += (i ? ", " : "") + p.name;
      }
      line("if (mslport::streams_past_cache(geo, " + stores + ", " + item_bytes + ")) {  // " + names +
           ": rows staged, then written with non-temporal stores");
      ++indent_;
      choice(*c.first, scope);
      --indent_;
      line("} else {");
      ++indent_;
      choice(*c.second, scope);
      --indent_;
      line("}");
      return;
    }
  }
}

void BodyPrinter::first_item(const FirstItem& f, const std::string& end, const std::string& comment, const Scope& scope,
                             const std::function<void()>& then) {
  line("if (" + end + " > 0) {" + (comment.empty() ? "" : "  // " + comment));
  ++indent_;
  line("const uint32_t lx = 0, wi = lx + geo.tg_size.x * (ly + geo.tg_size.y * lz);");
  line("(void)wi;");
  p_.set_scalar_work_items(true);
  declare_values(f.values, false);
  for (const Stmt* d : f.defs) wi_stmt(*d, scope);
  then();
  --indent_;
  line("}");
}

void BodyPrinter::prefetch_rows(const LoopChoice& c, const std::string& end, const Scope& scope) {
  if (c.prefetches.reads.empty()) return;
  first_item(c.prefetch_item, end, "the lines this thread's next threadgroups read, about 16 KB on", scope, [&] {
    for (const PrefetchedRead& r : c.prefetches.reads) {
      const std::string row_bytes = "geo.tg_size.x * sizeof(*" + k_.params[r.buffer].name + ")";
      line("mslport::prefetch_ahead(&" + ex(*r.read, true) + ", " + row_bytes + ", " + row_bytes + ");");
    }
  });
}

void BodyPrinter::row_loops(const LoopChoice& c, const Scope& scope) {
  const std::string end = row_end(c.loop.end, scope);
  line("for (uint32_t lz = 0; lz < geo.tg_size.z; ++lz)");
  line("for (uint32_t ly = 0; ly < geo.tg_size.y; ++ly) {");
  ++indent_;
  std::map<const Stmt*, int> staged;
  for (size_t i = 0; i < c.streams.size(); ++i) {
    const StreamedStore& store = c.streams[i];
    const std::string n = std::to_string(i), elem = p_.type(*k_.params[store.buffer].type.elem);
    const Expr& target = *store.stmt->expr->args[0];  // P[E]
    line(elem + "* mslport_row" + n + " = nullptr;");
    line("alignas(64) " + elem + " mslport_stage" + n + "[mslport::kMaxThreads];");
    first_item(c.stream_items[i], end, "", scope, [&] { line("mslport_row" + n + " = &" + ex(target, true) + ";"); });
    staged[store.stmt] = int(i);
  }
  prefetch_rows(c, end, scope);
  Scope inner = scope;
  if (!staged.empty()) inner.staged = &staged;
  loop(c.loop, inner);
  for (size_t i = 0; i < c.streams.size(); ++i) {
    const std::string n = std::to_string(i);
    line("mslport::stream_row(mslport_row" + n + ", mslport_stage" + n + ", " + end + ");");
  }
  --indent_;
  line("}");
}

}  // namespace mslport::back::openmp::print_detail
