#include "passes/flatten_argument_buffers.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

#include "ir/analysis/purity.h"

namespace mslport::passes {

using ir::Expr;
using ir::ExprPtr;
using ir::Param;
using ir::Type;

namespace {

// True when values of type `t` hold a pointer (in a field, nested struct or
// array), so that a kernel parameter of it is an argument buffer.
bool holds_pointers(const ir::Module& m, const Type& t) {
  switch (t.kind) {
    case Type::Kind::Pointer: return true;
    case Type::Kind::Array: return holds_pointers(m, *t.elem);
    case Type::Kind::Struct:
      for (const ir::StructField& f : m.structs.at(t.struct_index).fields)
        if (holds_pointers(m, f.type)) return true;
      return false;
    default: return false;
  }
}

// The struct an argument buffer parameter's uses reach: the referenced type
// of `constant S&`, the pointee of a `device S*` (or `device S&`) buffer.
const Type* argument_struct(const Param& p) {
  if (p.kind == Param::Kind::ConstantRef || p.kind == Param::Kind::ConstantValue) return &p.type;
  if (p.kind == Param::Kind::Buffer && p.type.is_pointer() && p.argument_buffer_offset < 0) return p.type.elem.get();
  return nullptr;
}

// S -> S_slots: each pointer an 8-byte ulong slot, at the offsets S has.
class SlotTypes {
 public:
  explicit SlotTypes(ir::Module& m) : m_(m) {}

  Type of(const Type& t) {
    switch (t.kind) {
      case Type::Kind::Pointer: return Type::scalar_of(ir::ScalarKind::ULong);
      case Type::Kind::Array: return holds_pointers(m_, t) ? Type::array_of(of(*t.elem), t.count) : t;
      case Type::Kind::Struct: return holds_pointers(m_, t) ? Type::struct_of(struct_of(t.struct_index)) : t;
      default: return t;
    }
  }

 private:
  int struct_of(int s) {
    if (auto it = memo_.find(s); it != memo_.end()) return it->second;
    ir::StructDef d = m_.structs[s];
    // Nested ones first: a struct's fields are defined before it.
    for (ir::StructField& f : d.fields) f.type = of(f.type);
    d.name = ir::unique_struct_name(m_, d.name + "_slots");
    m_.structs.push_back(std::move(d));
    return memo_[s] = int(m_.structs.size()) - 1;
  }
  ir::Module& m_;
  std::map<int, int> memo_;
};

// The most elements of an array of pointers that an index selects from.
constexpr int kMaxSelectedElements = 64;

bool is_zero(const Expr& e) {
  if (e.kind == Expr::Kind::Cast) return is_zero(*e.args[0]);
  return e.kind == Expr::Kind::IntLit && e.int_value == 0;
}

class Flattener {
 public:
  Flattener(ir::Module& m, ir::Kernel& k, SlotTypes& slots, DiagEngine& diags)
      : m_(m), k_(k), slots_(slots), diags_(diags) {
    for (size_t p = 0; p < k.params.size(); ++p) {
      const Type* s = argument_struct(k.params[p]);
      if (s && holds_pointers(m, *s)) argument_buffers_.insert(int(p));
    }
  }

  bool run() {
    if (argument_buffers_.empty()) return true;
    const size_t first_new = k_.params.size();
    ir::walk_stmts_mut(*k_.body, [&](ir::Stmt& s) {
      if (s.expr) visit(s.expr, nullptr);
      if (s.step) visit(s.step, nullptr);
      return true;
    });
    order_new_params(first_new);
    for (int p : argument_buffers_) {
      Param& prm = k_.params[p];
      if (prm.kind == Param::Kind::Buffer)
        prm.type = Type::pointer_to(slots_.of(*prm.type.elem), prm.type.space, prm.type.is_const);
      else prm.type = slots_.of(prm.type);
    }
    return ok_;
  }

 private:
  bool is_argument_buffer(const Expr& e) const {
    return e.kind == Expr::Kind::ParamRef && argument_buffers_.count(e.index);
  }

