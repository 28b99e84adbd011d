// The kernel IR: plain data, produced by the front end (lib/front), rewritten
// by passes (lib/passes), printed by backends (lib/back/*).
//
// Design notes (why it looks like this):
//  * Structured, not a CFG: both targets are C-like languages and the GPU
//    execution model (barriers, SIMD-group collectives) is defined on
//    structured control flow, so keeping if/for/while makes every pass and
//    printer simpler and keeps emitted code readable.
//  * Every expression carries its type as clang computed it (implicit
//    conversions become explicit Cast nodes), so backends never re-derive
//    C's promotion rules.
//  * Variables, parameters, threadgroup allocations and program constants are
//    referred to by index ("handles") into tables on the Kernel / Module.
//  * SIMD-group collectives and barriers are first-class nodes; after the
//    sync passes every collective carries an explicit active-lane mask.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/intrinsic_table.h"

namespace mslport::ir {

struct SourceLoc {
  std::string file;  // as given on the command line (for diagnostics)
  int line = 0;      // 1-based; 0 = unknown
  int col = 0;       // 1-based
  bool valid() const { return line > 0; }
};

enum class ScalarKind { Bool, Char, UChar, Short, UShort, Int, UInt, Long, ULong, Half, BFloat, Float };
const char* scalar_name(ScalarKind k);  // Metal spelling: "uint", "bfloat", ...
bool is_float(ScalarKind k);            // Half, BFloat, Float
bool is_signed_int(ScalarKind k);
bool is_unsigned_int(ScalarKind k);
int scalar_size(ScalarKind k);  // bytes

enum class AddressSpace { Private, Device, Constant, Threadgroup };
const char* address_space_name(AddressSpace a);  // "thread", "device", ...

struct Type;
using TypePtr = std::shared_ptr<const Type>;

struct Type {
  enum class Kind {
    Void,
    Scalar,      // scalar
    Vector,      // scalar x count (2, 3, 4)
    Pointer,     // pointee (elem) in space; is_const = pointee is const
    Array,       // elem x count
    Struct,      // struct_index into Module::structs
    SimdMatrix,  // simdgroup_matrix<scalar, count, count> (8x8 only for now)
  };
  Kind kind = Kind::Void;
  ScalarKind scalar = ScalarKind::Float;
  int count = 0;
  TypePtr elem;
  AddressSpace space = AddressSpace::Private;
  bool is_const = false;
  int struct_index = -1;
  // Scalar only: Metal's atomic_<scalar> (atomic_int, atomic_uint,
  // atomic_float, atomic_bool), the scalar's size and alignment. Only the
  // atomic functions touch it.
  bool atomic = false;

  static Type void_type();
  static Type scalar_of(ScalarKind k);
  static Type vector_of(ScalarKind k, int n);
  static Type pointer_to(Type pointee, AddressSpace s, bool pointee_const);
  static Type array_of(Type elem, int n);
  static Type struct_of(int index);
  static Type atomic_of(ScalarKind k);

