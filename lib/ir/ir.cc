#include "ir/ir.h"

#include <stdexcept>

namespace mslport::ir {

const char* scalar_name(ScalarKind k) {
  switch (k) {
    case ScalarKind::Bool: return "bool";
    case ScalarKind::Char: return "char";
    case ScalarKind::UChar: return "uchar";
    case ScalarKind::Short: return "short";
    case ScalarKind::UShort: return "ushort";
    case ScalarKind::Int: return "int";
    case ScalarKind::UInt: return "uint";
    case ScalarKind::Long: return "long";
    case ScalarKind::ULong: return "ulong";
    case ScalarKind::Half: return "half";
    case ScalarKind::BFloat: return "bfloat";
    case ScalarKind::Float: return "float";
  }
  return "?";
}
bool is_float(ScalarKind k) { return k == ScalarKind::Half || k == ScalarKind::BFloat || k == ScalarKind::Float; }
bool is_signed_int(ScalarKind k) {
  return k == ScalarKind::Char || k == ScalarKind::Short || k == ScalarKind::Int || k == ScalarKind::Long;
}
bool is_unsigned_int(ScalarKind k) {
  return k == ScalarKind::UChar || k == ScalarKind::UShort || k == ScalarKind::UInt || k == ScalarKind::ULong;
}
int scalar_size(ScalarKind k) {
  switch (k) {
    case ScalarKind::Bool:
    case ScalarKind::Char:
    case ScalarKind::UChar: return 1;
    case ScalarKind::Short:
    case ScalarKind::UShort:
    case ScalarKind::Half:
    case ScalarKind::BFloat: return 2;
    case ScalarKind::Int:
    case ScalarKind::UInt:
    case ScalarKind::Float: return 4;
    case ScalarKind::Long:
    case ScalarKind::ULong: return 8;
  }
  return 0;
}
const char* address_space_name(AddressSpace a) {
  switch (a) {
    case AddressSpace::Private: return "thread";
    case AddressSpace::Device: return "device";
    case AddressSpace::Constant: return "constant";
    case AddressSpace::Threadgroup: return "threadgroup";
  }
  return "?";
}

Type Type::void_type() { return Type{}; }
Type Type::scalar_of(ScalarKind k) {
  Type t;
  t.kind = Kind::Scalar;
  t.scalar = k;
  return t;
}
Type Type::vector_of(ScalarKind k, int n) {
  Type t;
  t.kind = Kind::Vector;
  t.scalar = k;
  t.count = n;
  return t;
}
Type Type::pointer_to(Type pointee, AddressSpace s, bool pointee_const) {
  Type t;
  t.kind = Kind::Pointer;
  t.elem = std::make_shared<const Type>(std::move(pointee));
  t.space = s;
  t.is_const = pointee_const;
  return t;
}
Type Type::array_of(Type elem, int n) {
  Type t;
  t.kind = Kind::Array;
  t.elem = std::make_shared<const Type>(std::move(elem));
  t.count = n;
  return t;
}
Type Type::struct_of(int index) {
  Type t;
  t.kind = Kind::Struct;
  t.struct_index = index;
  return t;
}
Type Type::atomic_of(ScalarKind k) {
  Type t = scalar_of(k);
  t.atomic = true;
  return t;
}

bool Type::operator==(const Type& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case Kind::Void: return true;
    case Kind::Scalar: return scalar == o.scalar && atomic == o.atomic;
    case Kind::Vector: return scalar == o.scalar && count == o.count;
    case Kind::SimdMatrix: return scalar == o.scalar && count == o.count;
    case Kind::Pointer: return space == o.space && is_const == o.is_const && *elem == *o.elem;
    case Kind::Array: return count == o.count && *elem == *o.elem;
    case Kind::Struct: return struct_index == o.struct_index;
  }
  return false;
}

