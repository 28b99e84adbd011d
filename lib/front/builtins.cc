#include "front/builtins.h"

#include <optional>
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
  // clang's hints, which machine-generated MSL guards with __has_builtin
  // (SPIRV-Cross's SPV_EXPECT and SPV_ASSUME): a port needs no hint.
  if (name == "__builtin_expect") {
    c.kind = Callee::Kind::Expect;
    return c;
  }
  if (name == "__builtin_assume") {
    c.kind = Callee::Kind::Assume;
    return c;
  }
  if ((name == "__mslport_convert" || name == "__mslport_scalar_operand" || name == "__mslport_value" ||
       name == "__mslport_load") &&
      ctx.in_shim(fn)) {
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
  bool shim_helper = name.rfind("__metal_", 0) == 0 || ((name.rfind("operator", 0) == 0 || name == "transpose") &&
                                                        clang_isCursorDefinition(clang_getCursorDefinition(fn)));
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
  // metal::precise::exp keeps its namespace (a different accuracy contract);
  // metal::fast:: is Metal's default accuracy, the plain name. A precise::
  // form with no row of its own is exact either way (precise::floor).
  std::optional<ir::Intrinsic> id;
  if (ns.size() >= 2 && ns[ns.size() - 2] == "precise") id = ir::intrinsic_named("precise::" + name);
  if (!id) id = ir::intrinsic_named(name);
  if (!id || ir::intrinsic_info(*id).group == ir::IntrinsicGroup::Internal) {
    c.kind = Callee::Kind::OtherMetal;
    return c;
  }
  const ir::IntrinsicInfo& info = ir::intrinsic_info(*id);
  c.intrinsic = *id;
  c.name = info.name;
  switch (info.form) {
    case ir::IntrinsicForm::Call: c.kind = Callee::Kind::Intrinsic; break;
    case ir::IntrinsicForm::Collective:
      c.kind = Callee::Kind::Collective;
      c.op = *ir::collective_from_name(info.name);
      break;
    case ir::IntrinsicForm::Barrier:
      c.kind =
          *id == ir::Intrinsic::SimdgroupBarrier ? Callee::Kind::SimdgroupBarrier : Callee::Kind::ThreadgroupBarrier;
      break;
    case ir::IntrinsicForm::SimdMatrix: c.kind = Callee::Kind::SimdMatrix; break;
    case ir::IntrinsicForm::Bitcast: c.kind = Callee::Kind::AsType; break;
  }
  return c;
}

}  // namespace mslport::front
