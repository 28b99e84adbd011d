// The threadgroup function's body at threadgroup level: the plan's nodes
// (raise/loop_plan.h) in order, each region's loops, the conditions the
// threadgroup evaluates once, the loops it runs around work-item loops.
#include "back/openmp/print/kernel_printer.h"

#include <filesystem>

#include "back/openmp/print/body_printer.h"

namespace mslport::back::openmp {

std::string loc_string(const ir::SourceLoc& l) {
  std::string f = std::filesystem::path(l.file).filename().string();
  return f + ":" + std::to_string(l.line) + ":" + std::to_string(l.col);
}

std::string cpp_string_literal(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20 || c == 0x7f) {
      static const char* kHex = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      out += "\"\"";  // ends the escape: a hex digit after it is a character of its own
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

std::string comment_text(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if ((unsigned char)c < 0x20 || c == 0x7f) c = '?';
  return out;
}

std::string builtin_value(const ir::Param& p, bool simd_groups) {
  using ir::BuiltinId;
  bool scalar = p.type.is_scalar();
  auto pick = [&](const std::string& v3) {
    return scalar ? v3 + ".x" : (p.type.count == 2 ? "mslport::swizzle<0, 1>(" + v3 + ")" : v3);
  };
  switch (p.builtin) {
    case BuiltinId::ThreadPositionInGrid:
      return scalar ? "geo.tg_pos.x * geo.full_size.x + lx"
                    : pick(
                          "mslport::vec<uint32_t, 3>{geo.tg_pos.x * geo.full_size.x + lx, "
                          "geo.tg_pos.y * geo.full_size.y + ly, geo.tg_pos.z * geo.full_size.z + lz}");
    case BuiltinId::ThreadPositionInThreadgroup: return scalar ? "lx" : pick("mslport::vec<uint32_t, 3>{lx, ly, lz}");
    case BuiltinId::ThreadgroupPositionInGrid: return pick("geo.tg_pos");
    case BuiltinId::ThreadsPerThreadgroup: return pick("geo.tg_size");
    case BuiltinId::ThreadsPerGrid:
    case BuiltinId::GridSize: return pick("geo.grid");
    case BuiltinId::ThreadgroupsPerGrid: return pick("geo.ngroups");
    case BuiltinId::DispatchThreadsPerThreadgroup: return pick("geo.full_size");
    case BuiltinId::GridOrigin: return scalar ? "0u" : "mslport::vec<uint32_t, 3>{0u, 0u, 0u}";
    case BuiltinId::ThreadIndexInThreadgroup: return "wi";
    case BuiltinId::ThreadIndexInSimdgroup: return simd_groups ? "(lx - mslport_sx)" : "wi % mslport::kSimdWidth";
    case BuiltinId::SimdgroupIndexInThreadgroup:
      return simd_groups ? "((wi - (lx - mslport_sx)) / mslport::kSimdWidth)" : "wi / mslport::kSimdWidth";
    case BuiltinId::ThreadsPerSimdgroup: return "mslport::kSimdWidth";
    case BuiltinId::SimdgroupsPerThreadgroup: return "(geo.nthreads + mslport::kSimdWidth - 1) / mslport::kSimdWidth";
    // The front end reads these through thread_index_in_threadgroup.
    case BuiltinId::QuadgroupIndexInThreadgroup: return "wi / 4";
    case BuiltinId::ThreadIndexInQuadgroup: return "wi % 4";
  }
  return "0";
}

namespace print_detail {

// ---------------------------------------------------------------- regions --

void BodyPrinter::region(const Region& r, const Scope& scope) {
  switch (r.kind) {
    case Region::Kind::Empty: break;
    case Region::Kind::Loops: choice(*r.loops, scope); break;
    case Region::Kind::PrefixGuarded: {
      const PrefixGuard& g = *r.guard;
      const SourceLoc& at = g.test->loc;
      line_directive(at);
      Scope inner = scope;
      inner.below = "mslport_below" + std::to_string(counter_++);
      line("{  // the test at " + comment_text(loc_string(at)) +
           " as the loop's bounds: only the work-items that pass run");
      ++indent_;
      std::string value = ex(*g.bound, false);
      if (g.index == PrefixGuard::Index::GridX) value = "geo.x_end_below_grid(" + value + ")";
      line("const uint32_t " + inner.below + " = " + value + ";");
      choice(*r.loops, inner);
      --indent_;
      line("}");
      break;
    }
    case Region::Kind::PerWorkItem:
      // A `return` ends only this work-item: its statements run in a lambda.
      line("auto mslport_work_item = [&](uint32_t wi, uint32_t lx, uint32_t ly, uint32_t lz) {");
      ++indent_;
      declare_values(r.values, false);
      for (auto* s : r.stmts) wi_stmt(*s, scope);
      --indent_;
      line("};");
      line("for (uint32_t lz = 0; lz < geo.tg_size.z; ++lz)");
      line("for (uint32_t ly = 0; ly < geo.tg_size.y; ++ly)");
      line("for (uint32_t lx = 0; lx < geo.tg_size.x; ++lx)");
      line("  mslport_work_item(lx + geo.tg_size.x * (ly + geo.tg_size.y * lz), lx, ly, lz);");
      break;
  }
  // Kept for the loops' all-alive copies: recounted after every loop that
  // can end work-items (256 bytes, vectorised), read as one flag by the others.
  if (r.recount_all_alive)
    line("mslport_all_alive = mslport::all_true(st." + k_.vars[raised_.loops.all_alive_var].name + ", nthreads);");
}

// ------------------------------------------------------- threadgroup level --

std::string BodyPrinter::condition(const Condition& c, const SourceLoc& where) {
  const Expr& cond = *c.expr;
  switch (c.kind) {
    case Condition::Kind::Uniform: return ex(cond, false);
    case Condition::Kind::Any: {
      // Any thread still iterating keeps the whole threadgroup iterating.
      std::string v = "mslport_any" + std::to_string(counter_++);
      line("bool " + v + " = false;");
      open_loop(c.loop, Scope{});
      line(v + " = " + v + " || " + ex(*cond.args[0], true) + ";");
      close_loop(c.loop);
      return v;
    }
    case Condition::Kind::Agree: break;
  }
  std::string v = "mslport_cond" + std::to_string(counter_++);
  line("// Threads must agree on this condition (it guards a barrier or SIMD-group function).");
  line("bool " + v + " = false;");
  line("{");
  ++indent_;
  line("bool mslport_first = true;");
  if (sanitize()) line("uint32_t mslport_first_wi = 0;");
  open_loop(c.loop, Scope{});
  if (raised_.loops.alive_var >= 0) line("if (!" + p_.var_ref(raised_.loops.alive_var, true) + ") continue;");
  line("const bool mslport_v = " + ex(cond, true) + ";");
  line("if (mslport_first) { " + v + " = mslport_v; mslport_first = false;" +
       (sanitize() ? " mslport_first_wi = wi;" : "") + " }");
  std::string report;
  if (sanitize()) {
    const std::string site = "mslport_site_" + k_.name + "_";
    report = "mslport_san.divergent(" + site + std::to_string(c.site) + ", " +
             (c.sync_site >= 0 ? "&" + site + std::to_string(c.sync_site) : std::string("nullptr")) +
             ", mslport_first_wi, " + v + ", wi); ";
  }
  line("else if (mslport_v != " + v + ") { " + report + "err.set(mslport::divergence_message(" +
       cpp_string_literal(loc_string(where)) + ", geo)); return; }");
  close_loop(c.loop);
  --indent_;
  line("}");
  return v;
}

void BodyPrinter::tg_stmt(const Stmt& s) {
  switch (s.kind) {
    case Stmt::Kind::Decl: {
      const ir::Var& v = k_.vars[s.var];
      std::string d = p_.var_declarator(v);
      line(s.expr ? d + " = " + ex(*s.expr, false) + ";" : d + ";");
      break;
    }
    case Stmt::Kind::ExprStmt: line(ex(*s.expr, false) + ";"); break;
    case Stmt::Kind::Return: line("return;"); break;
    case Stmt::Kind::Break: line("break;"); break;
    case Stmt::Kind::Continue: line("continue;"); break;
    case Stmt::Kind::Barrier:
      if (s.lockstep)
        line("// work-item loops split here (" + comment_text(loc_string(s.loc)) +
             "; inserted for SIMD-group lock-step or to run a loop inside out, not a Metal barrier)");
      else
        line(std::string("// ") + (s.simdgroup_scope ? "simdgroup_barrier" : "threadgroup_barrier") + " (" +
             comment_text(loc_string(s.loc)) + "): every work-item loop above has finished");
      break;
    default: break;
  }
}

void BodyPrinter::tg_node(const TgNode& n, const Scope& scope) {
  if (n.stmt) line_directive(n.stmt->loc);
  switch (n.kind) {
    case TgNode::Kind::Stmt: tg_stmt(*n.stmt); break;
    case TgNode::Kind::Skipped: break;
    case TgNode::Kind::Block:
      // A helper's inlined body is named (`{  // inlined: f`).
      line(n.stmt && !n.stmt->comment.empty() ? "{  // " + n.stmt->comment : "{");
      ++indent_;
      tg_nodes(n.body, scope);
      --indent_;
      line("}");
      break;
    case TgNode::Kind::If: {
      std::string c = condition(n.cond, n.stmt->loc);
      line("if (" + c + ") {");
      ++indent_;
      tg_nodes(n.body, scope);
      --indent_;
      if (n.stmt->else_body && !n.stmt->else_body->stmts.empty()) {
        line("} else {");
        ++indent_;
        tg_nodes(n.else_body, scope);
        --indent_;
      }
      line("}");
      break;
    }
    case TgNode::Kind::UniformLoop: uniform_loop(n, scope); break;
    case TgNode::Kind::SimdGroupMajor:
      line("if (geo.tg_size.x % mslport::kSimdWidth == 0) {  // one SIMD group at a time through the whole loop");
      ++indent_;
      line("for (uint32_t lz = 0; lz < geo.tg_size.z; ++lz)");
      line("for (uint32_t ly = 0; ly < geo.tg_size.y; ++ly)");
      line("for (uint32_t mslport_sx = 0; mslport_sx < geo.tg_size.x; mslport_sx += mslport::kSimdWidth) {");
      ++indent_;
      uniform_loop(n.body.at(0), scope);
      --indent_;
      line("}");
      --indent_;
      line("} else {");
      ++indent_;
      uniform_loop(n.else_body.at(0), scope);
      --indent_;
      line("}");
      break;
    case TgNode::Kind::SyncLoop: sync_loop(n, scope); break;
    case TgNode::Kind::Collective: collective(n); break;
    case TgNode::Kind::Region: region(n.region, scope); break;
  }
}

void BodyPrinter::uniform_loop(const TgNode& n, const Scope& scope) {
  const Stmt& s = *n.stmt;
  std::string init;
  if (s.init) {
    const ir::Var& v = k_.vars[s.init->var];
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
  tg_nodes(n.body, scope);
  --indent_;
  line(s.kind == Stmt::Kind::DoWhile ? "} while (" + cond + ");" : "}");
}

void BodyPrinter::sync_loop(const TgNode& n, const Scope& scope) {
  const Stmt& s = *n.stmt;
  line("{");
  ++indent_;
  tg_nodes(n.init, scope);
  line("for (bool mslport_first_iter = true;; mslport_first_iter = false) {");
  ++indent_;
  if (s.kind == Stmt::Kind::DoWhile) {
    if (s.expr) {
      line("if (!mslport_first_iter) {");
      ++indent_;
      line("if (!" + condition(n.cond, s.loc) + ") break;");
      --indent_;
      line("}");
    }
  } else if (s.expr) {
    line("if (!" + condition(n.cond, s.loc) + ") break;");
  }
  tg_nodes(n.body, scope);
  if (n.step_loop) {
    open_loop(*n.step_loop, Scope{});
    line(ex(*s.step, true) + ";");
    close_loop(*n.step_loop);
  } else if (s.step) {
    line(ex(*s.step, false) + ";");
  }
  --indent_;
  line("}");
  --indent_;
  line("}");
}

}  // namespace print_detail

bool print_threadgroup_body(const ir::Module& m, const ir::Kernel& k, const RaisedKernel& raised,
                            const EmitOptions& options, DiagEngine& diags, ThreadgroupBody* out) {
  print_detail::BodyPrinter p(m, k, raised, options, diags);
  return p.print(out);
}

}  // namespace mslport::back::openmp