static const struct {
  BuiltinId id;
  const char* name;
} kBuiltins[] = {
    {BuiltinId::ThreadPositionInGrid, "thread_position_in_grid"},
    {BuiltinId::ThreadPositionInThreadgroup, "thread_position_in_threadgroup"},
    {BuiltinId::ThreadgroupPositionInGrid, "threadgroup_position_in_grid"},
    {BuiltinId::ThreadsPerThreadgroup, "threads_per_threadgroup"},
    {BuiltinId::ThreadsPerGrid, "threads_per_grid"},
    {BuiltinId::ThreadgroupsPerGrid, "threadgroups_per_grid"},
    {BuiltinId::ThreadIndexInThreadgroup, "thread_index_in_threadgroup"},
    {BuiltinId::ThreadIndexInSimdgroup, "thread_index_in_simdgroup"},
    {BuiltinId::SimdgroupIndexInThreadgroup, "simdgroup_index_in_threadgroup"},
    {BuiltinId::ThreadsPerSimdgroup, "threads_per_simdgroup"},
    {BuiltinId::SimdgroupsPerThreadgroup, "simdgroups_per_threadgroup"},
    {BuiltinId::DispatchThreadsPerThreadgroup, "dispatch_threads_per_threadgroup"},
    {BuiltinId::GridOrigin, "grid_origin"},
    {BuiltinId::GridSize, "grid_size"},
    {BuiltinId::QuadgroupIndexInThreadgroup, "quadgroup_index_in_threadgroup"},
    {BuiltinId::ThreadIndexInQuadgroup, "thread_index_in_quadgroup"},
};
const char* builtin_attr_name(BuiltinId b) {
  for (auto& e : kBuiltins)
    if (e.id == b) return e.name;
  return "?";
}
std::optional<BuiltinId> builtin_from_attr(const std::string& a) {
  for (auto& e : kBuiltins)
    if (a == e.name) return e.id;
  return std::nullopt;
}

static const struct {
  CollectiveOp op;
  Intrinsic id;
} kCollectives[] = {
// One row a line (clang-format would nest the macro calls).
// clang-format off
#define MSLPORT_COLLECTIVE(name) {CollectiveOp::name, Intrinsic::name},
    MSLPORT_COLLECTIVE(SimdSum)
    MSLPORT_COLLECTIVE(SimdProduct)
    MSLPORT_COLLECTIVE(SimdMax)
    MSLPORT_COLLECTIVE(SimdMin)
    MSLPORT_COLLECTIVE(SimdAnd)
    MSLPORT_COLLECTIVE(SimdOr)
    MSLPORT_COLLECTIVE(SimdXor)
    MSLPORT_COLLECTIVE(SimdPrefixInclusiveSum)
    MSLPORT_COLLECTIVE(SimdPrefixExclusiveSum)
    MSLPORT_COLLECTIVE(SimdBroadcast)
    MSLPORT_COLLECTIVE(SimdBroadcastFirst)
    MSLPORT_COLLECTIVE(SimdShuffle)
    MSLPORT_COLLECTIVE(SimdShuffleDown)
    MSLPORT_COLLECTIVE(SimdShuffleUp)
    MSLPORT_COLLECTIVE(SimdShuffleXor)
    MSLPORT_COLLECTIVE(SimdAll)
    MSLPORT_COLLECTIVE(SimdAny)
    MSLPORT_COLLECTIVE(SimdBallot)
    MSLPORT_COLLECTIVE(SimdPrefixInclusiveProduct)
    MSLPORT_COLLECTIVE(SimdPrefixExclusiveProduct)
    MSLPORT_COLLECTIVE(SimdShuffleRotateDown)
    MSLPORT_COLLECTIVE(SimdShuffleRotateUp)
    MSLPORT_COLLECTIVE(SimdIsFirst)
    MSLPORT_COLLECTIVE(SimdShuffleAndFillDown)
    MSLPORT_COLLECTIVE(SimdShuffleAndFillUp)
    MSLPORT_COLLECTIVE(SimdActiveThreadsMask)
    MSLPORT_COLLECTIVE(QuadSum)
    MSLPORT_COLLECTIVE(QuadProduct)
    MSLPORT_COLLECTIVE(QuadMax)
    MSLPORT_COLLECTIVE(QuadMin)
    MSLPORT_COLLECTIVE(QuadAnd)
    MSLPORT_COLLECTIVE(QuadOr)
    MSLPORT_COLLECTIVE(QuadXor)
    MSLPORT_COLLECTIVE(QuadPrefixInclusiveSum)
    MSLPORT_COLLECTIVE(QuadPrefixExclusiveSum)
    MSLPORT_COLLECTIVE(QuadBroadcast)
    MSLPORT_COLLECTIVE(QuadShuffle)
    MSLPORT_COLLECTIVE(QuadShuffleDown)
    MSLPORT_COLLECTIVE(QuadShuffleUp)
    MSLPORT_COLLECTIVE(QuadShuffleXor)
    MSLPORT_COLLECTIVE(QuadAll)
    MSLPORT_COLLECTIVE(QuadAny)
    MSLPORT_COLLECTIVE(QuadPrefixInclusiveProduct)
    MSLPORT_COLLECTIVE(QuadPrefixExclusiveProduct)
    MSLPORT_COLLECTIVE(QuadBroadcastFirst)
    MSLPORT_COLLECTIVE(QuadShuffleRotateDown)
    MSLPORT_COLLECTIVE(QuadShuffleRotateUp)
    MSLPORT_COLLECTIVE(QuadIsFirst)
    MSLPORT_COLLECTIVE(QuadShuffleAndFillDown)
    MSLPORT_COLLECTIVE(QuadShuffleAndFillUp)
    MSLPORT_COLLECTIVE(QuadBallot)
    MSLPORT_COLLECTIVE(QuadActiveThreadsMask)
#undef MSLPORT_COLLECTIVE
    // clang-format on
};
Intrinsic collective_intrinsic(CollectiveOp op) {
  for (auto& e : kCollectives)
    if (e.op == op) return e.id;
  return Intrinsic::None;
}
const char* collective_name(CollectiveOp op) {
  Intrinsic id = collective_intrinsic(op);
  return id == Intrinsic::None ? "?" : intrinsic_info(id).name;
}
std::optional<CollectiveOp> collective_from_name(const std::string& n) {
  auto id = intrinsic_named(n);
  if (!id) return std::nullopt;
  for (auto& e : kCollectives)
    if (e.id == *id) return e.op;
  return std::nullopt;
}