  // Where `e` is in an argument buffer: the parameter, the byte offset and
  // the member path it reaches as Metal spells it (`args.inner.x`). For the
  // argument buffer itself (`args`, `*args`, `args[0]`) and member chains
  // into it.
  bool locate(const Expr& e, int* param, int* offset, std::string* path) const {
    auto at_param = [&](const Expr& p) {
      *param = p.index;
      *offset = 0;
      *path = k_.params[p.index].name;
      return true;
    };
    if (is_argument_buffer(e)) return k_.params[e.index].kind != Param::Kind::Buffer && at_param(e);
    if (e.kind == Expr::Kind::Unary && e.unary_op == ir::UnaryOp::Deref && is_argument_buffer(*e.args[0]))
      return at_param(*e.args[0]);
    if (e.kind == Expr::Kind::Index && is_argument_buffer(*e.args[0]) && is_zero(*e.args[1]))
      return at_param(*e.args[0]);
    if (e.kind != Expr::Kind::Member) return false;
    const Expr& base = *e.args[0];
    const Type* record = nullptr;
    if (e.arrow) {
      if (!is_argument_buffer(base)) return false;
      at_param(base);
      record = base.type.elem.get();
    } else {
      if (!locate(base, param, offset, path)) return false;
      record = &base.type;
    }
    if (!record || !record->is_struct()) return false;
    const ir::StructField& f = m_.structs.at(record->struct_index).fields.at(e.index);
    *offset += f.offset;
    *path += "." + f.name;
    return true;
  }

  // Does `parent` write `e` (assign, increment) or take its address?
  static bool written_or_addressed(const Expr* parent, const ExprPtr& e) {
    return parent && ((ir::writes_operand(*parent) && parent->args[0].get() == e.get()) ||
                      (parent->kind == Expr::Kind::Unary && parent->unary_op == ir::UnaryOp::AddrOf));
  }

  void visit(ExprPtr& e, const Expr* parent) {
    int param = -1, offset = 0;
    std::string path;
    const bool located = locate(*e, &param, &offset, &path);
    if (located && e->kind == Expr::Kind::Member && e->type.is_pointer()) {
      if (written_or_addressed(parent, e)) {
        error(*e, "writes or takes the address of pointer '" + path + "' of argument buffer '" + k_.params[param].name +
                      "'");
        return;
      }
      ir::SourceLoc loc = e->loc;
      e = ir::make_param_ref(k_, pointee_param(param, offset, path, e->type), loc);
      return;
    }
    const bool through_member =
        parent && parent->kind == Expr::Kind::Member && !parent->arrow && parent->args[0].get() == e.get();
    // `args.bufs[i]`: one buffer per element, the one that i selects.
    if (e->kind == Expr::Kind::Index && e->type.is_pointer()) {
      int at = 0;
      std::string array;
      const Expr& base = *e->args[0];
      if (base.type.is_array() && base.type.elem->is_pointer() && locate(base, &param, &at, &array)) {
        select_element(e, param, at, array, parent);
        return;
      }
    }
    if (located && e->type.is_array() && holds_pointers(m_, e->type)) {
      error(*e, "reads the array '" + path + "' of argument buffer '" + k_.params[param].name +
                    "' other than by one pointer element of it");
      return;
    }
    if (located && holds_pointers(m_, e->type) && !through_member) {
      error(*e, "reads argument buffer '" + k_.params[param].name + "'" +
                    (path == k_.params[param].name ? "" : " (its part '" + path + "')") +
                    " as a whole value; only its members can be read");
      return;
    }
    if (is_argument_buffer(*e) && k_.params[e->index].kind == Param::Kind::Buffer) {
      const bool reaches_member = parent && parent->args[0].get() == e.get() &&
                                  ((parent->kind == Expr::Kind::Member && parent->arrow) ||
                                   (parent->kind == Expr::Kind::Unary && parent->unary_op == ir::UnaryOp::Deref) ||
                                   (parent->kind == Expr::Kind::Index && is_zero(*parent->args[1])));
      if (!reaches_member) {
        error(*e, "uses argument buffer '" + k_.params[e->index].name +
                      "' other than to read its members (an array of argument buffers, or the pointer itself)");
        return;
      }
    }
    for (auto& a : e->args)
      if (a) visit(a, e.get());
    // Its operands hold slots now: so does it.
    if (located || is_argument_buffer(*e)) {
      if (e->type.is_pointer()) e->type = Type::pointer_to(slots_.of(*e->type.elem), e->type.space, e->type.is_const);
      else e->type = slots_.of(e->type);
    }
  }