  bool is_scalar() const { return kind == Kind::Scalar; }
  bool is_scalar(ScalarKind s) const { return kind == Kind::Scalar && scalar == s; }
  bool is_vector() const { return kind == Kind::Vector; }
  bool is_pointer() const { return kind == Kind::Pointer; }
  bool is_array() const { return kind == Kind::Array; }
  bool is_struct() const { return kind == Kind::Struct; }
  bool is_bool() const { return kind == Kind::Scalar && scalar == ScalarKind::Bool; }
  bool operator==(const Type& o) const;
  bool operator!=(const Type& o) const { return !(*this == o); }
};

// ---------------------------------------------------------------- builtins --

// Metal's thread-geometry attributes (MSL spec, table "attributes for kernel
// function input arguments").
enum class BuiltinId {
  ThreadPositionInGrid,           // [[thread_position_in_grid]]
  ThreadPositionInThreadgroup,    // [[thread_position_in_threadgroup]]
  ThreadgroupPositionInGrid,      // [[threadgroup_position_in_grid]]
  ThreadsPerThreadgroup,          // [[threads_per_threadgroup]]
  ThreadsPerGrid,                 // [[threads_per_grid]]
  ThreadgroupsPerGrid,            // [[threadgroups_per_grid]]
  ThreadIndexInThreadgroup,       // [[thread_index_in_threadgroup]]
  ThreadIndexInSimdgroup,         // [[thread_index_in_simdgroup]]
  SimdgroupIndexInThreadgroup,    // [[simdgroup_index_in_threadgroup]]
  ThreadsPerSimdgroup,            // [[threads_per_simdgroup]]
  SimdgroupsPerThreadgroup,       // [[simdgroups_per_threadgroup]]
  DispatchThreadsPerThreadgroup,  // [[dispatch_threads_per_threadgroup]]
  GridOrigin,                     // [[grid_origin]]
  GridSize,                       // [[grid_size]]
  // Quad-groups are the 4-thread runs of a SIMD group. The front end turns
  // these two into thread_index_in_threadgroup / 4 and % 4; no IR uses them.
  QuadgroupIndexInThreadgroup,  // [[quadgroup_index_in_threadgroup]]
  ThreadIndexInQuadgroup,       // [[thread_index_in_quadgroup]]
};
const char* builtin_attr_name(BuiltinId b);  // "thread_position_in_grid"
std::optional<BuiltinId> builtin_from_attr(const std::string& attr);

// Per-threadgroup SIMD-group size; Apple GPUs have 32 lanes and the corpus
// relies on it (e.g. "8 simdgroups = 256 threads").
constexpr int kSimdWidth = 32;
// Metal's limits that the runtimes and diagnostics enforce.
constexpr int kMaxThreadsPerThreadgroup = 1024;
constexpr int kMaxThreadgroupMemoryBytes = 32 * 1024;
// How deep expressions and statements may nest in a kernel (a sum of N
// terms nests N deep, an else-if chain of N as deep). Every pass and backend
// walks the IR recursively, so the front end rejects deeper input with an
// error, and the translation runs on a stack sized for this depth
// (support/large_stack.h).
constexpr int kMaxNestingDepth = 10000;

enum class CollectiveOp {
  SimdSum,
  SimdProduct,
  SimdMax,
  SimdMin,
  SimdAnd,
  SimdOr,
  SimdXor,
  SimdPrefixInclusiveSum,
  SimdPrefixExclusiveSum,
  SimdBroadcast,       // (value, lane)
  SimdBroadcastFirst,  // (value)
  SimdShuffle,         // (value, lane)
  SimdShuffleDown,     // (value, delta)
  SimdShuffleUp,       // (value, delta)
  SimdShuffleXor,      // (value, mask)
  SimdAll,
  SimdAny,     // (bool)
  SimdBallot,  // (bool) -> simd_vote (as ulong)
  SimdPrefixInclusiveProduct,
  SimdPrefixExclusiveProduct,
  SimdShuffleRotateDown,
  SimdShuffleRotateUp,  // (value, delta), modulo the 32 lanes
  SimdIsFirst,          // () -> bool: the lowest active lane
  // (data, filling, delta[, modulo]): within runs of modulo lanes (32
  // without it), data from lane l + delta (l - delta), filling where that
  // falls past the run's end (before its start), taken modulo the run.
  SimdShuffleAndFillDown,
  SimdShuffleAndFillUp,
  SimdActiveThreadsMask,  // () -> simd_vote (as ulong): simd_ballot(true)
  // Over the 4-lane quads of a SIMD group (lanes 4q .. 4q + 3), with the
  // meaning of the simd_ form within the quad.
  QuadSum,
  QuadProduct,
  QuadMax,
  QuadMin,
  QuadAnd,
  QuadOr,
  QuadXor,
  QuadPrefixInclusiveSum,
  QuadPrefixExclusiveSum,
  QuadBroadcast,
  QuadShuffle,
  QuadShuffleDown,
  QuadShuffleUp,
  QuadShuffleXor,
  QuadAll,
  QuadAny,
  QuadPrefixInclusiveProduct,
  QuadPrefixExclusiveProduct,
  QuadBroadcastFirst,  // (value): the lowest active lane's of the quad
  QuadShuffleRotateDown,
  QuadShuffleRotateUp,  // (value, delta), modulo the 4 lanes
  QuadIsFirst,          // () -> bool: the lowest active lane of the quad
  QuadShuffleAndFillDown,
  QuadShuffleAndFillUp,   // as the simd_ forms, modulo 2 or 4
  QuadBallot,             // (bool) -> quad_vote (as uint): 4 bits
  QuadActiveThreadsMask,  // () -> quad_vote (as uint): quad_ballot(true)
};
const char* collective_name(CollectiveOp op);  // Metal spelling
std::optional<CollectiveOp> collective_from_name(const std::string& name);
// The row of ir/intrinsic_table.def for a collective.
Intrinsic collective_intrinsic(CollectiveOp op);

// simdgroup_matrix<T, 8, 8> operations (MSL 6.7): cooperative across the 32
// lanes of a SIMD group, so they are IR operations of their own. Operands
// (Metal's order, defaults filled in by the front end):
//   Load:  dest, src pointer, elements_per_row, origin (ulong2), transpose
//   Store: matrix, dst pointer, elements_per_row, origin (ulong2), transpose
//   Multiply: dest, a, b            MultiplyAccumulate: dest, a, b, c
//   Fill (make_filled_simdgroup_matrix): value; the expression's type is the matrix.
//   Diagonal (the constructor simdgroup_matrix<T, C, R>(T dval)): dval on the
//     diagonal, zero elsewhere (MSL 6.7.1); the expression's type is the matrix.
// A lane's own elements (thread_elements()) are no operation: the front end
// makes them `m[p]`, an Index of the tile by its pair index (see
// passes/simd_matrix_elements.h).
enum class SimdMatrixOpKind { Load, Store, Multiply, MultiplyAccumulate, Fill, Diagonal };
const char* simd_matrix_op_name(SimdMatrixOpKind op);  // Metal spelling
std::optional<SimdMatrixOpKind> simd_matrix_op_from_name(const std::string& name);

// ------------------------------------------------------------- expressions --

enum class UnaryOp { Neg, Plus, Not /* ! */, BitNot /* ~ */, PreInc, PreDec, PostInc, PostDec, Deref, AddrOf };
enum class BinaryOp {
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Shl,
  Shr,
  BitAnd,
  BitOr,
  BitXor,
  LogAnd,
  LogOr,
  Lt,
  Gt,
  Le,
  Ge,
  Eq,
  Ne,
  Comma
};
const char* unary_spelling(UnaryOp op);
const char* binary_spelling(BinaryOp op);

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  enum class Kind {
    IntLit,           // int_value (bit pattern, interpret by type)
    FloatLit,         // float_value; spelling keeps the source text for printing
    BoolLit,          // int_value 0/1
    VarRef,           // index -> Kernel::vars
    ParamRef,         // index -> Kernel::params (buffers, constants, builtins)
    TgAllocRef,       // index -> Kernel::tg_allocs (decays to its array type)
    GlobalConstRef,   // index -> Module::constants
    Unary,            // unary_op, args[0]
    Binary,           // binary_op, args[0], args[1]
    Assign,           // args[0] = args[1]; compound: assign_op set (e.g. Add for +=)
    Conditional,      // args[0] ? args[1] : args[2]
    Call,             // intrinsic (a row of ir/intrinsic_table.def; spelling its
                      // Metal name, e.g. "exp", "precise::exp"), args; or a call
                      // a backend's own step inserts (intrinsic None, spelling
                      // the callee)
    Cast,             // convert args[0] to type (value conversion, C rules)
    Bitcast,          // as_type<type>(args[0])
    Index,            // args[0][args[1]]; args[0] is a pointer or array
    Member,           // args[0].field (struct: member_index; through pointer if
                      // args[0] is a pointer: arrow = true)
    Swizzle,          // args[0].xyzw...; components = lane indices
    VectorConstruct,  // type(args...) e.g. float4(a, b, c, d)
    Collective,       // collective_op, args; mask (after passes)
    InitList,         // { args... } for arrays / structs
    SimdMatrixOp,     // matrix_op, args (see SimdMatrixOpKind); spelling = Metal name
    UserCall,         // index -> Module::functions, args (a reference parameter's
                      // argument is the lvalue itself, or a temporary the callee
                      // gets a copy of); passes::inline_functions
                      // replaces every one before the execution-model passes
  };
  Kind kind;
  Type type;
  SourceLoc loc;

