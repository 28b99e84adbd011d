// The printer of a threadgroup function's body (kernel_printer.h), shared by
// the files that print its parts: kernel_printer.cc (threadgroup-level
// statements, regions, conditions), work_item_loops.cc (loops over the
// work-items and their copies), simd_collectives.cc (SIMD-group functions),
// work_item_statements.cc (what each work-item runs).
#pragma once

#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "back/openmp/print/cpp_printer.h"
#include "back/openmp/print/kernel_printer.h"

namespace mslport::back::openmp::print_detail {

using ir::Expr;
using ir::Param;
using ir::SourceLoc;
using ir::Stmt;
using Stmts = std::vector<const Stmt*>;

// What the enclosing plan nodes name for the statements inside them.
struct Scope {
  std::string below;                                   // a prefix guard's bound (RowEnd::Below*)
  const std::map<const Stmt*, int>* staged = nullptr;  // stores written into row buffer N
};

class BodyPrinter {
 public:
  BodyPrinter(const ir::Module& m, const ir::Kernel& k, const RaisedKernel& raised, const EmitOptions& opt,
              DiagEngine& diags)
      : k_(k), raised_(raised), plan_(raised.storage), opt_(opt), diags_(diags), p_(m, &k, &raised.storage, diags) {}

  bool print(ThreadgroupBody* out) {
    tg_nodes(raised_.loops.body, Scope{});
    out->text = body_.str();
    out->state_members = state_members_;
    return ok_ && p_.ok();
  }

 private:
  void line(const std::string& s) { body_ << std::string(indent_ * 2, ' ') << s << "\n"; }
  void line_directive(const SourceLoc& l) {
    if (opt_.line_directives && l.valid()) body_ << "#line " << l.line << " " << cpp_string_literal(l.file) << "\n";
  }
  std::string ex(const Expr& e, bool wi) { return p_.expr(e, wi); }
  bool sanitize() const { return opt_.sanitize != 0; }

  // ---- the values a loop declares
  void declare_remat(int var) {
    line(p_.declarator(k_.vars[var].type, k_.vars[var].name) + " = " + ex(*plan_.remat_init[var], true) + ";");
  }
  void declare_values(const LoopValues& v, bool simd_groups);
  void declare_hoisted(const LoopValues& v);

  // ---- loops over the work-items
  std::string row_end(RowEnd e, const Scope& scope) const;
  std::string work_items(RowEnd e, const Scope& scope) const;
  void open_loop(const WorkItemLoop& l, const Scope& scope);
  void close_loop(const WorkItemLoop& l);
  void loop(const WorkItemLoop& l, const Scope& scope);
  void choice(const LoopChoice& c, const Scope& scope);
  void row_loops(const LoopChoice& c, const Scope& scope);
  void first_item(const FirstItem& f, const std::string& end, const std::string& comment, const Scope& scope,
                  const std::function<void()>& then);
  void prefetch_rows(const LoopChoice& c, const std::string& end, const Scope& scope);

  // ---- threadgroup level
  void region(const Region& r, const Scope& scope);
  void tg_nodes(const std::vector<TgNode>& nodes, const Scope& scope) {
    for (const TgNode& n : nodes) tg_node(n, scope);
  }
  void tg_node(const TgNode& n, const Scope& scope);
  void tg_stmt(const Stmt& s);
  std::string condition(const Condition& c, const SourceLoc& where);
  void collective(const TgNode& n);
  void uniform_loop(const TgNode& n, const Scope& scope);
  void sync_loop(const TgNode& n, const Scope& scope);

  // ---- per work-item
  void wi_stmt(const Stmt& s, const Scope& scope);
  void wi_block_contents(const Stmt& b, const Scope& scope) {
    ++indent_;
    for (auto& c : b.stmts) wi_stmt(*c, scope);
    --indent_;
  }
  void guarded_stmts(const Stmts& stmts, size_t from, const Scope& scope);

  const ir::Kernel& k_;
  const RaisedKernel& raised_;
  const StoragePlan& plan_;
  const EmitOptions& opt_;
  DiagEngine& diags_;
  CppPrinter p_;
  std::ostringstream body_;
  int indent_ = 1;
  int counter_ = 0;  // numbers the temporaries the body declares
  bool ok_ = true;
  std::vector<std::string> state_members_;
};

}  // namespace mslport::back::openmp::print_detail
