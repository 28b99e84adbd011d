// Text form of the IR. Conventions (stable; tests compare against them):
//  * module: structs (with byte offsets), program-scope constants, kernels;
//  * kernel header: one line per parameter
//      param <position> buffer(<n>[, implicit]) <name>: <type>
//      param <position> threadgroup(<n>[, implicit]) <name>: <type>
//      param <position> builtin <attribute> <name>: <type>
//    then `threadgroup <name>: <type>` per static threadgroup allocation;
//  * statements, two spaces per level; a declaration is `%name: type = init`
//    (`const` before the type for const variables); references print the
//    bare name (names are unique within a kernel);
//  * a barrier a pass inserted (Stmt::lockstep) ends in ` [lockstep]`;
//  * expressions: a nested binary / conditional / assignment operand is
//    parenthesised, so precedence never has to be inferred by the reader;
//    casts are `cast<T>(x)`, bitcasts `as_type<T>(x)`, collectives
//    `simd_sum(x)` with ` [mask: m]` when a mask is set.
#include "ir/printer.h"

#include <cmath>
#include <sstream>

namespace mslport::ir {

namespace {

// Types as type_name spells them, except arrays of arrays, which print in C
// order (`int[2][3]` is two rows of three).
std::string print_type(const Module& m, const Type& t) {
  if (!t.is_array()) return type_name(m, t);
  std::string dims;
  const Type* cur = &t;
  while (cur->is_array() && cur->elem) {
    dims += "[" + std::to_string(cur->count) + "]";
    cur = cur->elem.get();
  }
  return type_name(m, *cur) + dims;
}

class Printer {
 public:
  Printer(const Module& m, const Kernel* k) : m_(m), k_(k) {}

  std::string expr(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::IntLit: return int_lit(e);
      case Expr::Kind::FloatLit: return float_lit(e);
      case Expr::Kind::BoolLit: return e.int_value ? "true" : "false";
      case Expr::Kind::VarRef:
        return k_ && e.index >= 0 && e.index < (int)k_->vars.size() ? k_->vars[e.index].name
                                                                    : "var#" + std::to_string(e.index);
      case Expr::Kind::ParamRef:
        return k_ && e.index >= 0 && e.index < (int)k_->params.size() ? k_->params[e.index].name
                                                                      : "param#" + std::to_string(e.index);
      case Expr::Kind::TgAllocRef:
        return k_ && e.index >= 0 && e.index < (int)k_->tg_allocs.size() ? k_->tg_allocs[e.index].name
                                                                         : "tg#" + std::to_string(e.index);
      case Expr::Kind::GlobalConstRef:
        return e.index >= 0 && e.index < (int)m_.constants.size() ? m_.constants[e.index].name
                                                                  : "const#" + std::to_string(e.index);
      case Expr::Kind::Unary: {
        std::string a = operand(e, 0);
        switch (e.unary_op) {
          case UnaryOp::PostInc: return a + "++";
          case UnaryOp::PostDec: return a + "--";
          default: return std::string(unary_spelling(e.unary_op)) + a;
        }
      }
      case Expr::Kind::Binary:
        if (e.binary_op == BinaryOp::Comma) return operand(e, 0) + ", " + operand(e, 1);
        return operand(e, 0) + " " + binary_spelling(e.binary_op) + " " + operand(e, 1);
      case Expr::Kind::Assign: {
        std::string op = e.assign_op ? std::string(binary_spelling(*e.assign_op)) + "=" : "=";
        // The right-hand side of an assignment never needs parentheses.
        return operand(e, 0) + " " + op + " " + arg(e, 1);
      }
      case Expr::Kind::Conditional: return operand(e, 0) + " ? " + operand(e, 1) + " : " + operand(e, 2);
      case Expr::Kind::Call: return e.spelling + "(" + args(e, 0) + ")";
      case Expr::Kind::SimdMatrixOp: return std::string(simd_matrix_op_name(e.matrix_op)) + "(" + args(e, 0) + ")";
      case Expr::Kind::Cast: return "cast<" + type(e.type) + ">(" + arg(e, 0) + ")";
      case Expr::Kind::Bitcast: return "as_type<" + type(e.type) + ">(" + arg(e, 0) + ")";
      case Expr::Kind::Index: return postfix_base(e) + "[" + arg(e, 1) + "]";
      case Expr::Kind::Member: return postfix_base(e) + (e.arrow ? "->" : ".") + field_name(e);
      case Expr::Kind::Swizzle: {
        std::string s = postfix_base(e) + ".";
        for (int c : e.components) s += (c >= 0 && c < 4) ? "xyzw"[c] : '?';
        return s;
      }
      case Expr::Kind::VectorConstruct: return type(e.type) + "(" + args(e, 0) + ")";
      case Expr::Kind::Collective: {
        std::string s = std::string(collective_name(e.collective_op)) + "(" + args(e, 0) + ")";
        if (e.mask) s += " [mask: " + expr(*e.mask) + "]";
        return s;
      }
      case Expr::Kind::InitList: return "{" + args(e, 0) + "}";
      case Expr::Kind::UserCall: {
        std::string name = e.index >= 0 && e.index < (int)m_.functions.size() ? m_.functions[e.index].def.name
                                                                              : "function#" + std::to_string(e.index);
        return "call " + name + "(" + args(e, 0) + ")";
      }
    }
    return "<?>";
  }