  int64_t int_value = 0;
  double float_value = 0.0;
  std::string spelling;  // FloatLit source text, Call callee name
  int index = -1;        // VarRef/ParamRef/TgAllocRef/GlobalConstRef/Member/UserCall
  bool arrow = false;    // Member through pointer (p->f)
  UnaryOp unary_op = UnaryOp::Neg;
  BinaryOp binary_op = BinaryOp::Add;
  std::optional<BinaryOp> assign_op;  // for compound assignment
  CollectiveOp collective_op = CollectiveOp::SimdSum;
  SimdMatrixOpKind matrix_op = SimdMatrixOpKind::Load;
  Intrinsic intrinsic = Intrinsic::None;  // Call: the Metal function
  std::vector<int> components;            // Swizzle lanes
  std::vector<ExprPtr> args;
  // Collective only: the active-lane predicate, a per-thread bool
  // expression set by passes::predicate_sync (nullptr = all lanes that
  // have not returned are active).
  ExprPtr mask;

  ExprPtr clone() const;
};

// -------------------------------------------------------------- statements --

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

struct Stmt {
  enum class Kind {
    Block,     // body
    Decl,      // var (index into Kernel::vars), optional init (expr)
    ExprStmt,  // expr
    If,        // cond, body (then), else_body (may be empty Block or null)
    For,       // init (Stmt, may be null), cond (may be null), step (expr,
               // may be null), body
    While,     // cond, body
    DoWhile,   // body, cond
    Return,    // expr: the returned value (helper functions only)
    Break,
    Continue,
    Barrier,  // threadgroup_barrier / simdgroup_barrier
  };
  Kind kind;
  SourceLoc loc;

