#include "back/openmp/print/cpp_printer.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>

#include "back/openmp/raise/invariant_division.h"
#include "back/openmp/raise/loop_schedule_points.h"
#include "back/openmp/raise/sanitize.h"

namespace mslport::back::openmp {
using namespace ir;

void CppPrinter::unsupported(const SourceLoc& loc, const std::string& what) {
  diags_.error(loc, what + " is not supported by the OpenMP backend yet");
  ok_ = false;
}

std::string CppPrinter::scalar(ScalarKind s) const {
  switch (s) {
    case ScalarKind::Bool: return "bool";
    case ScalarKind::Char: return "int8_t";
    case ScalarKind::UChar: return "uint8_t";
    case ScalarKind::Short: return "int16_t";
    case ScalarKind::UShort: return "uint16_t";
    case ScalarKind::Int: return "int32_t";
    case ScalarKind::UInt: return "uint32_t";
    case ScalarKind::Long: return "int64_t";
    case ScalarKind::ULong: return "uint64_t";
    case ScalarKind::Half: return "mslport::half";
    case ScalarKind::BFloat: return "mslport::bfloat";
    case ScalarKind::Float: return "float";
  }
  return "?";
}

std::string CppPrinter::type(const Type& t) const {
  switch (t.kind) {
    case Type::Kind::Void: return "void";
    case Type::Kind::Scalar: return scalar(t.scalar);
    case Type::Kind::Vector: return "mslport::vec<" + scalar(t.scalar) + ", " + std::to_string(t.count) + ">";
    case Type::Kind::Pointer: return std::string(t.is_const ? "const " : "") + type(*t.elem) + "*";
    case Type::Kind::Array: return type(*t.elem) + "[" + std::to_string(t.count) + "]";
    case Type::Kind::Struct: return m_.structs.at(t.struct_index).name;
    case Type::Kind::SimdMatrix:
      return "mslport::simdgroup_matrix<" + scalar(t.scalar) + ", " + std::to_string(t.count) + ">";
  }
  return "?";
}

std::string CppPrinter::var_declarator(const ir::Var& v) const {
  if (!v.is_const) return declarator(v.type, v.name);
  if (v.type.is_pointer()) return declarator(v.type, "const " + v.name);
  return "const " + declarator(v.type, v.name);
}

std::string CppPrinter::declarator(const Type& t, const std::string& name) const {
  if (t.kind == Type::Kind::Array) {
    std::string dims;
    const Type* e = &t;
    while (e->kind == Type::Kind::Array) {
      dims += "[" + (e->count ? std::to_string(e->count) : "") + "]";  // [] a runtime-sized trailing array
      e = e->elem.get();
    }
    return type(*e) + " " + name + dims;
  }
  return type(t) + " " + name;
}

std::string CppPrinter::literal_float(const Expr& e) const {
  double v = e.float_value;
  std::string s;
  if (std::isinf(v)) {
    s = v > 0 ? "std::numeric_limits<float>::infinity()" : "(-std::numeric_limits<float>::infinity())";
  } else if (std::isnan(v)) {
    s = "std::numeric_limits<float>::quiet_NaN()";
  } else {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    s = buf;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    s += "f";
  }
  if (e.type.is_scalar() && e.type.scalar != ScalarKind::Float) return scalar(e.type.scalar) + "(" + s + ")";
  return s;
}

std::string CppPrinter::var_ref(int var, bool wi) {
  const Var& v = k_->vars.at(var);
  if (var == known_true_) return "true";
  if (!plan_) return v.name;
  switch (plan_->storage.at(var)) {
    case Storage::PerThread:
      if (!wi) {
        diags_.error(v.loc, "internal error: per-thread variable '" + v.name + "' used at threadgroup level");
        ok_ = false;
      }
      return "st." + v.name + "[wi]";
    default: return v.name;
  }
}

static bool needs_parens(const Expr& e) {
  return e.kind == Expr::Kind::Binary || e.kind == Expr::Kind::Conditional || e.kind == Expr::Kind::Assign ||
         e.kind == Expr::Kind::Unary;
}

std::string CppPrinter::call(const Expr& e, bool wi) {
  std::string name = e.spelling;
  if (name == kThreadgroupSizeX) return "geo.tg_size.x";
  if (name == kThreadgroupThreads) return "geo.nthreads";
  // Calls the passes insert, and the openmp_rt.h functions they become.
  static const std::map<std::string, std::string> kRuntimeCalls = {
      {kStridedTrips, "mslport::strided_trips"},
      {kFullTrips, "mslport::full_trips"},
      {kPrefetchAhead, "mslport::prefetch_ahead"},
      {kUdivPrepare, "mslport::udiv_prepare"},
      {kUdivPrepared, "mslport::udiv"},
      {kUmodPrepared, "mslport::umod"},
  };
  if (auto it = kRuntimeCalls.find(name); it != kRuntimeCalls.end()) {
    std::string out = it->second + "(";
    for (size_t i = 0; i < e.args.size(); ++i) out += (i ? ", " : "") + expr(*e.args[i], wi);
    return out + ")";
  }
  if (std::string checker = sanitizer_call(e, wi); !checker.empty()) return checker;
  if (e.kind == Expr::Kind::SimdMatrixOp) {
    if (e.matrix_op == SimdMatrixOpKind::Fill && e.args.size() == 1)
      return type(e.type) + "::filled(" + expr(*e.args[0], wi) + ")";
    if (e.matrix_op == SimdMatrixOpKind::Diagonal && e.args.size() == 1)
      return type(e.type) + "::diagonal(" + expr(*e.args[0], wi) + ")";
  } else {
    // A Metal function: the row of ir/intrinsic_table.def names its C++.
    const std::string cpp = e.intrinsic == Intrinsic::None ? "" : intrinsic_info(e.intrinsic).openmp;
    if (cpp.empty() || cpp == "*") {
      unsupported(e.loc, "Metal function '" + e.spelling + "'");
      return "/*unsupported*/0";
    }
    name = cpp;
  }
  std::string s = "mslport::msl::" + name + "(";
  for (size_t i = 0; i < e.args.size(); ++i) {
    if (i) s += ", ";
    s += expr(*e.args[i], wi);
  }
  return s + ")";
}

std::string CppPrinter::sanitizer_call(const Expr& e, bool wi) {
  const std::string& name = e.spelling;
  if (name.rfind("__mslport_san_", 0) != 0) return "";
  // Who accesses: the work-item, or the threadgroup as a whole.
  const std::string who = wi ? "wi" : "mslport::san::kTgLevel";
  auto site = [&](const Expr& lit) { return "mslport_site_" + k_->name + "_" + std::to_string(lit.int_value); };
  auto rest = [&](size_t from) {
    std::string s;
    for (size_t i = from; i < e.args.size(); ++i) s += ", " + expr(*e.args[i], wi);
    return s;
  };
  if (name == kSanAccess) {
    static const char* kUse[] = {"Read", "Write", "ReadWrite", "AtomicRead", "AtomicWrite", "AtomicReadWrite"};
    const Expr& address = *e.args[3];
    const bool plain = address.kind == Expr::Kind::Unary && address.unary_op == UnaryOp::AddrOf;
    std::string a = expr(address, wi);
    if (!plain && needs_parens(address)) a = "(" + a + ")";
    return "mslport_san.ref(" + site(*e.args[0]) + ", mslport::san::Use::" + kUse[e.args[1]->int_value] + ", " +
           std::to_string(e.args[2]->int_value) + ", " + a + ", " + who + ")";
  }
  if (name == kSanTileLoad || name == kSanTileStore)
    return std::string("mslport_san.") + (name == kSanTileLoad ? "tile_load(" : "tile_store(") + site(*e.args[0]) +
           ", " + std::to_string(e.args[1]->int_value) + rest(2) + ", " + who + ")";
  if (name == kSanTileOp)
    return "(mslport_san.tile_op(" + site(*e.args[0]) + ", " + who + "), " + expr(*e.args[1], wi) + ")";
  if (name == kSanBarrier)
    return "mslport_san.barrier(" + site(*e.args[0]) + ", " + (e.args[1]->int_value ? "true" : "false") + ")";
  if (name == kSanSimdSync) return "mslport_san.simd_sync()";
  if (name == kSanReturned) return "mslport_san.returned(" + site(*e.args[0]) + ", wi)";
  return "";
}

std::string CppPrinter::expr(const Expr& e, bool wi) {
  auto sub = [&](const Expr& x) {
    std::string s = expr(x, wi);
    return needs_parens(x) ? "(" + s + ")" : s;
  };
  // The base of [], . and ->: a C-style cast (`(const float*)(p)`) binds
  // looser than they do.
  auto postfix = [&](const Expr& x) {
    bool c_cast = x.kind == Expr::Kind::Cast && !x.type.is_scalar() && !x.type.is_vector();
    return c_cast ? "(" + expr(x, wi) + ")" : sub(x);
  };
  switch (e.kind) {
    case Expr::Kind::IntLit: {
      if (!e.type.is_scalar()) return std::to_string(e.int_value);
      switch (e.type.scalar) {
        // The lowest value is not a literal: `-2147483648` negates a long
        // (a narrowing conversion in a braced initializer), and
        // 9223372036854775808 has no signed type at all.
        case ScalarKind::Int:
          if ((int32_t)e.int_value == INT32_MIN) return "(-2147483647 - 1)";
          return std::to_string((int32_t)e.int_value);
        case ScalarKind::UInt: return std::to_string((uint32_t)e.int_value) + "u";
        case ScalarKind::Long:
          if (e.int_value == INT64_MIN) return "(-9223372036854775807ll - 1)";
          return std::to_string(e.int_value) + "ll";
        case ScalarKind::ULong: return std::to_string((uint64_t)e.int_value) + "ull";
        case ScalarKind::Bool: return e.int_value ? "true" : "false";
        default: return scalar(e.type.scalar) + "(" + std::to_string(e.int_value) + ")";
      }
    }
    case Expr::Kind::FloatLit: return literal_float(e);
    case Expr::Kind::BoolLit: return e.int_value ? "true" : "false";
    case Expr::Kind::VarRef: return var_ref(e.index, wi);
    case Expr::Kind::ParamRef: return k_->params.at(e.index).name;
    case Expr::Kind::TgAllocRef: return k_->tg_allocs.at(e.index).name;
    case Expr::Kind::GlobalConstRef: return m_.constants.at(e.index).name;
    case Expr::Kind::Unary: {
      const Expr& a = *e.args[0];
      // A checked access (raise/sanitize.h): the checker's reference to the element.
      if (e.unary_op == UnaryOp::Deref && a.kind == Expr::Kind::Call && a.spelling == kSanAccess)
        return sanitizer_call(a, wi);
      switch (e.unary_op) {
        case UnaryOp::PostInc: return sub(a) + "++";
        case UnaryOp::PostDec: return sub(a) + "--";
        default: return std::string(unary_spelling(e.unary_op)) + sub(a);
      }
    }
    case Expr::Kind::Binary: {
      // uint / and % by a non-literal inside work-item loops: mslport::udiv
      // keeps the loop vectorised (openmp_rt.h says how); in loops that stay
      // scalar and once per threadgroup a hardware divide is cheaper
      // (udiv_scalar). Both give Metal GPUs' 0xffffffff for a zero divisor
      // instead of a trap.
      if ((e.binary_op == BinaryOp::Div || e.binary_op == BinaryOp::Rem) && e.type.is_scalar() &&
          e.type.scalar == ScalarKind::UInt && e.args[0]->type == e.type && e.args[1]->type == e.type &&
          e.args[1]->kind != Expr::Kind::IntLit) {
        std::string fn = e.binary_op == BinaryOp::Div ? "mslport::udiv" : "mslport::umod";
        if (scalar_work_items_ || !wi) fn += "_scalar";
        return fn + "(" + sub(*e.args[0]) + ", " + sub(*e.args[1]) + ")";
      }
      std::string s = sub(*e.args[0]) + " " + binary_spelling(e.binary_op) + " " + sub(*e.args[1]);
      // bfloat/half results round after each operation, as in Metal: bfloat
      // computes in float, and C++ evaluates _Float16 expressions in float
      // too (excess precision) up to a cast or an assignment.
      if ((e.type.is_scalar(ScalarKind::BFloat) || e.type.is_scalar(ScalarKind::Half)) &&
          e.binary_op != BinaryOp::Comma)
        return scalar(e.type.scalar) + "(" + s + ")";
      return s;
    }
    case Expr::Kind::Assign: {
      std::string op = e.assign_op ? std::string(binary_spelling(*e.assign_op)) + "=" : "=";
      std::string l = sub(*e.args[0]);
      // `v.xy = x`: mslport::swizzle gives a copy, swizzle_lanes writes the lanes.
      if (e.args[0]->kind == Expr::Kind::Swizzle && e.args[0]->components.size() > 1) {
        const Expr& w = *e.args[0];
        l = "mslport::swizzle_lanes<";
        for (size_t i = 0; i < w.components.size(); ++i) l += (i ? ", " : "") + std::to_string(w.components[i]);
        l += ">(" + expr(*w.args[0], wi) + ")";
      }
      if (e.assign_op && e.type.is_scalar(ScalarKind::BFloat)) {
        return l + " = mslport::bfloat(float(" + l + ") " + binary_spelling(*e.assign_op) + " float(" +
               sub(*e.args[1]) + "))";
      }
      return l + " " + op + " " + sub(*e.args[1]);
    }
    case Expr::Kind::Conditional: return sub(*e.args[0]) + " ? " + sub(*e.args[1]) + " : " + sub(*e.args[2]);
    case Expr::Kind::Call:
    case Expr::Kind::SimdMatrixOp:  // mslport::msl::simdgroup_* in openmp_rt.h
      return call(e, wi);
    case Expr::Kind::Cast: {
      const Type& t = e.type;
      if (t.is_vector() && !e.args[0]->type.is_vector())  // float4(x): splat
        return "mslport::make_vec<" + type(t) + ">(" + scalar(t.scalar) + "(" + expr(*e.args[0], wi) + "))";
      if (t.is_vector()) return "mslport::convert<" + type(t) + ">(" + expr(*e.args[0], wi) + ")";
      if (t.is_pointer()) return "(" + type(t) + ")(" + expr(*e.args[0], wi) + ")";
      if (t.is_scalar(ScalarKind::Bool)) return "bool(" + expr(*e.args[0], wi) + ")";
      if (t.is_scalar()) {
        const Type& from = e.args[0]->type;
        // bfloat/half go through float so integer sources convert by value.
        if ((t.scalar == ScalarKind::BFloat || t.scalar == ScalarKind::Half) && from.is_scalar() &&
            !is_float(from.scalar))
          return scalar(t.scalar) + "(float(" + expr(*e.args[0], wi) + "))";
        if (from.is_scalar(ScalarKind::BFloat) && !is_float(t.scalar))
          return scalar(t.scalar) + "(float(" + expr(*e.args[0], wi) + "))";
        return scalar(t.scalar) + "(" + expr(*e.args[0], wi) + ")";
      }
      return "(" + type(t) + ")(" + expr(*e.args[0], wi) + ")";
    }
    case Expr::Kind::Bitcast: return "mslport::as_type<" + type(e.type) + ">(" + expr(*e.args[0], wi) + ")";
    case Expr::Kind::Index: return postfix(*e.args[0]) + "[" + expr(*e.args[1], wi) + "]";
    case Expr::Kind::Member: {
      const Expr& base = *e.args[0];
      const Type& st = e.arrow ? *base.type.elem : base.type;
      const std::string& field = m_.structs.at(st.struct_index).fields.at(e.index).name;
      return postfix(base) + (e.arrow ? "->" : ".") + field;
    }
    case Expr::Kind::Swizzle: {
      static const char* kLanes = "xyzw";
      if (e.components.size() == 1) return postfix(*e.args[0]) + "." + kLanes[e.components[0]];
      std::string s = "mslport::swizzle<";
      for (size_t i = 0; i < e.components.size(); ++i) s += (i ? ", " : "") + std::to_string(e.components[i]);
      return s + ">(" + expr(*e.args[0], wi) + ")";
    }
    case Expr::Kind::VectorConstruct: {
      std::string s = "mslport::make_vec<" + type(e.type) + ">(";
      for (size_t i = 0; i < e.args.size(); ++i) s += (i ? ", " : "") + expr(*e.args[i], wi);
      return s + ")";
    }
    case Expr::Kind::InitList: {
      // A struct's list names its type, so that it is a value anywhere
      // (`a = S{x, 1}`, `S{x}.f`), not only in a declaration. An array's
      // list appears only where C++ takes a bare one.
      std::string s = e.type.is_struct() ? type(e.type) + "{" : "{";
      for (size_t i = 0; i < e.args.size(); ++i) s += (i ? ", " : "") + expr(*e.args[i], wi);
      return s + "}";
    }
    case Expr::Kind::Collective:
      diags_.error(e.loc, "internal error: SIMD-group function left inside an expression after lowering");
      ok_ = false;
      return "0";
    case Expr::Kind::UserCall:
      diags_.error(e.loc, "internal error: helper function call left after inline_functions");
      ok_ = false;
      return "0";
  }
  return "?";
}

}  // namespace mslport::back::openmp