  void stmt(const Stmt& s, int depth, std::ostringstream& os) {
    std::string ind(depth * 2, ' ');
    switch (s.kind) {
      case Stmt::Kind::Block:
        os << ind << "{" << (s.comment.empty() ? "" : "  // " + s.comment) << "\n";
        block_body(s, depth + 1, os);
        os << ind << "}\n";
        return;
      case Stmt::Kind::If: {
        os << ind << "if (" << opt_expr(s.expr.get()) << ") {\n";
        block_body(s.body.get(), depth + 1, os);
        const Stmt* e = s.else_body.get();
        // `else { if ... }` (a block holding just an if) prints as else-if.
        if (e && e->kind == Stmt::Kind::Block && e->stmts.size() == 1 && e->stmts[0] &&
            e->stmts[0]->kind == Stmt::Kind::If)
          e = e->stmts[0].get();
        if (e && !(e->kind == Stmt::Kind::Block && e->stmts.empty())) {
          if (e->kind == Stmt::Kind::If) {
            os << ind << "} else ";
            std::ostringstream inner;
            stmt(*e, depth, inner);
            os << inner.str().substr(ind.size());
            return;
          }
          os << ind << "} else {\n";
          block_body(e, depth + 1, os);
        }
        os << ind << "}\n";
        return;
      }
      case Stmt::Kind::For:
        os << ind << "for (" << (s.init ? inline_stmt(*s.init) : "") << "; " << opt_expr(s.expr.get()) << "; "
           << opt_expr(s.step.get()) << ") {\n";
        block_body(s.body.get(), depth + 1, os);
        os << ind << "}\n";
        return;
      case Stmt::Kind::While:
        os << ind << "while (" << opt_expr(s.expr.get()) << ") {\n";
        block_body(s.body.get(), depth + 1, os);
        os << ind << "}\n";
        return;
      case Stmt::Kind::DoWhile:
        os << ind << "do {\n";
        block_body(s.body.get(), depth + 1, os);
        os << ind << "} while (" << opt_expr(s.expr.get()) << ")\n";
        return;
      default: os << ind << inline_stmt(s) << "\n"; return;
    }
  }

  // Single-line statements (also used for a for-init).
  std::string inline_stmt(const Stmt& s) {
    switch (s.kind) {
      case Stmt::Kind::Decl: {
        std::string r;
        if (k_ && s.var >= 0 && s.var < (int)k_->vars.size()) {
          const Var& v = k_->vars[s.var];
          r = "%" + v.name + ": " + (v.is_const ? "const " : "") + type(v.type);
        } else {
          r = "%var#" + std::to_string(s.var);
        }
        if (s.expr) r += " = " + expr(*s.expr);
        return r;
      }
      case Stmt::Kind::ExprStmt: return opt_expr(s.expr.get());
      case Stmt::Kind::Return: return s.expr ? "return " + expr(*s.expr) : "return";
      case Stmt::Kind::Break: return "break";
      case Stmt::Kind::Continue: return "continue";
      case Stmt::Kind::Barrier: {
        std::string r = s.simdgroup_scope ? "simdgroup_barrier(" : "threadgroup_barrier(";
        static const char* names[] = {"mem_device", "mem_threadgroup", "mem_texture"};
        std::string flags;
        for (int b = 0; b < 3; ++b)
          if (s.mem_flags & (1u << b)) flags += (flags.empty() ? "" : " | ") + std::string(names[b]);
        // Inserted by a pass for SIMD-group lock-step or a schedule point:
        // no Metal ordering point.
        return r + (flags.empty() ? "mem_none" : flags) + ")" + (s.lockstep ? " [lockstep]" : "");
      }
      default: {
        std::ostringstream os;
        stmt(s, 0, os);
        std::string r = os.str();
        if (!r.empty() && r.back() == '\n') r.pop_back();
        return r;
      }
    }
  }