static const struct {
  SimdMatrixOpKind op;
  const char* name;
} kMatrixOps[] = {
    {SimdMatrixOpKind::Load, "simdgroup_load"},
    {SimdMatrixOpKind::Store, "simdgroup_store"},
    {SimdMatrixOpKind::Multiply, "simdgroup_multiply"},
    {SimdMatrixOpKind::MultiplyAccumulate, "simdgroup_multiply_accumulate"},
    {SimdMatrixOpKind::Fill, "make_filled_simdgroup_matrix"},
    {SimdMatrixOpKind::Diagonal, "simdgroup_matrix"},
};
const char* simd_matrix_op_name(SimdMatrixOpKind op) {
  for (auto& e : kMatrixOps)
    if (e.op == op) return e.name;
  return "?";
}
std::optional<SimdMatrixOpKind> simd_matrix_op_from_name(const std::string& n) {
  for (auto& e : kMatrixOps)
    if (n == e.name) return e.op;
  return std::nullopt;
}

const char* unary_spelling(UnaryOp op) {
  switch (op) {
    case UnaryOp::Neg: return "-";
    case UnaryOp::Plus: return "+";
    case UnaryOp::Not: return "!";
    case UnaryOp::BitNot: return "~";
    case UnaryOp::PreInc:
    case UnaryOp::PostInc: return "++";
    case UnaryOp::PreDec:
    case UnaryOp::PostDec: return "--";
    case UnaryOp::Deref: return "*";
    case UnaryOp::AddrOf: return "&";
  }
  return "?";
}
const char* binary_spelling(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::Rem: return "%";
    case BinaryOp::Shl: return "<<";
    case BinaryOp::Shr: return ">>";
    case BinaryOp::BitAnd: return "&";
    case BinaryOp::BitOr: return "|";
    case BinaryOp::BitXor: return "^";
    case BinaryOp::LogAnd: return "&&";
    case BinaryOp::LogOr: return "||";
    case BinaryOp::Lt: return "<";
    case BinaryOp::Gt: return ">";
    case BinaryOp::Le: return "<=";
    case BinaryOp::Ge: return ">=";
    case BinaryOp::Eq: return "==";
    case BinaryOp::Ne: return "!=";
    case BinaryOp::Comma: return ",";
  }
  return "?";
}

