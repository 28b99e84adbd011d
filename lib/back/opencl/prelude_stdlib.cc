// Prelude helpers for Metal standard library functions OpenCL C 1.2 lacks:
// bit operations, three-way medians, squared lengths, and the atomic
// functions OpenCL's atomic_* builtins do not cover (loads, stores, compare
// and exchange, float addition, atomic_bool) as compare-and-swap loops.
#include "back/opencl/prelude.h"

namespace mslport::back::opencl {
namespace {

struct Lanes {
  std::string elem;  // "uint"
  int width = 1;     // 1 for a scalar
};

Lanes lanes_of(const std::string& type) {
  Lanes l{type, 1};
  if (!type.empty() && type.back() >= '2' && type.back() <= '4') {
    l.width = type.back() - '0';
    l.elem = type.substr(0, type.size() - 1);
  }
  return l;
}

int bits_of(const std::string& elem) {
  if (elem == "char" || elem == "uchar") return 8;
  if (elem == "short" || elem == "ushort") return 16;
  if (elem == "int" || elem == "uint") return 32;
  if (elem == "long" || elem == "ulong") return 64;
  return 0;
}

std::string unsigned_of(const std::string& elem) { return elem[0] == 'u' ? elem : "u" + elem; }

std::string with_width(const std::string& elem, int width) { return width == 1 ? elem : elem + std::to_string(width); }

}  // namespace

std::string Prelude::stdlib_helper(ir::Intrinsic id, const std::string& type) {
  using I = ir::Intrinsic;
  const Lanes l = lanes_of(type);
  const int bits = bits_of(l.elem);
  const std::string T = type, UT = with_width(unsigned_of(l.elem), l.width), B = std::to_string(bits);
  const bool is_signed = bits && l.elem[0] != 'u';
  std::string name, body;
  switch (id) {
    case I::Abs:
      if (!is_signed) return "";
      // |x| as unsigned arithmetic: INT_MIN stays INT_MIN, as in Metal.
      name = "mslport_abs_" + T;
      body = T + " " + name + "(" + T + " x) {\n  const " + UT + " u = as_" + UT + "(x);\n  return as_" + T + "(" +
             (l.width == 1 ? "(" + UT + ")(x < (" + T + ")0 ? (" + UT + ")((" + UT + ")0 - u) : u)"
                           : "select(u, (" + UT + ")((" + UT + ")0 - u), x < (" + T + ")0)") +
             ");\n}\n";
      break;
    case I::Ctz:
      if (!bits) return "";
      // The bits below the lowest set one: all of them for 0.
      name = "mslport_ctz_" + T;
      // (Every step cast back: C promotes char and short operands to int.)
      body = T + " " + name + "(" + T + " x) {\n  const " + UT + " u = as_" + UT + "(x);\n  return as_" + T +
             "(popcount((" + UT + ")(~u & (" + UT + ")(u - (" + UT + ")1))));\n}\n";
      break;
    case I::ReverseBits:
      if (!bits) return "";
      name = "mslport_reverse_bits_" + T;
      body = T + " " + name + "(" + T + " x) {\n  const " + UT + " u = as_" + UT + "(x);\n  " + UT + " r = (" + UT +
             ")0;\n  for (uint i = 0; i < " + B + "u; ++i) r |= (" + UT + ")((" + UT + ")((u >> (" + UT + ")i) & (" +
             UT + ")1) << (" + UT + ")(" + B + "u - 1u - i));\n  return as_" + T + "(r);\n}\n";
      break;
    case I::ExtractBits:
      if (!bits) return "";
      // Metal: bits [offset, offset + bits) of x, sign-extended for signed types.
      name = "mslport_extract_bits_" + T;
      body =
          T + " " + name + "(" + T + " x, uint offset, uint bits) {\n  if (bits == 0u) return (" + T + ")0;\n  const " +
          UT + " u = (" + UT + ")(as_" + UT + "(x) << (" + UT + ")(" + B + "u - offset - bits));\n  return (" + T +
          ")(" +
          (is_signed ? "as_" + T + "(u) >> (" + T + ")(" + B + "u - bits)" : "u >> (" + UT + ")(" + B + "u - bits)") +
          ");\n}\n";
      break;
    case I::InsertBits:
      if (!bits) return "";
      name = "mslport_insert_bits_" + T;
      body = T + " " + name + "(" + T + " base, " + T +
             " insert, uint offset, uint bits) {\n  if (bits == 0u) return base;\n  const " + UT + " ones = (" + UT +
             ")~(" + UT + ")0;\n  const " + UT + " mask = (" + UT + ")((" + UT + ")(ones >> (" + UT + ")(" + B +
             "u - bits)) << (" + UT + ")offset);\n  return as_" + T + "((" + UT + ")((as_" + UT + "(base) & (" + UT +
             ")~mask) | ((" + UT + ")(as_" + UT + "(insert) << (" + UT + ")offset) & mask)));\n}\n";
      break;
    case I::Median3:
    case I::Fmedian3: {
      const bool fp = !bits;
      const std::string mn = fp ? "fmin" : "min", mx = fp ? "fmax" : "max";
      name = std::string(fp ? "mslport_fmedian3_" : "mslport_median3_") + T;
      body = T + " " + name + "(" + T + " a, " + T + " b, " + T + " c) {\n  return " + mx + "(" + mn + "(a, b), " + mn +
             "(" + mx + "(a, b), c));\n}\n";
      break;
    }
    case I::LengthSquared:
      if (bits) return "";
      name = "mslport_length_squared_" + T;
      body = l.elem + " " + name + "(" + T + " x) { return dot(x, x); }\n";
      break;
    case I::DistanceSquared:
      if (bits) return "";
      name = "mslport_distance_squared_" + T;
      body =
          l.elem + " " + name + "(" + T + " x, " + T + " y) {\n  const " + T + " d = x - y;\n  return dot(d, d);\n}\n";
      break;
    // The geometric functions OpenCL C lacks (GLSL's, as MSL 6.8 defines
    // them); half arrives here as float, computed in float like the C++.
    case I::Faceforward:
      if (bits) return "";
      name = "mslport_faceforward_" + T;
      body = T + " " + name + "(" + T + " n, " + T + " i, " + T + " nref) { return dot(nref, i) < 0.0f ? n : -n; }\n";
      break;
    case I::Reflect:
      if (bits) return "";
      // MSL 6.8 normalises n first.
      name = "mslport_reflect_" + T;
      body = T + " " + name + "(" + T + " i, " + T + " n) {\n  const " + T +
             " nn = n * rsqrt(dot(n, n));\n  return i - (2.0f * dot(nn, i)) * nn;\n}\n";
      break;
    case I::Refract:
      if (bits) return "";
      // The zero vector on total internal reflection (k < 0).
      name = "mslport_refract_" + T;
      body = T + " " + name + "(" + T + " i, " + T + " n, " + l.elem +
             " eta) {\n  const float d = dot(n, i);\n  const float k = 1.0f - eta * eta * (1.0f - d * d);\n"
             "  if (k < 0.0f) return (" +
             T + ")(0.0f);\n  return eta * i - (eta * d + sqrt(k)) * n;\n}\n";
      break;
    default: return "";
  }
  add(name, "// Metal's " + std::string(ir::intrinsic_info(id).name) + ".\n" + body);
  return name;
}

std::string Prelude::atomic_helper(ir::Intrinsic id, ir::ScalarKind value, const std::string& space) {
  using I = ir::Intrinsic;
  using K = ir::ScalarKind;
  const std::string S = "__" + space, P = "volatile " + S + " ";
  const std::string op = std::string(ir::intrinsic_info(id).name);
  const std::string short_op = op.substr(7, op.size() - 7 - 9);  // atomic_<op>_explicit
  if (value == K::Int || value == K::UInt) {
    const std::string T = value == K::Int ? "int" : "uint";
    std::string name = "mslport_atomic_" + short_op + "_" + space + "_" + T, body;
    switch (id) {
      case I::AtomicFetchAdd: return "atomic_add";
      case I::AtomicFetchSub: return "atomic_sub";
      case I::AtomicFetchAnd: return "atomic_and";
      case I::AtomicFetchOr: return "atomic_or";
      case I::AtomicFetchXor: return "atomic_xor";
      case I::AtomicFetchMin: return "atomic_min";
      case I::AtomicFetchMax: return "atomic_max";
      case I::AtomicExchange: return "atomic_xchg";
      case I::AtomicLoad: body = T + " " + name + "(" + P + T + "* p) { return atomic_or(p, (" + T + ")0); }\n"; break;
      case I::AtomicStore:
        body = "void " + name + "(" + P + T + "* p, " + T + " v) { (void)atomic_xchg(p, v); }\n";
        break;
      case I::AtomicCompareExchangeWeak:
        body =
            "bool " + name + "(" + P + T + "* p, " + T + "* expected, " + T + " desired) {\n  const " + T +
            " old = atomic_cmpxchg(p, *expected, desired);\n  if (old == *expected) return true;\n  *expected = old;\n"
            "  return false;\n}\n";
        break;
      default: return "";
    }
    add(name, "// Metal's " + op + " on " + space + " memory.\n" + body);
    return name;
  }
  if (value == K::Float) {
    const std::string name = "mslport_atomic_" + short_op + "_" + space + "_float", W = "(" + P + "uint*)p";
    std::string body;
    switch (id) {
      case I::AtomicExchange: return "atomic_xchg";  // OpenCL has it for float
      case I::AtomicLoad:
        body = "float " + name + "(" + P + "float* p) { return as_float(atomic_or(" + W + ", 0u)); }\n";
        break;
      case I::AtomicStore: body = "void " + name + "(" + P + "float* p, float v) { (void)atomic_xchg(p, v); }\n"; break;
      case I::AtomicCompareExchangeWeak:
        // Compared as bit patterns, as C++'s compare_exchange compares objects.
        body = "bool " + name + "(" + P +
               "float* p, float* expected, float desired) {\n  const uint want = as_uint(*expected);\n"
               "  const uint old = atomic_cmpxchg(" +
               W +
               ", want, as_uint(desired));\n  if (old == want) return true;\n"
               "  *expected = as_float(old);\n  return false;\n}\n";
        break;
      case I::AtomicFetchAdd:
      case I::AtomicFetchSub:
        // No float addition in OpenCL 1.2's atomics: a compare-and-swap loop.
        body = "float " + name + "(" + P + "float* p, float v) {\n  uint old = atomic_or(" + W +
               ", 0u);\n  for (;;) {\n"
               "    const uint next = as_uint(as_float(old) " +
               (id == I::AtomicFetchAdd ? "+" : "-") +
               " v);\n"
               "    const uint seen = atomic_cmpxchg(" +
               W +
               ", old, next);\n    if (seen == old) return as_float(old);\n"
               "    old = seen;\n  }\n}\n";
        break;
      default: return "";
    }
    add(name, "// Metal's " + op + " on " + space + " memory.\n" + body);
    return name;
  }
  if (value == K::Bool) {
    // atomic_bool is one byte: the helpers update the aligned 32-bit word
    // that holds it, compare-and-swapping only its byte.
    const std::string name = "mslport_atomic_" + short_op + "_" + space + "_bool";
    const std::string word = "  " + P + "uint* w = (" + P +
                             "uint*)((uintptr_t)p & ~(uintptr_t)3);\n"
                             "  const uint shift = (uint)((uintptr_t)p & (uintptr_t)3) * 8u;\n";
    // `next(old)`: the word with the byte replaced; returns the byte before.
    auto swap_loop = [&](const std::string& byte) {
      return word +
             "  uint old = atomic_or(w, 0u);\n  for (;;) {\n    const uint next = (old & ~(0xffu << shift)) | "
             "((uint)(" +
             byte +
             ") << shift);\n    const uint seen = atomic_cmpxchg(w, old, next);\n    if (seen == old) break;\n    old "
             "= seen;\n  }\n";
    };
    std::string body;
    switch (id) {
      case I::AtomicLoad:
        body = "bool " + name + "(" + P + "uchar* p) {\n" + word +
               "  return ((atomic_or(w, 0u) >> shift) & 0xffu) != 0u;\n}\n";
        break;
      case I::AtomicStore:
        body = "void " + name + "(" + P + "uchar* p, bool v) {\n" + swap_loop("v ? 1u : 0u") + "}\n";
        break;
      case I::AtomicExchange:
        body = "bool " + name + "(" + P + "uchar* p, bool v) {\n" + swap_loop("v ? 1u : 0u") +
               "  return ((old >> shift) & 0xffu) != 0u;\n}\n";
        break;
      case I::AtomicCompareExchangeWeak:
        body = "bool " + name + "(" + P + "uchar* p, bool* expected, bool desired) {\n" + word +
               "  uint old = atomic_or(w, 0u);\n  for (;;) {\n    const bool cur = ((old >> shift) & 0xffu) != 0u;\n"
               "    if (cur != *expected) { *expected = cur; return false; }\n"
               "    const uint next = (old & ~(0xffu << shift)) | ((desired ? 1u : 0u) << shift);\n"
               "    const uint seen = atomic_cmpxchg(w, old, next);\n    if (seen == old) return true;\n    old = "
               "seen;\n  }\n}\n";
        break;
      default: return "";
    }
    add(name, "// Metal's " + op + " on " + space + " memory.\n" + body);
    return name;
  }
  return "";
}

}  // namespace mslport::back::opencl