  std::vector<StmtPtr> stmts;  // Block
  int var = -1;                // Decl
  ExprPtr expr;                // Decl init, ExprStmt, If/For/While/DoWhile cond
  StmtPtr init;                // For
  ExprPtr step;                // For
  StmtPtr body;                // If then, loops body
  StmtPtr else_body;           // If else (nullptr if none)

  // Barrier
  bool simdgroup_scope = false;  // simdgroup_barrier vs threadgroup_barrier
  unsigned mem_flags = 0;        // bit 0 device, bit 1 threadgroup, bit 2 texture
  // Inserted by passes::insert_lockstep_barriers (not in the Metal source):
  // emulates SIMD-group lock-step, so it is no ordering point for the sanitizer.
  bool lockstep = false;

  // Block only: a note the printers emit as a comment at the block's start
  // (the helper function an inlined block comes from).
  std::string comment;

  StmtPtr clone() const;
};

// ------------------------------------------------------------- declarations --

struct Var {
  std::string name;  // unique within the kernel (front end renames shadowing)
  Type type;         // arrays for `float a[8];`
  bool is_const = false;
  SourceLoc loc;
  // The computed program-scope constant (index into Module::constants) this
  // local holds for its kernel (passes::compute_constants_in_kernels), or -1.
  int computes_constant = -1;
};

struct Param {
  enum class Kind {
    Buffer,             // device/constant pointer [[buffer(n)]]
    ConstantRef,        // constant T& [[buffer(n)]] (struct or scalar, by ref)
    ConstantValue,      // T by value in constant space, [[buffer(n)]] (rare)
    ThreadgroupMemory,  // threadgroup T* [[threadgroup(n)]] (dynamic size)
    Builtin,            // [[thread_position_in_grid]] ...
    // A function constant the host sets when it dispatches (one with no
    // value at translation that no is_function_constant_defined names):
    // read by value, like a ConstantRef; `index` is its
    // [[function_constant(index)]], `type` a scalar.
    FunctionConstant,
    // Helper functions only (Module::functions):
    Value,      // a parameter passed by value (pointers included)
    Reference,  // T& in `space`; `type` is the referenced type
  };
  Kind kind;
  std::string name;
  Type type;                    // pointer type for Buffer/ThreadgroupMemory; the
                                // referenced type for ConstantRef; scalar/vector for
                                // Builtin
  int index = -1;               // buffer / threadgroup index (explicit or implicit);
                                // FunctionConstant: the function constant's index
  bool implicit_index = false;  // no [[buffer(n)]] attribute in the source
  BuiltinId builtin = BuiltinId::ThreadPositionInGrid;
  AddressSpace space = AddressSpace::Private;  // Reference: the referent's space
  bool is_const = false;                       // Reference: `const T&`
  SourceLoc loc;
  // Buffer only: a pointer that the argument buffer bound at `index` holds,
  // this many bytes into it (passes/flatten_argument_buffers.h); -1 for a
  // buffer bound at `index` itself.
  int argument_buffer_offset = -1;
  // Buffer, ConstantRef, ConstantValue: declared [[function_constant(flag)]]
  // with a flag the host sets at dispatch: the name of that bool constant
  // (the kernel has its FunctionConstant parameter). The host binds the
  // buffer only where the flag is true, as Metal's parameter exists only
  // then; empty for a parameter that always exists.
  std::string present_if;
};

// A kernel parameter whose reads give one value for the whole dispatch: a
// `constant T&` buffer or a function constant the host sets.
inline bool is_dispatch_constant(const Param& p) {
  return p.kind == Param::Kind::ConstantRef || p.kind == Param::Kind::ConstantValue ||
         p.kind == Param::Kind::FunctionConstant;
}