  std::string type(const Type& t) { return print_type(m_, t); }

 private:
  void block_body(const Stmt* s, int depth, std::ostringstream& os) {
    if (!s) return;
    if (s->kind != Stmt::Kind::Block) {
      stmt(*s, depth, os);
      return;
    }
    block_body(*s, depth, os);
  }
  void block_body(const Stmt& s, int depth, std::ostringstream& os) {
    for (auto& c : s.stmts)
      if (c) stmt(*c, depth, os);
  }
  std::string opt_expr(const Expr* e) { return e ? expr(*e) : ""; }
  std::string arg(const Expr& e, size_t i) { return i < e.args.size() && e.args[i] ? expr(*e.args[i]) : "<null>"; }
  std::string args(const Expr& e, size_t from) {
    std::string s;
    for (size_t i = from; i < e.args.size(); ++i) s += (i > from ? ", " : "") + arg(e, i);
    return s;
  }
  static bool needs_parens(const Expr& e) {
    return e.kind == Expr::Kind::Binary || e.kind == Expr::Kind::Assign || e.kind == Expr::Kind::Conditional;
  }
  // Operand of an operator: parenthesised when it is itself an operator.
  std::string operand(const Expr& e, size_t i) {
    if (i >= e.args.size() || !e.args[i]) return "<null>";
    std::string s = expr(*e.args[i]);
    return needs_parens(*e.args[i]) ? "(" + s + ")" : s;
  }
  // Base of a postfix operator ([] . ->): parenthesised unless primary.
  std::string postfix_base(const Expr& e) {
    if (e.args.empty() || !e.args[0]) return "<null>";
    const Expr& b = *e.args[0];
    std::string s = expr(b);
    bool primary = b.kind == Expr::Kind::VarRef || b.kind == Expr::Kind::ParamRef || b.kind == Expr::Kind::TgAllocRef ||
                   b.kind == Expr::Kind::GlobalConstRef || b.kind == Expr::Kind::Index ||
                   b.kind == Expr::Kind::Member || b.kind == Expr::Kind::Swizzle || b.kind == Expr::Kind::Call ||
                   b.kind == Expr::Kind::Cast || b.kind == Expr::Kind::Bitcast ||
                   b.kind == Expr::Kind::VectorConstruct || b.kind == Expr::Kind::Collective;
    return primary ? s : "(" + s + ")";
  }
  std::string field_name(const Expr& e) {
    if (e.args.empty() || !e.args[0]) return "?";
    const Type& bt = e.args[0]->type;
    const Type* st = bt.is_pointer() ? bt.elem.get() : &bt;
    if (st && st->is_struct() && st->struct_index >= 0 && st->struct_index < (int)m_.structs.size()) {
      const auto& f = m_.structs[st->struct_index].fields;
      if (e.index >= 0 && e.index < (int)f.size()) return f[e.index].name;
    }
    return "field#" + std::to_string(e.index);
  }
  std::string int_lit(const Expr& e) {
    const Type& t = e.type;
    if (!t.is_scalar()) return std::to_string(e.int_value) + ":" + type(t);
    switch (t.scalar) {
      case ScalarKind::Int: return std::to_string(e.int_value);
      case ScalarKind::UInt: return std::to_string((uint32_t)e.int_value) + "u";
      case ScalarKind::Long: return std::to_string(e.int_value) + "l";
      case ScalarKind::ULong: return std::to_string((uint64_t)e.int_value) + "ul";
      default: return std::to_string(e.int_value) + ":" + type(t);
    }
  }
  std::string float_lit(const Expr& e) {
    if (!e.spelling.empty()) return e.spelling;
    if (std::isinf(e.float_value)) return e.float_value > 0 ? "INFINITY" : "-INFINITY";
    if (std::isnan(e.float_value)) return "NAN";
    std::ostringstream os;
    os.precision(9);
    os << e.float_value;
    std::string s = os.str();
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s + (e.type.is_scalar(ScalarKind::Float) ? "f" : "");
  }

