// Step 1: report, at the node's source location, every construct the OpenCL
// backend cannot print yet, instead of emitting wrong code. Once per
// construct and kernel, at its first use.
#include <optional>
#include <set>

#include "back/opencl/keywords.h"
#include "back/opencl/raise/raise.h"

namespace mslport::back::opencl {
namespace {

std::optional<std::string> unsupported_type(const ir::Module& m, const ir::Type& t) {
  using K = ir::Type::Kind;
  switch (t.kind) {
    case K::SimdMatrix:  // raise/simdgroup_matrix.cc
      if ((t.scalar == ir::ScalarKind::Float || t.scalar == ir::ScalarKind::Half ||
           t.scalar == ir::ScalarKind::BFloat) &&
          t.count == 8)
        return std::nullopt;
      return ir::type_name(m, t);
    case K::Vector: return std::nullopt;  // bool vectors too: bool_vectors.cc
    case K::Pointer:
      if (t.elem && t.elem->is_pointer()) return "the pointer-to-pointer type " + ir::type_name(m, t);
      return t.elem ? unsupported_type(m, *t.elem) : std::nullopt;
    case K::Array: return t.elem ? unsupported_type(m, *t.elem) : std::nullopt;
    case K::Struct:
      if (t.struct_index < 0 || t.struct_index >= (int)m.structs.size()) return "an unknown struct type";
      for (auto& f : m.structs[t.struct_index].fields) {
        if (f.type.is_pointer()) return "a pointer field in struct " + m.structs[t.struct_index].name;
        if (auto u = unsupported_type(m, f.type)) return u;
      }
      return std::nullopt;
    default: return std::nullopt;
  }
}

}  // namespace

bool check_supported(RaiseContext& ctx, const ir::Kernel& k) {
  const int before = ctx.diags.error_count();
  // The runtime finds an OpenCL kernel by its Metal name: it cannot be renamed.
  if (is_reserved_in_opencl(k.name)) ctx.unsupported(k.loc, "a kernel named '" + k.name + "' (reserved in OpenCL C)");
  std::set<std::string> reported;
  auto check = [&](const ir::Type& t, const ir::SourceLoc& loc) {
    if (auto what = unsupported_type(ctx.module, t)) {
      if (reported.insert(*what).second) ctx.unsupported(loc.valid() ? loc : k.loc, *what);
    }
  };
  for (auto& p : k.params) check(p.type, p.loc);
  for (auto& a : k.tg_allocs) check(a.type, a.loc);
  if (k.body) {
    ir::walk_stmts(*k.body, [&](const ir::Stmt& s) {
      if (s.kind == ir::Stmt::Kind::Decl && s.var >= 0)
        check(k.vars.at(s.var).type, s.loc.valid() ? s.loc : k.vars[s.var].loc);
      return true;
    });
    ir::walk_stmt_exprs(*k.body, [&](const ir::Expr& e) {
      check(e.type, e.loc);
      return true;
    });
  }
  for (auto& v : k.vars) check(v.type, v.loc);
  return ctx.diags.error_count() == before;
}

}  // namespace mslport::back::opencl
