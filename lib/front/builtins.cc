#include "front/builtins.h"

#include <vector>

namespace mslport::front {

Callee classify_callee(const FrontContext& ctx, CXCursor fn) {
  Callee c;
  std::string name = spelling(fn);
  // clang builtins the shim's macros expand to.
  if (name == "__builtin_inff" || name == "__builtin_huge_valf" || name == "__builtin_inf") {
    c.kind = Callee::Kind::Infinity;
    return c;
  }
  if (name == "__builtin_nanf" || name == "__builtin_nan") {
    c.kind = Callee::Kind::NaN;
    return c;
  }
  if (name == "__mslport_convert" && ctx.in_shim(fn)) {
    c.kind = Callee::Kind::Conversion;
    c.name = name;
    return c;
  }
  if (name.rfind("__mslport_make_", 0) == 0 && ctx.in_shim(fn)) {
    c.kind = Callee::Kind::VectorConstructor;
    c.name = name.substr(15);
    return c;
  }
  // Enclosing namespaces, innermost first.
  std::vector<std::string> ns;
  for (CXCursor p = clang_getCursorSemanticParent(fn);
       !clang_Cursor_isNull(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit;
       p = clang_getCursorSemanticParent(p)) {
    if (clang_getCursorKind(p) == CXCursor_Namespace) ns.push_back(spelling(p));
    else break;
  }
  bool in_metal = !ns.empty() && ns.back() == "metal" && ctx.in_shim(fn);
  // Apple's __metal_* builtins are forwarding helpers in the shim: inlined
  // like the user's own.
  // So are the shim's matrix operators and transpose (Metal code in the shim).
  bool shim_helper = name.rfind("__metal_", 0) == 0 ||
                     ((name.rfind("operator", 0) == 0 || name == "transpose") && clang_isCursorDefinition(
                                                                                       clang_getCursorDefinition(fn)));
  if (in_metal && shim_helper) {
    c.kind = Callee::Kind::User;
    c.name = name;
    return c;
  }
  if (!in_metal) {
    c.kind = ctx.in_shim(fn) ? Callee::Kind::OtherMetal : Callee::Kind::User;
    c.name = name;
    return c;
  }
  c.name = name;
  if (name == "threadgroup_barrier") { c.kind = Callee::Kind::ThreadgroupBarrier; return c; }
  if (name == "simdgroup_barrier") { c.kind = Callee::Kind::SimdgroupBarrier; return c; }
  if (name == "as_type") { c.kind = Callee::Kind::AsType; return c; }
  if (auto op = ir::collective_from_name(name)) {
    c.kind = Callee::Kind::Collective;
    c.op = *op;
    return c;
  }
  if (name.rfind("simdgroup_", 0) == 0 || name == "make_filled_simdgroup_matrix") {
    c.kind = Callee::Kind::SimdMatrix;
    return c;
  }
  if (name.rfind("atomic_", 0) == 0) { c.kind = Callee::Kind::Atomic; return c; }
  if (name.rfind("simd_", 0) == 0 || name.rfind("quad_", 0) == 0 || name.rfind("operator", 0) == 0) {
    c.kind = Callee::Kind::OtherMetal;
    return c;
  }
  c.kind = Callee::Kind::MathFunction;
  // metal::precise::exp keeps its namespace (different accuracy contract);
  // metal::fast:: is the default accuracy in Metal's fast-math mode, so it is
  // the plain name.
  if (ns.size() >= 2 && ns[ns.size() - 2] == "precise") c.name = "precise::" + name;
  return c;
}

}  // namespace mslport::front