ExprPtr Expr::clone() const {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->type = type;
  e->loc = loc;
  e->int_value = int_value;
  e->float_value = float_value;
  e->spelling = spelling;
  e->index = index;
  e->arrow = arrow;
  e->unary_op = unary_op;
  e->binary_op = binary_op;
  e->assign_op = assign_op;
  e->collective_op = collective_op;
  e->matrix_op = matrix_op;
  e->components = components;
  e->intrinsic = intrinsic;
  for (auto& a : args) e->args.push_back(a ? a->clone() : nullptr);
  if (mask) e->mask = mask->clone();
  return e;
}

StmtPtr Stmt::clone() const {
  auto s = std::make_unique<Stmt>();
  s->kind = kind;
  s->loc = loc;
  s->var = var;
  for (auto& c : stmts) s->stmts.push_back(c ? c->clone() : nullptr);
  if (expr) s->expr = expr->clone();
  if (init) s->init = init->clone();
  if (step) s->step = step->clone();
  if (body) s->body = body->clone();
  if (else_body) s->else_body = else_body->clone();
  s->simdgroup_scope = simdgroup_scope;
  s->mem_flags = mem_flags;
  s->lockstep = lockstep;
  s->comment = comment;
  return s;
}

const Kernel* Module::find_kernel(const std::string& name) const {
  for (auto& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

Kernel clone_kernel(const Kernel& k) {
  Kernel c;
  c.name = k.name;
  c.loc = k.loc;
  c.params = k.params;
  c.max_total_threads_per_threadgroup = k.max_total_threads_per_threadgroup;
  c.vars = k.vars;
  c.tg_allocs = k.tg_allocs;
  c.body = k.body ? k.body->clone() : nullptr;
  return c;
}
void erase_constants(Module& m, const std::vector<bool>& erase) {
  std::vector<int> renumber(m.constants.size(), -1);
  std::vector<GlobalConst> kept;
  for (size_t c = 0; c < m.constants.size(); ++c)
    if (!erase[c]) {
      renumber[c] = (int)kept.size();
      kept.push_back(std::move(m.constants[c]));
    }
  m.constants = std::move(kept);
  auto fix = [&](Expr& x) {
    if (x.kind == Expr::Kind::GlobalConstRef) x.index = renumber.at(x.index);
    return true;
  };
  auto fix_body = [&](Stmt& body) {
    walk_stmts_mut(body, [&](Stmt& s) {
      if (s.expr) walk_exprs_mut(*s.expr, fix);
      if (s.step) walk_exprs_mut(*s.step, fix);
      return true;
    });
  };
  for (auto& c : m.constants)
    if (c.init) walk_exprs_mut(*c.init, fix);
  for (auto& k : m.kernels)
    if (k.body) fix_body(*k.body);
  for (auto& f : m.functions)
    if (f.def.body) fix_body(*f.def.body);
}

Module clone_module(const Module& m) {
  Module c;
  c.source_path = m.source_path;
  c.structs = m.structs;
  for (auto& g : m.constants)
    c.constants.push_back(GlobalConst{g.name, g.type, g.init ? g.init->clone() : nullptr, g.loc, g.host_set,
                                      g.function_constant_index, g.computed});
  for (auto& f : m.functions) c.functions.push_back(Function{clone_kernel(f.def), f.return_type, f.display_name});
  for (auto& k : m.kernels) c.kernels.push_back(clone_kernel(k));
  return c;
}

int type_align(const Module& m, const Type& t) {
  switch (t.kind) {
    case Type::Kind::Void: return 1;
    case Type::Kind::Scalar: return scalar_size(t.scalar);
    case Type::Kind::Vector: return scalar_size(t.scalar) * (t.count == 3 ? 4 : t.count);
    case Type::Kind::SimdMatrix: return scalar_size(t.scalar);
    case Type::Kind::Pointer: return 8;
    case Type::Kind::Array: return type_align(m, *t.elem);
    case Type::Kind::Struct: return m.structs.at(t.struct_index).align;
  }
  return 1;
}
int type_size(const Module& m, const Type& t) {
  switch (t.kind) {
    case Type::Kind::Void: return 0;
    case Type::Kind::Scalar: return scalar_size(t.scalar);
    case Type::Kind::Vector: return scalar_size(t.scalar) * (t.count == 3 ? 4 : t.count);
    case Type::Kind::SimdMatrix: return scalar_size(t.scalar) * t.count * t.count;
    case Type::Kind::Pointer: return 8;
    case Type::Kind::Array: return type_size(m, *t.elem) * t.count;
    case Type::Kind::Struct: return m.structs.at(t.struct_index).size;
  }
  return 0;
}
std::string type_name(const Module& m, const Type& t) {
  switch (t.kind) {
    case Type::Kind::Void: return "void";
    case Type::Kind::Scalar: return (t.atomic ? "atomic_" : "") + std::string(scalar_name(t.scalar));
    case Type::Kind::Vector: return std::string(scalar_name(t.scalar)) + std::to_string(t.count);
    case Type::Kind::SimdMatrix:
      return "simdgroup_matrix<" + std::string(scalar_name(t.scalar)) + ", " + std::to_string(t.count) + ", " +
             std::to_string(t.count) + ">";
    case Type::Kind::Pointer:
      return std::string(address_space_name(t.space)) + " " + (t.is_const ? "const " : "") + type_name(m, *t.elem) +
             "*";
    case Type::Kind::Array: return type_name(m, *t.elem) + "[" + (t.count ? std::to_string(t.count) : "") + "]";
    case Type::Kind::Struct:
      return t.struct_index >= 0 && t.struct_index < (int)m.structs.size() ? m.structs[t.struct_index].name : "struct?";
  }
  return "?";
}

ExprPtr make_int(Type t, int64_t v, SourceLoc loc) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::IntLit;
  e->type = std::move(t);
  e->int_value = v;
  e->loc = std::move(loc);
  return e;
}
ExprPtr make_bool(bool v, SourceLoc loc) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::BoolLit;
  e->type = Type::scalar_of(ScalarKind::Bool);
  e->int_value = v ? 1 : 0;
  e->loc = std::move(loc);
  return e;
}
ExprPtr make_var_ref(const Kernel& k, int var, SourceLoc loc) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::VarRef;
  e->type = k.vars.at(var).type;
  e->index = var;
  e->loc = std::move(loc);
  return e;
}
ExprPtr make_param_ref(const Kernel& k, int param, SourceLoc loc) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::ParamRef;
  e->type = k.params.at(param).type;
  e->index = param;
  e->loc = std::move(loc);
  return e;
}
ExprPtr make_binary(BinaryOp op, Type t, ExprPtr a, ExprPtr b, SourceLoc loc) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::Binary;
  e->type = std::move(t);
  e->binary_op = op;
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  e->loc = std::move(loc);
  return e;
}
ExprPtr make_unary(UnaryOp op, Type t, ExprPtr a, SourceLoc loc) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::Unary;
  e->type = std::move(t);
  e->unary_op = op;
  e->args.push_back(std::move(a));
  e->loc = std::move(loc);
  return e;
}
ExprPtr make_assign(ExprPtr lhs, ExprPtr rhs, SourceLoc loc) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::Assign;
  e->type = lhs->type;
  e->args.push_back(std::move(lhs));
  e->args.push_back(std::move(rhs));
  e->loc = std::move(loc);
  return e;
}
StmtPtr make_block(std::vector<StmtPtr> stmts, SourceLoc loc) {
  auto s = std::make_unique<Stmt>();
  s->kind = Stmt::Kind::Block;
  s->stmts = std::move(stmts);
  s->loc = std::move(loc);
  return s;
}
StmtPtr make_expr_stmt(ExprPtr e) {
  auto s = std::make_unique<Stmt>();
  s->kind = Stmt::Kind::ExprStmt;
  s->loc = e->loc;
  s->expr = std::move(e);
  return s;
}
StmtPtr make_decl(int var, ExprPtr init, SourceLoc loc) {
  auto s = std::make_unique<Stmt>();
  s->kind = Stmt::Kind::Decl;
  s->var = var;
  s->expr = std::move(init);
  s->loc = std::move(loc);
  return s;
}
StmtPtr make_if(ExprPtr cond, StmtPtr then_body, StmtPtr else_body, SourceLoc loc) {
  auto s = std::make_unique<Stmt>();
  s->kind = Stmt::Kind::If;
  s->expr = std::move(cond);
  s->body = std::move(then_body);
  s->else_body = std::move(else_body);
  s->loc = std::move(loc);
  return s;
}
ExprPtr make_call(std::string callee, Type type, std::vector<ExprPtr> args, SourceLoc loc) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::Call;
  e->spelling = std::move(callee);
  e->type = std::move(type);
  e->args = std::move(args);
  e->loc = std::move(loc);
  return e;
}