  // `array[i]`, an array of N pointers at byte `at` of argument buffer
  // `param`: a buffer per element, i selecting one (i == 0 ? array_0 : i ==
  // 1 ? array_1 : ... array_N-1; past the end is undefined in Metal too).
  void select_element(ExprPtr& e, int param, int at, const std::string& array, const Expr* parent) {
    if (written_or_addressed(parent, e)) {
      error(*e, "writes or takes the address of an element of '" + array + "' of argument buffer '" +
                    k_.params[param].name + "'");
      return;
    }
    const Expr& base = *e->args[0];
    const int n = base.type.count;
    if (n < 1 || n > kMaxSelectedElements) {
      error(*e, "indexes '" + array + "', an array of " + std::to_string(n) + " pointers (at most " +
                    std::to_string(kMaxSelectedElements) + ")");
      return;
    }
    ExprPtr& index = e->args[1];
    visit(index, e.get());
    if (ir::analysis::has_side_effects(*index)) {
      error(*e, "indexes '" + array + "' with an index that has side effects");
      return;
    }
    const ir::SourceLoc loc = e->loc;
    const Type& pointer = e->type;
    auto element = [&](int j) {
      return ir::make_param_ref(k_, pointee_param(param, at + j * 8, array + "[" + std::to_string(j) + "]", pointer),
                                loc);
    };
    if (index->kind == Expr::Kind::IntLit && index->int_value >= 0 && index->int_value < n) {
      e = element(int(index->int_value));
      return;
    }
    ExprPtr chosen = element(n - 1);
    for (int j = n - 2; j >= 0; --j) {
      auto pick = std::make_unique<Expr>();
      pick->kind = Expr::Kind::Conditional;
      pick->type = pointer;
      pick->loc = loc;
      pick->args.push_back(ir::make_binary(ir::BinaryOp::Eq, Type::scalar_of(ir::ScalarKind::Bool), index->clone(),
                                           ir::make_int(index->type, j, loc), loc));
      pick->args.push_back(element(j));
      pick->args.push_back(std::move(chosen));
      chosen = std::move(pick);
    }
    e = std::move(chosen);
  }

  // The Buffer parameter for the pointer at `offset` in argument buffer `param`.
  int pointee_param(int param, int offset, const std::string& path, const Type& type) {
    auto key = std::make_tuple(param, offset, ir::type_name(m_, type));
    if (auto it = made_.find(key); it != made_.end()) return it->second;
    Param q;
    q.kind = Param::Kind::Buffer;
    std::string name;  // args.inner.x -> args_inner_x, args.bufs[2] -> args_bufs_2
    for (char c : path)
      if (c == '.' || c == '[') name += '_';
      else if (c != ']') name += c;
    q.name = ir::unique_name(k_, name);
    q.type = type;
    q.index = k_.params[param].index;
    q.argument_buffer_offset = offset;
    q.loc = k_.params[param].loc;
    k_.params.push_back(std::move(q));
    return made_[key] = int(k_.params.size()) - 1;
  }

  // The parameters added from `first` on, in the order of their argument
  // buffers and offsets (the order of first use is an accident of the body).
  void order_new_params(size_t first) {
    std::vector<int> order;
    for (size_t i = first; i < k_.params.size(); ++i) order.push_back(int(i));
    auto key = [&](int i) {
      const Param& p = k_.params[i];
      return std::make_tuple(p.index, p.argument_buffer_offset, i);
    };
    std::sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
    std::map<int, int> new_index;
    std::vector<Param> sorted;
    for (size_t j = 0; j < order.size(); ++j) {
      new_index[order[j]] = int(first + j);
      sorted.push_back(std::move(k_.params[order[j]]));
    }
    for (size_t j = 0; j < sorted.size(); ++j) k_.params[first + j] = std::move(sorted[j]);
    ir::walk_stmts_mut(*k_.body, [&](ir::Stmt& s) {
      for (ir::ExprPtr* e : {&s.expr, &s.step})
        if (*e)
          ir::walk_exprs_mut(**e, [&](Expr& x) {
            if (x.kind == Expr::Kind::ParamRef && new_index.count(x.index)) x.index = new_index[x.index];
            return true;
          });
      return true;
    });
  }

  void error(const Expr& at, const std::string& what) {
    diags_.error(at.loc, "kernel '" + k_.name + "' " + what + ": not supported yet");
    ok_ = false;
  }

  ir::Module& m_;
  ir::Kernel& k_;
  SlotTypes& slots_;
  DiagEngine& diags_;
  std::set<int> argument_buffers_;
  std::map<std::tuple<int, int, std::string>, int> made_;
  bool ok_ = true;
};

}  // namespace

bool flatten_argument_buffers(ir::Module& m, ir::Kernel& k, DiagEngine& diags) {
  SlotTypes slots(m);
  return !k.body || Flattener(m, k, slots, diags).run();
}

bool flatten_argument_buffers(ir::Module& m, DiagEngine& diags) {
  SlotTypes slots(m);
  bool ok = true;
  for (ir::Kernel& k : m.kernels)
    if (k.body) ok = Flattener(m, k, slots, diags).run() && ok;
  return ok;
}

}  // namespace mslport::passes