// A `threadgroup T name[N];` declared inside the kernel body: Metal gives it
// static threadgroup storage shared by the whole threadgroup.
struct TgAlloc {
  std::string name;
  Type type;  // array type
  SourceLoc loc;
};

struct StructField {
  std::string name;
  Type type;
  int offset = 0;  // byte offset, Metal layout (natural alignment)
  // An anonymous union or struct member (`union { half2 dm; struct { half
  // d, m; }; };`): its fields are named as the enclosing struct's. The IR
  // names the member itself (anonN) and reaches its fields through it.
  bool anonymous = false;
};

// A struct or a union (every field at offset 0, the size of the largest).
struct StructDef {
  std::string name;
  std::vector<StructField> fields;
  int size = 0;
  int align = 1;
  SourceLoc loc;
  bool is_union = false;
};

// Program-scope `constant T name = value;` or a #define'd value folded by
// clang (those simply become literals).
struct GlobalConst {
  std::string name;
  Type type;
  ExprPtr init;  // constant-foldable expression (usually a literal); null when host_set
  SourceLoc loc;
  // A function constant the host sets at dispatch (Param::Kind::FunctionConstant):
  // its [[function_constant(index)]]. Kernels that read it, or a constant
  // computed from it, have a FunctionConstant parameter for it, and
  // passes::bind_function_constants makes their reads parameter reads.
  bool host_set = false;
  int function_constant_index = -1;
  // Its initializer calls a helper (a matrix or struct constructor): each
  // kernel that reads it computes it once at its start
  // (passes::compute_constants_in_kernels).
  bool computed = false;
};

struct Kernel {
  std::string name;
  SourceLoc loc;
  // [[max_total_threads_per_threadgroup(n)]]: launches with larger
  // threadgroups are refused; 0 = Metal's device limit only.
  int max_total_threads_per_threadgroup = 0;
  std::vector<Param> params;  // in source order
  std::vector<Var> vars;
  std::vector<TgAlloc> tg_allocs;
  StmtPtr body;  // a Block
};

// A helper function of the user's program (template instances included),
// as the front end built it. Its parameters are Param::Kind::Value or
// Reference, its body may `return` a value, and its calls are UserCall
// expressions; passes::inline_functions inlines every call into the kernels.
struct Function {
  Kernel def;                // name (unique in the module), params, vars, body
  Type return_type;          // Void for none
  std::string display_name;  // as the user writes it: "load<float, 4>"
};

struct Module {
  std::string source_path;  // as given
  std::vector<StructDef> structs;
  std::vector<GlobalConst> constants;
  std::vector<Function> functions;
  std::vector<Kernel> kernels;

  const Kernel* find_kernel(const std::string& name) const;
};

// Deep copies (backends lower their own copy of the module).
Kernel clone_kernel(const Kernel& k);
Module clone_module(const Module& m);

// Size and alignment in bytes with Metal's layout rules (3-component vectors
// are padded to 4, structs use natural alignment).
int type_size(const Module& m, const Type& t);
int type_align(const Module& m, const Type& t);
// Metal spelling of a type, for the IR printer and diagnostics.
std::string type_name(const Module& m, const Type& t);

// Removes the constants marked in `erase` (indexed as m.constants) and
// renumbers the reads of the others, in kernels, helpers and constants. No
// kept expression may read an erased constant.
void erase_constants(Module& m, const std::vector<bool>& erase);

