#include "ir/analysis/constant_value.h"

#include <cmath>
#include <optional>

namespace mslport::ir::analysis {

namespace {

// A scalar value: integers (and bools) as their bit pattern widened to 64
// bits, floats as a double holding a float.
struct Value {
  bool is_float = false;
  int64_t i = 0;
  double f = 0;
  bool is_unsigned = false;  // i holds an unsigned value (a ulong above 2^63 included)
};

// Wraps to k's width and sign, as storing in a k does.
int64_t wrap(ScalarKind k, int64_t v) {
  if (k == ScalarKind::Bool) return v != 0;
  int bits = 8 * scalar_size(k);
  if (bits >= 64) return v;
  uint64_t mask = (uint64_t(1) << bits) - 1, u = uint64_t(v) & mask;
  if (is_signed_int(k) && (u >> (bits - 1))) u |= ~mask;
  return int64_t(u);
}

std::optional<Value> convert(const Value& v, ScalarKind to) {
  Value r;
  r.is_unsigned = is_unsigned_int(to);
  if (to == ScalarKind::Float) {
    r.is_float = true;
    r.is_unsigned = false;
    r.f = v.is_float ? v.f : (v.is_unsigned ? double(uint64_t(v.i)) : double(v.i));
    r.f = double(float(r.f));
    return r;
  }
  if (is_float(to)) return std::nullopt;  // half and bfloat round as the targets do: not here
  if (!v.is_float) {
    r.i = wrap(to, v.i);
    return r;
  }
  if (to == ScalarKind::Bool) {
    r.i = v.f != 0;
    return r;
  }
  if (!std::isfinite(v.f) || std::fabs(v.f) >= 9.2e18) return std::nullopt;  // undefined in C
  r.i = wrap(to, int64_t(std::trunc(v.f)));
  return r;
}

struct Evaluator {
  const Module& m;
  int depth = 0;

  std::optional<Value> scalar(const Expr& e) {
    if (++depth > 64) return std::nullopt;  // a constant defined through many others
    auto v = scalar_of(e);
    --depth;
    return v;
  }

  std::optional<Value> scalar_of(const Expr& e) {
    if (!e.type.is_scalar()) return std::nullopt;
    const ScalarKind k = e.type.scalar;
    switch (e.kind) {
      case Expr::Kind::IntLit:
      case Expr::Kind::BoolLit: return convert(Value{false, e.int_value, 0}, k);
      case Expr::Kind::FloatLit: return convert(Value{true, 0, e.float_value}, k);
      case Expr::Kind::GlobalConstRef: {
        if (e.index < 0 || e.index >= (int)m.constants.size() || !m.constants[e.index].init) return std::nullopt;
        return scalar(*m.constants[e.index].init);
      }
      case Expr::Kind::Cast: {
        if (!e.args[0]->type.is_scalar()) return std::nullopt;
        auto a = scalar(*e.args[0]);
        if (!a) return std::nullopt;
        return convert(*a, k);
      }
      case Expr::Kind::Swizzle:
        if (e.components.size() != 1) return std::nullopt;
        return lane(*e.args[0], e.components[0]);
      case Expr::Kind::Unary: return unary(e);
      case Expr::Kind::Binary: return binary(e);
      default: return std::nullopt;
    }
  }

  // Lane `i` of a constant vector.
  std::optional<Value> lane(const Expr& e, int i) {
    if (!e.type.is_vector() || i < 0 || i >= e.type.count || ++depth > 64) return std::nullopt;
    std::optional<Value> r;
    if (e.kind == Expr::Kind::VectorConstruct) {
      if (e.args.size() == 1 && !e.args[0]->type.is_vector()) {
        r = scalar(*e.args[0]);  // float4(x): x in every lane
      } else {
        int at = 0;  // the lanes of each argument, in order: float4(v.xy, 1, 2)
        for (const auto& a : e.args) {
          int n = a->type.is_vector() ? a->type.count : 1;
          if (i < at + n) {
            r = a->type.is_vector() ? lane(*a, i - at) : scalar(*a);
            break;
          }
          at += n;
        }
      }
      if (r) r = convert(*r, e.type.scalar);
    } else if (e.kind == Expr::Kind::GlobalConstRef && e.index >= 0 && e.index < (int)m.constants.size() &&
               m.constants[e.index].init) {
      r = lane(*m.constants[e.index].init, i);
    } else if (e.kind == Expr::Kind::Swizzle && i < (int)e.components.size()) {
      r = lane(*e.args[0], e.components[i]);
    }
    --depth;
    return r;
  }

