// Kernels: parameters (address space + recovered attributes -> Param::Kind),
// Metal's implicit buffer indices, the body, and the static threadgroup
// memory limit.
#include <map>
#include <set>

#include "front/attributes.h"
#include "front/builder.h"
#include "front/types.h"

namespace mslport::front {

namespace {

bool parse_index(const ParamAttribute& a, int* out) {
  if (a.args.size() != 1 || a.args[0].empty()) return false;
  for (char ch : a.args[0])
    if (ch < '0' || ch > '9') return false;
  *out = std::stoi(a.args[0]);
  return true;
}

// Builtins that Metal only allows as a scalar (ushort or uint).
bool scalar_only_builtin(ir::BuiltinId b) {
  switch (b) {
    case ir::BuiltinId::ThreadIndexInThreadgroup:
    case ir::BuiltinId::ThreadIndexInSimdgroup:
    case ir::BuiltinId::SimdgroupIndexInThreadgroup:
    case ir::BuiltinId::ThreadsPerSimdgroup:
    case ir::BuiltinId::SimdgroupsPerThreadgroup:
    case ir::BuiltinId::QuadgroupIndexInThreadgroup:
    case ir::BuiltinId::ThreadIndexInQuadgroup: return true;
    default: return false;
  }
}

bool valid_builtin_type(ir::BuiltinId b, const ir::Type& t) {
  bool int_kind = t.scalar == ir::ScalarKind::UInt || t.scalar == ir::ScalarKind::UShort;
  if (t.is_scalar()) return int_kind;
  if (t.is_vector()) return int_kind && t.count <= 3 && !scalar_only_builtin(b);
  return false;
}

bool is_buffer_kind(ir::Param::Kind k) {
  return k == ir::Param::Kind::Buffer || k == ir::Param::Kind::ConstantRef || k == ir::Param::Kind::ConstantValue;
}

// A kernel parameter is a local copy in Metal (`d += offset;` moves a
// buffer pointer): a parameter the body assigns becomes a variable
// initialised from it, so the backends keep seeing parameters as values.
void localize_written_params(ir::Kernel& k, const ir::Module* m) {
  std::set<int> written;
  auto root_param = [](const ir::Expr* e) {
    while (e && (e->kind == ir::Expr::Kind::Member || e->kind == ir::Expr::Kind::Swizzle ||
                 (e->kind == ir::Expr::Kind::Index && e->args[0]->type.is_vector())))
      e = e->args[0].get();
    return e && e->kind == ir::Expr::Kind::ParamRef ? e->index : -1;
  };
  ir::walk_stmt_exprs(*k.body, [&](const ir::Expr& e) {
    if (ir::writes_operand(e) && !e.args.empty()) {
      int p = root_param(e.args[0].get());
      if (p >= 0) written.insert(p);
    }
    // An argument for a helper's reference parameter may be written
    // through it (SPIRV-Cross passes builtins as `thread uint&`).
    if (e.kind == ir::Expr::Kind::UserCall && m != nullptr) {
      const auto& params = m->functions.at(e.index).def.params;
      for (size_t i = 0; i < e.args.size() && i < params.size(); ++i) {
        int p = params[i].kind == ir::Param::Kind::Reference ? root_param(e.args[i].get()) : -1;
        if (p >= 0) written.insert(p);
      }
    }
    return true;
  });
  // An object in constant memory (`constant P& p`) is no local copy: its
  // address is taken where it lives, and clang rejects writes to it.
  for (auto it = written.begin(); it != written.end();)
    it = k.params[*it].kind == ir::Param::Kind::ConstantRef ? written.erase(it) : std::next(it);
  if (written.empty()) return;
  std::map<int, int> var_of;
  std::vector<ir::StmtPtr> decls;
  for (int p : written) {
    const ir::Param& param = k.params[p];
    ir::Type t = param.type;
    // A constant reference parameter is an object in the constant space:
    // writing it is clang's error, so only values and pointers get here.
    int v = ir::add_var(k, param.name + "_local", t, param.loc);
    decls.push_back(ir::make_decl(v, ir::make_param_ref(k, p, param.loc), param.loc));
    var_of[p] = v;
  }
  ir::walk_stmts_mut(*k.body, [&](ir::Stmt& s) {
    for (ir::ExprPtr* e : {&s.expr, &s.step})
      if (*e)
        ir::walk_exprs_mut(**e, [&](ir::Expr& x) {
          if (x.kind == ir::Expr::Kind::ParamRef && var_of.count(x.index)) {
            x.kind = ir::Expr::Kind::VarRef;
            x.index = var_of.at(x.index);
          }
          return true;
        });
    return true;
  });
  k.body->stmts.insert(k.body->stmts.begin(), std::make_move_iterator(decls.begin()),
                       std::make_move_iterator(decls.end()));
}

}  // namespace

bool is_kernel(CXCursor fn) {
  for (CXCursor ch : children(fn))
    if (clang_getCursorKind(ch) == CXCursor_AnnotateAttr && spelling(ch) == "metal_kernel") return true;
  return false;
}

bool FunctionBuilder::build_params(CXCursor fn) {
  int n = clang_Cursor_getNumArguments(fn);
  std::vector<CXCursor> parms;
  for (int i = 0; i < n; ++i) parms.push_back(clang_Cursor_getArgument(fn, i));
  auto attrs = param_attributes(ctx_, fn, parms);
  bool ok = true;
  auto fail = [&](const ir::SourceLoc& l, const std::string& msg) {
    ctx_.error(l, msg);
    ok = false;
  };
  for (int i = 0; i < n; ++i) {
    CXCursor pc = parms[i];
    ir::Param p;
    p.kind = ir::Param::Kind::Builtin;
    p.name = spelling(pc);
    p.loc = ctx_.loc(pc);
    std::optional<int> buffer_idx, tg_idx;
    std::optional<ir::BuiltinId> builtin;
    bool rejected = false;  // reported already: skip the type checks
    bool absent = false;    // [[function_constant(c)]] with c false
    for (const ParamAttribute& a : attrs[i]) {
      if (auto b = ir::builtin_from_attr(a.name)) {
        builtin = b;
      } else if (a.name == "buffer" || a.name == "threadgroup") {
        int idx = 0;
        if (!parse_index(a, &idx)) {
          fail(a.loc, "the argument of [[" + a.name + "(...)]] must be an integer literal");
          continue;
        }
        (a.name == "buffer" ? buffer_idx : tg_idx) = idx;
      } else if (a.name == "function_constant") {
        // The argument exists only when the named bool constant is true.
        std::string fc = a.args.size() == 1 ? a.args[0] : "";
        // A flag the host sets: the host binds the parameter where it is
        // true (checked after the parameter's kind is known, below).
        if (ctx_.host_set_function_constants.count(fc)) {
          p.present_if = fc;
          continue;
        }
        auto it = ctx_.specialization_constants.find(fc);
        if (it == ctx_.specialization_constants.end() || !it->second) {
          fail(a.loc, "[[function_constant(" + fc + ")]] on parameter '" + p.name +
                          "' needs a function constant (or a constant computed from them) with a value at "
                          "translation: give it one with --function-constant");
          continue;
        }
        absent = *it->second == 0;
      } else if (a.name == "texture" || a.name == "sampler") {
        fail(a.loc, "textures and samplers are not supported yet");
        rejected = true;
      } else if (a.name == "stage_in" || a.name == "visible_function_table" ||
                 a.name == "intersection_function_table" || a.name == "primitive_acceleration_structure" ||
                 a.name == "instance_acceleration_structure") {
        fail(a.loc, "attribute '" + a.name + "' on a kernel parameter is not supported yet");
      } else {
        fail(a.loc, "unknown attribute '" + a.name + "' on kernel parameter");
      }
    }

    CXType ct = clang_getCanonicalType(clang_getCursorType(pc));
    std::string why;
    if (rejected) {
      // nothing more to say about this parameter
    } else if (ct.kind == CXType_ConstantArray || ct.kind == CXType_IncompleteArray) {
      // C++ adjusts a parameter of array type to a pointer to its element
      // ([dcl.fct]): `constant int64_t strides[3]` is a `constant int64_t*`
      // buffer, its size not checked, as in Metal.
      // clang keeps the address space and const on the array type.
      CXType elem = clang_getArrayElementType(ct);
      ir::AddressSpace space = address_space_of(ct);
      auto t = convert_type(ctx_, elem, &why);
      if (!t) {
        fail(p.loc, why + " is not supported yet");
      } else if (builtin || tg_idx) {
        fail(p.loc, "array parameter '" + p.name + "' cannot take a thread-position or [[threadgroup(n)]] attribute");
      } else if (space == ir::AddressSpace::Device || space == ir::AddressSpace::Constant) {
        p.kind = ir::Param::Kind::Buffer;
        p.type = ir::Type::pointer_to(*t, space, clang_isConstQualifiedType(ct) != 0);
        p.index = buffer_idx.value_or(-1);
      } else {
        fail(p.loc, "array parameter '" + p.name + "' must be in the device or constant address space");
      }
    } else if (ct.kind == CXType_Pointer || ct.kind == CXType_LValueReference) {
      CXType pointee = clang_getPointeeType(ct);
      ir::AddressSpace space = address_space_of(pointee);
      if (builtin) fail(p.loc, "thread-position attribute on pointer or reference parameter '" + p.name + "'");
      auto t = convert_type(ctx_, ct.kind == CXType_Pointer ? ct : pointee, &why);
      if (!t) {
        fail(p.loc, why + " is not supported yet");
      } else if (ct.kind == CXType_LValueReference) {
        if (space == ir::AddressSpace::Constant) {
          p.kind = ir::Param::Kind::ConstantRef;
          p.type = *t;
          p.index = buffer_idx.value_or(-1);
        } else if (space == ir::AddressSpace::Device) {
          // `device T& x [[buffer(n)]]`: a buffer holding one T; its uses
          // read and write `*x`.
          p.kind = ir::Param::Kind::Buffer;
          p.type = ir::Type::pointer_to(*t, space, clang_isConstQualifiedType(pointee) != 0);
          p.index = buffer_idx.value_or(-1);
          reference_params_.insert((int)k_->params.size());
        } else {
          fail(p.loc, "reference parameter '" + p.name + "' must be in the constant address space");
        }
        if (tg_idx) fail(p.loc, "[[threadgroup(n)]] on reference parameter '" + p.name + "'");
      } else if (space == ir::AddressSpace::Device || space == ir::AddressSpace::Constant) {
        p.kind = ir::Param::Kind::Buffer;
        p.type = *t;
        p.index = buffer_idx.value_or(-1);
        if (tg_idx)
          fail(p.loc, "[[threadgroup(n)]] on " + std::string(ir::address_space_name(space)) + " pointer parameter '" +
                          p.name + "'");
      } else if (space == ir::AddressSpace::Threadgroup) {
        p.kind = ir::Param::Kind::ThreadgroupMemory;
        p.type = *t;
        p.index = tg_idx.value_or(-1);
        if (buffer_idx) fail(p.loc, "[[buffer(n)]] on threadgroup pointer parameter '" + p.name + "'");
      } else {
        fail(p.loc, "kernel parameter '" + p.name + "' must point to device, constant or threadgroup memory");
      }
    } else {
      auto t = convert_type(ctx_, ct, &why);
      std::string tname = type_spelling(clang_getCursorType(pc));
      if (!t) {
        fail(p.loc, why + " is not supported yet");
      } else if (builtin) {
        p.kind = ir::Param::Kind::Builtin;
        p.builtin = *builtin;
        p.type = *t;
        if (!valid_builtin_type(*builtin, *t))
          fail(p.loc, "[[" + std::string(ir::builtin_attr_name(*builtin)) + "]] parameter '" + p.name +
                          "' cannot have type '" + ir::type_name(ctx_.module, *t) + "'");
        if (buffer_idx || tg_idx) fail(p.loc, "parameter '" + p.name + "' has both a builtin and an index attribute");
        // Positions and counts come as uint; a parameter declared ushort
        // (vectors too) is that value converted where it is used.
        if (p.type.scalar == ir::ScalarKind::UShort) {
          narrow_params_[(int)k_->params.size()] = p.type;
          p.type.scalar = ir::ScalarKind::UInt;
        }
        // A quad-group position is thread_index_in_threadgroup / 4 or % 4:
        // the parameter carries the thread index, its uses the division.
        if (*builtin == ir::BuiltinId::QuadgroupIndexInThreadgroup ||
            *builtin == ir::BuiltinId::ThreadIndexInQuadgroup) {
          quad_params_[(int)k_->params.size()] =
              *builtin == ir::BuiltinId::QuadgroupIndexInThreadgroup ? ir::BinaryOp::Div : ir::BinaryOp::Rem;
          p.builtin = ir::BuiltinId::ThreadIndexInThreadgroup;
          p.name += "_thread_index";
        }
      } else if (buffer_idx) {
        p.kind = ir::Param::Kind::ConstantValue;
        p.type = *t;
        p.index = *buffer_idx;
      } else {
        fail(p.loc, "kernel parameter '" + p.name + "' of type '" + ir::type_name(ctx_.module, *t) +
                        "' needs an address space (device, constant, threadgroup) or an attribute such as "
                        "[[buffer(n)]] or [[thread_position_in_grid]]");
      }
    }
    if (absent) {
      absent_params_[usr_of(pc)] = p.name;
      continue;
    }
    if (!p.present_if.empty() && !is_buffer_kind(p.kind)) {
      fail(p.loc, "[[function_constant(" + p.present_if + ")]] on parameter '" + p.name +
                      "', which is no buffer, with a flag the host sets: not supported yet (give the flag a value " +
                      "with --function-constant)");
      p.present_if.clear();
    }
    k_->params.push_back(std::move(p));
    register_param(pc, (int)k_->params.size() - 1);
  }

  // Indices: Metal assigns parameters without [[buffer(n)]] the next unused
  // index in order of appearance (same for [[threadgroup(n)]]).
  for (bool tg : {false, true}) {
    std::map<int, std::string> used;
    for (auto& p : k_->params) {
      bool mine = tg ? p.kind == ir::Param::Kind::ThreadgroupMemory : is_buffer_kind(p.kind);
      if (!mine || p.index < 0) continue;
      if (auto it = used.find(p.index); it != used.end()) {
        fail(p.loc, std::string(tg ? "threadgroup" : "buffer") + " index " + std::to_string(p.index) +
                        " is used by both '" + it->second + "' and '" + p.name + "'");
      }
      used[p.index] = p.name;
    }
    int next = 0;
    for (auto& p : k_->params) {
      bool mine = tg ? p.kind == ir::Param::Kind::ThreadgroupMemory : is_buffer_kind(p.kind);
      if (!mine || p.index >= 0) continue;
      while (used.count(next)) ++next;
      p.index = next;
      p.implicit_index = true;
      used[next] = p.name;
    }
  }
  return ok;
}

void build_kernel(FrontContext& ctx, CXCursor fn, const std::string& name, const ir::SourceLoc& where) {
  ir::Kernel k;
  k.name = name;
  k.loc = where;
  // `kernel void int2(...)`: the name is a Metal vector type (the shim's
  // constructor macro rewrote it), which Metal rejects as well.
  const std::string ctor_prefix = "__mslport_make_";
  if (name.rfind(ctor_prefix, 0) == 0) {
    ctx.error(where, "'" + name.substr(ctor_prefix.size()) + "' is a Metal type name and cannot name a kernel");
    return;
  }
  if (auto it = ctx.kernel_names.find(name); it != ctx.kernel_names.end()) {
    ctx.error(where, "a second kernel named '" + name + "' (the first is at " + it->second.file + ":" +
                         std::to_string(it->second.line) + ")");
    return;
  }
  ctx.kernel_names[name] = where;
  size_t mark = ctx.diags.diagnostics().size();
  if (const auto* errs = function_errors(ctx, fn)) {
    // clang's errors in its body say it all; building it would repeat them.
    for (auto& d : *errs) ctx.diags.report(d.severity, d.loc, d.message);
    if (ctx.skipped) ctx.skipped->push_back(SkippedKernel{name, where, ctx.diags.take_since(mark)});
    return;
  }
  FunctionBuilder b(ctx, &k);
  b.build_params(fn);
  for (CXCursor ch : children(fn))
    if (clang_getCursorKind(ch) == CXCursor_CompoundStmt) k.body = b.stmt(ch);
  if (!k.body) k.body = ir::make_block({}, k.loc);
  localize_written_params(k, &ctx.module);

  // Static threadgroup memory (the kernel's own `threadgroup T a[N];`).
  int bytes = 0;
  for (auto& a : k.tg_allocs) {
    int align = ir::type_align(ctx.module, a.type);
    bytes = (bytes + align - 1) / align * align + ir::type_size(ctx.module, a.type);
  }
  if (bytes > ir::kMaxThreadgroupMemoryBytes)
    ctx.error(k.loc, "kernel '" + k.name + "' declares " + std::to_string(bytes) +
                         " bytes of threadgroup memory; Metal allows at most " +
                         std::to_string(ir::kMaxThreadgroupMemoryBytes));
  if (ctx.skipped) {
    bool failed = false;
    for (size_t i = mark; i < ctx.diags.diagnostics().size(); ++i)
      if (ctx.diags.diagnostics()[i].severity == Severity::Error) failed = true;
    if (failed) {
      ctx.skipped->push_back(SkippedKernel{name, where, ctx.diags.take_since(mark)});
      return;
    }
  }
  ctx.module.kernels.push_back(std::move(k));
}

}  // namespace mslport::front