// Convenience constructors used by the front end and passes.
ExprPtr make_int(Type t, int64_t v, SourceLoc loc = {});
ExprPtr make_bool(bool v, SourceLoc loc = {});
ExprPtr make_var_ref(const Kernel& k, int var, SourceLoc loc = {});
ExprPtr make_param_ref(const Kernel& k, int param, SourceLoc loc = {});
ExprPtr make_binary(BinaryOp op, Type t, ExprPtr a, ExprPtr b, SourceLoc loc = {});
ExprPtr make_unary(UnaryOp op, Type t, ExprPtr a, SourceLoc loc = {});
ExprPtr make_assign(ExprPtr lhs, ExprPtr rhs, SourceLoc loc = {});
StmtPtr make_block(std::vector<StmtPtr> stmts = {}, SourceLoc loc = {});
StmtPtr make_expr_stmt(ExprPtr e);
StmtPtr make_decl(int var, ExprPtr init, SourceLoc loc = {});
StmtPtr make_if(ExprPtr cond, StmtPtr then_body, StmtPtr else_body = nullptr, SourceLoc loc = {});
ExprPtr make_call(std::string callee, Type type, std::vector<ExprPtr> args, SourceLoc loc = {});
// A call of a Metal function (or of a shared pass's intrinsic): its row's
// name as the spelling.
ExprPtr make_intrinsic_call(Intrinsic id, Type type, std::vector<ExprPtr> args, SourceLoc loc = {});
ExprPtr make_cast(Type type, ExprPtr e);
// base[index] (base a pointer or vector) and &base[index] (base a pointer).
ExprPtr make_index(ExprPtr base, ExprPtr index, Type element);
ExprPtr make_address_of_element(ExprPtr pointer, ExprPtr index, Type element);
int add_var(Kernel& k, std::string name, Type t, SourceLoc loc = {}, bool is_const = false);
// `base`, or the first of base_1, base_2, ... that names no variable,
// parameter or threadgroup allocation of `k` (names stay unique within a
// kernel, so printers never need scoping).
std::string unique_name(const Kernel& k, const std::string& base);
// `base`, or the first of base_2, base_3, ... that names no struct of `m`.
std::string unique_struct_name(const Module& m, const std::string& base);

// The same expression tree (kinds, types, operands, literals), so the same
// value where both are pure.
bool same_expr(const Expr& a, const Expr& b);

// For an index `v`, `U + v` or `v + U` (uint addition) with v the variable
// `var`: U, or nullptr for `v` alone; nullopt for any other index.
std::optional<const Expr*> offset_from_var(const Expr& index, int var);

// A readable name for a value computed from `e`: `prefix` and the name of
// the first variable or parameter `e` reads ("mslport_div_group_size").
std::string name_after_operand(const Kernel& k, const Expr& e, const std::string& prefix);

// ++ and -- (pre or post): the unary operators that write their operand.
bool is_increment(UnaryOp op);
// An assignment (plain or compound) or ++/--: writes args[0].
bool writes_operand(const Expr& e);
// For an assignment or ++/-- expression: the variable it writes (a store to
// an element or field of a private variable writes that variable), or -1
// when it writes memory through a pointer or is not a write at all.
int written_variable(const Expr& e);
// For `&x`, `&x[i]`, `&x.f`: x, whose value a pointer may then change;
// -1 for anything else.
int address_taken_variable(const Expr& e);
// For an expression that names an object (a variable, a parameter, a
// threadgroup allocation, a program constant, or an element or member of
// one, or what a pointer points to): calls `value` on each value inside it
// that picks which object it is (an index, a pointer it is reached
// through), the object's own path left as it is. False for an expression of
// another form (a call, a conditional). A C++ reference binds its object
// once, so whoever binds one (a reference local, a range-based for's range,
// a reference-to-array argument) evaluates those values once.
bool for_each_object_selector(ExprPtr& e, const std::function<void(ExprPtr&)>& value);
// The variables `s` assigns, increments or declares (a declaration in a
// loop body gives its variable a new value each iteration). Writes through
// pointers are not seen: see address_taken_variable.
std::set<int> vars_written(const Stmt& s);
// The variables `s` assigns, increments or takes the address of: those
// whose value may change after their declaration.
std::set<int> vars_assigned(const Stmt& s);
// The parameters `f`'s body assigns, increments, takes the address of, or
// passes to a helper's reference parameter (writing through a pointer
// parameter, `p[i] = x`, does not write p).
std::set<int> params_written(const Kernel& f);

// A copy of `body` whose declarations declare new variables (names stay
// unique in the kernel, and the uniformity of a variable is one fact for
// all its declarations), with `remap` already holding the variables to
// rename that the body does not declare.
StmtPtr clone_with_fresh_vars(Kernel& k, const Stmt& body, std::map<int, int> remap);

// Generic traversal helpers (pre-order). Return false from the callback to
// stop descending into that node's children.
void walk_exprs(const Expr& e, const std::function<bool(const Expr&)>& f);
void walk_stmts(const Stmt& s, const std::function<bool(const Stmt&)>& f);
// Visits every expression directly or indirectly owned by the statement tree.
void walk_stmt_exprs(const Stmt& s, const std::function<bool(const Expr&)>& f);
void walk_exprs_mut(Expr& e, const std::function<bool(Expr&)>& f);
void walk_stmts_mut(Stmt& s, const std::function<bool(Stmt&)>& f);

}  // namespace mslport::ir