  std::optional<Value> unary(const Expr& e) {
    auto a = scalar(*e.args[0]);
    if (!a) return std::nullopt;
    const ScalarKind k = e.type.scalar;
    switch (e.unary_op) {
      case UnaryOp::Plus: return convert(*a, k);
      case UnaryOp::Neg: return a->is_float ? convert(Value{true, 0, -a->f}, k) : convert(Value{false, -a->i, 0}, k);
      case UnaryOp::Not: return Value{false, a->is_float ? a->f == 0 : a->i == 0, 0};
      case UnaryOp::BitNot: return a->is_float ? std::nullopt : convert(Value{false, ~a->i, 0}, k);
      default: return std::nullopt;
    }
  }

  std::optional<Value> binary(const Expr& e) {
    const Expr& x = *e.args[0];
    const Expr& y = *e.args[1];
    if (!x.type.is_scalar() || !y.type.is_scalar() || x.type.scalar != y.type.scalar) return std::nullopt;
    auto a = scalar(x), b = scalar(y);
    if (!a || !b) return std::nullopt;
    const ScalarKind k = e.type.scalar, operand = x.type.scalar;
    const bool u = is_unsigned_int(operand);
    auto cmp = [&](bool r) -> std::optional<Value> { return Value{false, r, 0}; };
    if (a->is_float) {
      double p = a->f, q = b->f;
      switch (e.binary_op) {
        case BinaryOp::Add: return convert(Value{true, 0, p + q}, k);
        case BinaryOp::Sub: return convert(Value{true, 0, p - q}, k);
        case BinaryOp::Mul: return convert(Value{true, 0, p * q}, k);
        case BinaryOp::Div: return q == 0 ? std::nullopt : convert(Value{true, 0, p / q}, k);
        case BinaryOp::Lt: return cmp(p < q);
        case BinaryOp::Gt: return cmp(p > q);
        case BinaryOp::Le: return cmp(p <= q);
        case BinaryOp::Ge: return cmp(p >= q);
        case BinaryOp::Eq: return cmp(p == q);
        case BinaryOp::Ne: return cmp(p != q);
        default: return std::nullopt;
      }
    }
    int64_t p = a->i, q = b->i;
    uint64_t up = uint64_t(p), uq = uint64_t(q);
    switch (e.binary_op) {
      case BinaryOp::Add: return convert(Value{false, int64_t(up + uq), 0}, k);
      case BinaryOp::Sub: return convert(Value{false, int64_t(up - uq), 0}, k);
      case BinaryOp::Mul: return convert(Value{false, int64_t(up * uq), 0}, k);
      case BinaryOp::Div:
        if (q == 0 || (!u && q == -1)) return std::nullopt;
        return convert(Value{false, u ? int64_t(up / uq) : p / q, 0}, k);
      case BinaryOp::Rem:
        if (q == 0 || (!u && q == -1)) return std::nullopt;
        return convert(Value{false, u ? int64_t(up % uq) : p % q, 0}, k);
      case BinaryOp::BitAnd: return convert(Value{false, p & q, 0}, k);
      case BinaryOp::BitOr: return convert(Value{false, p | q, 0}, k);
      case BinaryOp::BitXor: return convert(Value{false, p ^ q, 0}, k);
      case BinaryOp::Shl:
      case BinaryOp::Shr: {
        int bits = 8 * scalar_size(operand);
        if (q < 0 || q >= bits) return std::nullopt;  // undefined in C
        if (e.binary_op == BinaryOp::Shl) return convert(Value{false, int64_t(up << q), 0}, k);
        return convert(Value{false, u ? int64_t(up >> q) : (p >> q), 0}, k);
      }
      case BinaryOp::LogAnd: return cmp(p && q);
      case BinaryOp::LogOr: return cmp(p || q);
      case BinaryOp::Lt: return cmp(u ? up < uq : p < q);
      case BinaryOp::Gt: return cmp(u ? up > uq : p > q);
      case BinaryOp::Le: return cmp(u ? up <= uq : p <= q);
      case BinaryOp::Ge: return cmp(u ? up >= uq : p >= q);
      case BinaryOp::Eq: return cmp(p == q);
      case BinaryOp::Ne: return cmp(p != q);
      default: return std::nullopt;
    }
  }
};

}  // namespace

ExprPtr constant_scalar(const Module& m, const Expr& e) {
  if (!e.type.is_scalar() || (is_float(e.type.scalar) && e.type.scalar != ScalarKind::Float)) return nullptr;
  Evaluator ev{m};
  auto v = ev.scalar(e);
  if (!v) return nullptr;
  if (e.type.is_bool()) return make_bool(v->i != 0, e.loc);
  if (!v->is_float) return make_int(e.type, v->i, e.loc);
  auto f = std::make_unique<Expr>();
  f->kind = Expr::Kind::FloatLit;
  f->type = e.type;
  f->loc = e.loc;
  f->float_value = v->f;
  return f;
}

}  // namespace mslport::ir::analysis