ExprPtr make_intrinsic_call(Intrinsic id, Type type, std::vector<ExprPtr> args, SourceLoc loc) {
  auto e = make_call(intrinsic_info(id).name, std::move(type), std::move(args), std::move(loc));
  e->intrinsic = id;
  return e;
}

ExprPtr make_cast(Type type, ExprPtr x) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::Cast;
  e->type = std::move(type);
  e->loc = x->loc;
  e->args.push_back(std::move(x));
  return e;
}

ExprPtr make_index(ExprPtr base, ExprPtr index, Type element) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::Index;
  e->type = std::move(element);
  e->loc = base->loc;
  e->args.push_back(std::move(base));
  e->args.push_back(std::move(index));
  return e;
}

ExprPtr make_address_of_element(ExprPtr pointer, ExprPtr index, Type element) {
  Type type = pointer->type;
  SourceLoc loc = pointer->loc;
  return make_unary(UnaryOp::AddrOf, std::move(type),
                    make_index(std::move(pointer), std::move(index), std::move(element)), std::move(loc));
}

std::string unique_name(const Kernel& k, const std::string& base) {
  auto used = [&](const std::string& n) {
    for (auto& v : k.vars)
      if (v.name == n) return true;
    for (auto& p : k.params)
      if (p.name == n) return true;
    for (auto& a : k.tg_allocs)
      if (a.name == n) return true;
    return false;
  };
  std::string n = base;
  for (int i = 1; used(n); ++i) n = base + "_" + std::to_string(i);
  return n;
}