  const Module& m_;
  const Kernel* k_;
};

std::string param_line(const Module& m, const Kernel& k, size_t i) {
  const Param& p = k.params[i];
  std::string idx = std::to_string(p.index) + (p.implicit_index ? ", implicit" : "");
  std::string s = "param " + std::to_string(i) + " ";
  std::string ty = print_type(m, p.type);
  switch (p.kind) {
    case Param::Kind::Buffer:
      s += "buffer(" + idx + ")";
      if (p.argument_buffer_offset >= 0) s += "+" + std::to_string(p.argument_buffer_offset);
      break;
    case Param::Kind::ConstantRef:
      s += "buffer(" + idx + ")";
      ty = "constant " + ty + "&";
      break;
    case Param::Kind::ConstantValue:
      s += "buffer(" + idx + ") value";
      ty = "constant " + ty;
      break;
    case Param::Kind::ThreadgroupMemory: s += "threadgroup(" + idx + ")"; break;
    case Param::Kind::Builtin: s += std::string("builtin ") + builtin_attr_name(p.builtin); break;
    case Param::Kind::FunctionConstant: s += "function_constant(" + std::to_string(p.index) + ")"; break;
    case Param::Kind::Value: s += "value"; break;
    case Param::Kind::Reference:
      s += "reference";
      ty = std::string(address_space_name(p.space)) + " " + (p.is_const ? "const " : "") + ty + "&";
      break;
  }
  return s + " " + p.name + ": " + ty;
}

}  // namespace

std::string print_expr(const Module& m, const Kernel& k, const Expr& e) { return Printer(m, &k).expr(e); }

namespace {
std::string print_code(const Module& m, const Kernel& k, const std::string& head) {
  Printer p(m, &k);
  std::ostringstream os;
  os << head << "\n";
  for (size_t i = 0; i < k.params.size(); ++i) os << "  " << param_line(m, k, i) << "\n";
  for (auto& a : k.tg_allocs) os << "  threadgroup " << a.name << ": " << p.type(a.type) << "\n";
  os << "  body {\n";
  if (k.body) {
    if (k.body->kind == Stmt::Kind::Block) {
      for (auto& s : k.body->stmts)
        if (s) p.stmt(*s, 2, os);
    } else {
      p.stmt(*k.body, 2, os);
    }
  }
  os << "  }\n";
  return os.str();
}
}  // namespace

std::string print_kernel(const Module& m, const Kernel& k) {
  std::string head = "kernel " + k.name;
  if (k.max_total_threads_per_threadgroup)
    head += " [max_total_threads_per_threadgroup " + std::to_string(k.max_total_threads_per_threadgroup) + "]";
  return print_code(m, k, head);
}

std::string print_function(const Module& m, const Function& f) {
  return print_code(m, f.def, "function " + f.def.name + " -> " + print_type(m, f.return_type));
}

std::string print_module(const Module& m) {
  std::ostringstream os;
  Printer p(m, nullptr);
  for (auto& s : m.structs) {
    os << (s.is_union ? "union " : "struct ") << s.name << " (size " << s.size << ", align " << s.align << ")\n";
    for (auto& f : s.fields)
      os << "  " << f.offset << " " << f.name << ": " << p.type(f.type) << (f.anonymous ? " (anonymous)" : "") << "\n";
  }
  for (auto& c : m.constants)
    os << "constant " << c.name << ": " << p.type(c.type) << " = "
       << (c.host_set ? "function_constant(" + std::to_string(c.function_constant_index) + "), set by the host"
           : c.init   ? p.expr(*c.init)
                      : "<none>")
       << "\n";
  bool first = m.structs.empty() && m.constants.empty();
  for (auto& f : m.functions) {
    if (!first) os << "\n";
    first = false;
    os << print_function(m, f);
  }
  for (auto& k : m.kernels) {
    if (!first) os << "\n";
    first = false;
    os << print_kernel(m, k);
  }
  return os.str();
}

}  // namespace mslport::ir