std::string unique_struct_name(const Module& m, const std::string& base) {
  auto used = [&](const std::string& n) {
    for (auto& s : m.structs)
      if (s.name == n) return true;
    return false;
  };
  std::string n = base;
  for (int i = 2; used(n); ++i) n = base + "_" + std::to_string(i);
  return n;
}

int add_var(Kernel& k, std::string name, Type t, SourceLoc loc, bool is_const) {
  k.vars.push_back(Var{unique_name(k, name), std::move(t), is_const, std::move(loc)});
  return (int)k.vars.size() - 1;
}

bool is_increment(UnaryOp op) {
  return op == UnaryOp::PreInc || op == UnaryOp::PreDec || op == UnaryOp::PostInc || op == UnaryOp::PostDec;
}

bool same_expr(const Expr& a, const Expr& b) {
  if (a.kind != b.kind || a.type != b.type || a.index != b.index || a.int_value != b.int_value ||
      a.float_value != b.float_value || a.spelling != b.spelling || a.arrow != b.arrow || a.unary_op != b.unary_op ||
      a.binary_op != b.binary_op || a.components != b.components || a.intrinsic != b.intrinsic ||
      a.args.size() != b.args.size())
    return false;
  for (size_t i = 0; i < a.args.size(); ++i)
    if (!same_expr(*a.args[i], *b.args[i])) return false;
  return true;
}

std::optional<const Expr*> offset_from_var(const Expr& index, int var) {
  auto is_var = [&](const Expr& e) { return e.kind == Expr::Kind::VarRef && e.index == var; };
  if (is_var(index)) return nullptr;
  if (index.kind != Expr::Kind::Binary || index.binary_op != BinaryOp::Add || !index.type.is_scalar(ScalarKind::UInt))
    return std::nullopt;
  if (is_var(*index.args[1])) return index.args[0].get();
  if (is_var(*index.args[0])) return index.args[1].get();
  return std::nullopt;
}

std::string name_after_operand(const Kernel& k, const Expr& e, const std::string& prefix) {
  std::string name = prefix;
  walk_exprs(e, [&](const Expr& x) {
    if (name != prefix) return false;
    if (x.kind == Expr::Kind::VarRef) name += "_" + k.vars.at(x.index).name;
    if (x.kind == Expr::Kind::ParamRef) name += "_" + k.params.at(x.index).name;
    return name == prefix;
  });
  return name;
}

bool writes_operand(const Expr& e) {
  return e.kind == Expr::Kind::Assign || (e.kind == Expr::Kind::Unary && is_increment(e.unary_op));
}

int written_variable(const Expr& e) {
  if (!writes_operand(e)) return -1;
  const Expr* t = e.args[0].get();
  while (t->kind == Expr::Kind::Index || t->kind == Expr::Kind::Member || t->kind == Expr::Kind::Swizzle) {
    if ((t->kind == Expr::Kind::Index && t->args[0]->type.is_pointer()) || (t->kind == Expr::Kind::Member && t->arrow))
      return -1;  // memory through a pointer, not the pointer variable
    t = t->args[0].get();
  }
  return t->kind == Expr::Kind::VarRef ? t->index : -1;
}

int address_taken_variable(const Expr& e) {
  if (e.kind != Expr::Kind::Unary || e.unary_op != UnaryOp::AddrOf || e.args.empty()) return -1;
  const Expr* x = e.args[0].get();
  while (x->kind == Expr::Kind::Index || x->kind == Expr::Kind::Member || x->kind == Expr::Kind::Swizzle)
    x = x->args[0].get();
  return x->kind == Expr::Kind::VarRef ? x->index : -1;
}

bool for_each_object_selector(ExprPtr& e, const std::function<void(ExprPtr&)>& value) {
  switch (e->kind) {
    case Expr::Kind::VarRef:
    case Expr::Kind::ParamRef:
    case Expr::Kind::TgAllocRef:
    case Expr::Kind::GlobalConstRef: return true;
    case Expr::Kind::Member:
      if (!e->arrow) return for_each_object_selector(e->args[0], value);
      value(e->args[0]);
      return true;
    case Expr::Kind::Index:
      if (e->args[0]->type.is_array()) {
        if (!for_each_object_selector(e->args[0], value)) return false;
      } else if (e->args[0]->type.is_pointer()) {
        value(e->args[0]);
      } else {
        return false;
      }
      value(e->args[1]);
      return true;
    case Expr::Kind::Unary:
      if (e->unary_op != UnaryOp::Deref) return false;
      value(e->args[0]);
      return true;
    default: return false;
  }
}

std::set<int> vars_assigned(const Stmt& s) {
  std::set<int> vars;
  walk_stmt_exprs(s, [&](const Expr& x) {
    if (int v = written_variable(x); v >= 0) vars.insert(v);
    if (int v = address_taken_variable(x); v >= 0) vars.insert(v);
    return true;
  });
  return vars;
}

std::set<int> params_written(const Kernel& f) {
  std::set<int> out;
  if (!f.body) return out;
  auto root_param = [](const Expr* e) -> int {
    while (e && (e->kind == Expr::Kind::Index || e->kind == Expr::Kind::Member || e->kind == Expr::Kind::Swizzle) &&
           !e->args.empty()) {
      // Writing through a pointer parameter (`p[i] = x`) does not write p.
      if ((e->kind == Expr::Kind::Index && e->args[0]->type.is_pointer()) ||
          (e->kind == Expr::Kind::Member && e->arrow))
        return -1;
      e = e->args[0].get();
    }
    return e && e->kind == Expr::Kind::ParamRef ? e->index : -1;
  };
  walk_stmt_exprs(*f.body, [&](const Expr& x) {
    if (writes_operand(x) && !x.args.empty()) {
      int p = root_param(x.args[0].get());
      if (p >= 0) out.insert(p);
    }
    if (x.kind == Expr::Kind::Unary && x.unary_op == UnaryOp::AddrOf && !x.args.empty()) {
      int p = root_param(x.args[0].get());
      if (p >= 0) out.insert(p);
    }
    // A reference argument of a nested call may write the parameter.
    if (x.kind == Expr::Kind::UserCall)
      for (auto& a : x.args) {
        int p = root_param(a.get());
        if (p >= 0) out.insert(p);
      }
    return true;
  });
  return out;
}

std::set<int> vars_written(const Stmt& s) {
  std::set<int> vars;
  walk_stmts(s, [&](const Stmt& x) {
    if (x.kind == Stmt::Kind::Decl) vars.insert(x.var);
    return true;
  });
  walk_stmt_exprs(s, [&](const Expr& x) {
    int v = written_variable(x);
    if (v >= 0) vars.insert(v);
    return true;
  });
  return vars;
}

void walk_exprs(const Expr& e, const std::function<bool(const Expr&)>& f) {
  if (!f(e)) return;
  for (auto& a : e.args)
    if (a) walk_exprs(*a, f);
  if (e.mask) walk_exprs(*e.mask, f);
}
StmtPtr clone_with_fresh_vars(Kernel& k, const Stmt& body, std::map<int, int> remap) {
  StmtPtr c = body.clone();
  walk_stmts_mut(*c, [&](Stmt& s) {
    if (s.kind == Stmt::Kind::Decl && !remap.count(s.var)) {
      Var v = k.vars[s.var];  // a copy: add_var grows k.vars
      remap[s.var] = add_var(k, v.name, v.type, v.loc, v.is_const);
    }
    return true;
  });
  auto rename = [&](Expr& x) {
    if (x.kind == Expr::Kind::VarRef && remap.count(x.index)) x.index = remap.at(x.index);
    return true;
  };
  walk_stmts_mut(*c, [&](Stmt& s) {
    if (s.kind == Stmt::Kind::Decl && remap.count(s.var)) s.var = remap.at(s.var);
    if (s.expr) walk_exprs_mut(*s.expr, rename);
    if (s.step) walk_exprs_mut(*s.step, rename);
    return true;
  });
  return c;
}

void walk_exprs_mut(Expr& e, const std::function<bool(Expr&)>& f) {
  if (!f(e)) return;
  for (auto& a : e.args)
    if (a) walk_exprs_mut(*a, f);
  if (e.mask) walk_exprs_mut(*e.mask, f);
}
void walk_stmts(const Stmt& s, const std::function<bool(const Stmt&)>& f) {
  if (!f(s)) return;
  for (auto& c : s.stmts)
    if (c) walk_stmts(*c, f);
  if (s.init) walk_stmts(*s.init, f);
  if (s.body) walk_stmts(*s.body, f);
  if (s.else_body) walk_stmts(*s.else_body, f);
}
void walk_stmts_mut(Stmt& s, const std::function<bool(Stmt&)>& f) {
  if (!f(s)) return;
  for (auto& c : s.stmts)
    if (c) walk_stmts_mut(*c, f);
  if (s.init) walk_stmts_mut(*s.init, f);
  if (s.body) walk_stmts_mut(*s.body, f);
  if (s.else_body) walk_stmts_mut(*s.else_body, f);
}
void walk_stmt_exprs(const Stmt& s, const std::function<bool(const Expr&)>& f) {
  walk_stmts(s, [&](const Stmt& st) {
    if (st.expr) walk_exprs(*st.expr, f);
    if (st.step) walk_exprs(*st.step, f);
    return true;
  });
}

}  // namespace mslport::ir
