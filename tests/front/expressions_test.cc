// Expressions: casts (explicit and implicit), swizzles, member access,
// builtins, collectives, literals, vector constructors, helper inlining.
#include <gtest/gtest.h>

#include <cmath>

#include "front/parse_metal.h"
#include "ir/printer.h"
#include "test_support.h"

namespace mslport::front {
namespace {

using testing::init_of;

struct Parsed {
  std::optional<ir::Module> m;
  DiagEngine d;
  const ir::Kernel& k() const { return m->kernels.at(0); }
  const ir::Expr* init_expr(const std::string& var) const {
    const ir::Expr* out = nullptr;
    ir::walk_stmts(*k().body, [&](const ir::Stmt& s) {
      if (s.kind == ir::Stmt::Kind::Decl && k().vars[s.var].name == var) out = s.expr.get();
      return true;
    });
    return out;
  }
};

std::unique_ptr<Parsed> parse(const std::string& name, const std::string& body) {
  auto p = std::make_unique<Parsed>();
  std::string src = "#include <metal_stdlib>\nusing namespace metal;\n" + body;
  p->m = parse_metal_file(testing::write_temp_file(name, src), p->d);
  return p;
}

#define ASSERT_PARSED(p) \
  ASSERT_TRUE((p)->m) << ((p)->d.diagnostics().empty() ? "" : DiagEngine::render((p)->d.diagnostics().front()))

TEST(Expressions, CastsAndSwizzles) {
  auto p = parse("casts.metal", R"(
struct Params { int n; float eps; };
struct Pt { float x; float y; };
#define ID(v) v
kernel void k(device const bfloat* in [[buffer(0)]],
              device Pt* pts [[buffer(1)]],
              constant Params& prm [[buffer(2)]],
              uint3 tgpig [[threadgroup_position_in_grid]],
              uint tid [[thread_index_in_threadgroup]]) {
  uint a = tgpig.x;
  uint2 b = tgpig.xy;
  uint2 c = tgpig.zy;
  uint2 d = ID(b.yx);
  float e = float(tid);
  float f = static_cast<float>(in[tid]);
  uint g = uint(prm.n);
  float h = (float)prm.n + prm.eps;
  float i = pts->x + pts[1].y;
  int j = tid;
  float2 v = float2(1.0f, 2.0f);
  float2 w = v.yx;
  float4 x = float4(v, 0.0f, 1);
  float4 y = float4(3.0f);
  uint z = as_type<uint>(e);
  float q = 0.5;
  pts[0].x = q + a + b.x + c.y + d.x + f + g + h + i + j + w.x + x.y + y.z + z;
}
)");
  ASSERT_PARSED(p);
  EXPECT_EQ(init_of(*p->m, "a"), "tgpig.x");
  EXPECT_EQ(init_of(*p->m, "b"), "tgpig.xy");
  EXPECT_EQ(init_of(*p->m, "c"), "tgpig.zy");
  EXPECT_EQ(init_of(*p->m, "d"), "b.yx");  // swizzle through a macro argument
  EXPECT_EQ(init_of(*p->m, "e"), "cast<float>(tid)");
  EXPECT_EQ(init_of(*p->m, "f"), "cast<float>(in[tid])");
  EXPECT_EQ(init_of(*p->m, "g"), "cast<uint>(prm.n)");
  EXPECT_EQ(init_of(*p->m, "h"), "cast<float>(prm.n) + prm.eps");
  EXPECT_EQ(init_of(*p->m, "i"), "pts->x + pts[1].y");
  EXPECT_EQ(init_of(*p->m, "j"), "cast<int>(tid)");
  EXPECT_EQ(init_of(*p->m, "v"), "float2(1.0f, 2.0f)");
  EXPECT_EQ(init_of(*p->m, "w"), "v.yx");
  EXPECT_EQ(init_of(*p->m, "x"), "float4(v, 0.0f, 1.0f)");
  EXPECT_EQ(init_of(*p->m, "y"), "cast<float4>(3.0f)");  // splat
  EXPECT_EQ(init_of(*p->m, "z"), "as_type<uint>(e)");
  EXPECT_EQ(init_of(*p->m, "q"), "0.5f");  // Metal has no double

  const ir::Expr* a = p->init_expr("a");
  ASSERT_EQ(a->kind, ir::Expr::Kind::Swizzle);
  EXPECT_EQ(a->components, std::vector<int>{0});
  EXPECT_EQ(a->args[0]->kind, ir::Expr::Kind::ParamRef);
  EXPECT_EQ(ir::type_name(*p->m, a->type), "uint");
  const ir::Expr* c = p->init_expr("c");
  EXPECT_EQ(c->components, (std::vector<int>{2, 1}));
  const ir::Expr* g = p->init_expr("g");
  ASSERT_EQ(g->kind, ir::Expr::Kind::Cast);
  ASSERT_EQ(g->args[0]->kind, ir::Expr::Kind::Member);
  EXPECT_FALSE(g->args[0]->arrow);
  EXPECT_EQ(g->args[0]->index, 0);
  EXPECT_EQ(g->args[0]->args[0]->kind, ir::Expr::Kind::ParamRef);
  EXPECT_EQ(g->loc.line, 18);
  EXPECT_EQ(g->loc.col, 12);
  const ir::Expr* i = p->init_expr("i");
  EXPECT_TRUE(i->args[0]->arrow);
  EXPECT_EQ(i->args[0]->index, 0);
  EXPECT_EQ(i->args[1]->index, 1);
  const ir::Expr* x = p->init_expr("x");
  ASSERT_EQ(x->kind, ir::Expr::Kind::VectorConstruct);
  EXPECT_EQ(x->args.size(), 3u);
  EXPECT_EQ(x->args[2]->kind, ir::Expr::Kind::FloatLit);  // int 1 -> float, folded
}

// reinterpret_cast: the C-style pointer cast between pointers, `*(T*)&x`
// to a reference, as_type between values of one size.
TEST(Expressions, ReinterpretCasts) {
  auto p = parse("reinterpret.metal", R"(
kernel void k(device const float* in [[buffer(0)]], device float4* o [[buffer(1)]],
              threadgroup half* sh [[threadgroup(0)]], uint i [[thread_position_in_grid]]) {
  device const float4* a = reinterpret_cast<device const float4*>(in);
  threadgroup half4* b = reinterpret_cast<threadgroup half4*>(sh);
  const float4 v = a[i];
  uint4 c = reinterpret_cast<uint4>(v);
  reinterpret_cast<device uint4&>(o[i]).x = c.y;
}
)");
  ASSERT_PARSED(p);
  EXPECT_EQ(init_of(*p->m, "a"), "cast<device const float4*>(in)");
  EXPECT_EQ(init_of(*p->m, "b"), "cast<threadgroup half4*>(sh)");
  EXPECT_EQ(init_of(*p->m, "c"), "as_type<uint4>(v)");
  EXPECT_EQ(p->init_expr("a")->kind, ir::Expr::Kind::Cast);
}

TEST(Expressions, ReinterpretCastOfAPointerToAnIntegerIsRefused) {
  auto p = parse("reinterpret_int.metal", R"(
kernel void k(device const float* in [[buffer(0)]], device ulong* o [[buffer(1)]]) {
  o[0] = reinterpret_cast<ulong>(in);
}
)");
  EXPECT_FALSE(p->m);
  ASSERT_FALSE(p->d.diagnostics().empty());
  EXPECT_NE(DiagEngine::render(p->d.diagnostics().front()).find("reinterpret_cast between a pointer and 'ulong'"),
            std::string::npos)
      << DiagEngine::render(p->d.diagnostics().front());
}

// simd_vote / quad_vote are their vote_t in the IR; all() and any() test
// the bits of the group's lanes (MSL 6.9.2, 6.9.3).
TEST(Expressions, VoteMembers) {
  auto p = parse("votes.metal", R"(
kernel void k(device const uint* in [[buffer(0)]], device ulong* o [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  const simd_vote v = simd_ballot(in[i] != 0);
  bool a = v.all();
  bool b = quad_ballot(in[i] > 2).any();
  ulong c = static_cast<ulong>(v);
  uint d = uint(quad_vote(0x1Fu));
  o[i] = c + (a ? 1 : 0) + (b ? 2 : 0) + d;
}
)");
  ASSERT_PARSED(p);
  EXPECT_EQ(ir::type_name(*p->m, p->k().vars[0].type), "ulong");
  EXPECT_EQ(init_of(*p->m, "a"), "(v & 4294967295ul) == 4294967295ul");
  EXPECT_EQ(init_of(*p->m, "b"), "(quad_ballot(in[i] > 2u) & 15u) != 0u");
  EXPECT_EQ(init_of(*p->m, "c"), "cast<ulong>(v)");         // the conversion is the value
  EXPECT_EQ(init_of(*p->m, "d"), "cast<uint>(31u & 15u)");  // the constructor keeps 4 bits
}

TEST(Expressions, VotesConvertOnlyExplicitlyToTheirVoteType) {
  // Metal's conversion to vote_t is explicit: a vote is no integer.
  auto p = parse("vote_implicit.metal", R"(
kernel void k(device const uint* in [[buffer(0)]], device uint* o [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  o[i] = quad_ballot(in[i] != 0);
}
)");
  EXPECT_FALSE(p->m);
}

TEST(Expressions, BuiltinsCollectivesAndLiterals) {
  auto p = parse("builtins.metal", R"(
#define EPS 1e-6f
kernel void k(device float* o [[buffer(0)]],
              uint lane [[thread_index_in_simdgroup]]) {
  float x = o[lane];
  float a = exp(x) + precise::exp(x) + fast::exp(x) + metal::exp2(x);
  float b = rsqrt(x + EPS) * fma(x, x, 1.0f) + max(x, 0.0f) + metal::precise::log(x);
  float c = simd_sum(x);
  float d = simd_max(x) + simd_shuffle_down(x, 1) + simd_broadcast(x, 0);
  bool e = simd_any(x > 0.0f) && simd_all(true);
  float f = -INFINITY;
  float g = INFINITY;
  float h = FLT_MAX;
  bool t = false;
  uint big = 4000000000u;
  o[lane] = a + b + c + d + f + g + h + (e ? 1.0f : 0.0f) + (t ? 1 : 2) + big;
}
)");
  ASSERT_PARSED(p);
  EXPECT_EQ(init_of(*p->m, "a"), "((exp(x) + precise::exp(x)) + exp(x)) + exp2(x)");
  EXPECT_EQ(init_of(*p->m, "b"), "((rsqrt(x + 1e-06f) * fma(x, x, 1.0f)) + max(x, 0.0f)) + precise::log(x)");
  EXPECT_EQ(init_of(*p->m, "c"), "simd_sum(x)");
  EXPECT_EQ(init_of(*p->m, "d"), "(simd_max(x) + simd_shuffle_down(x, 1:ushort)) + simd_broadcast(x, 0:ushort)");
  EXPECT_EQ(init_of(*p->m, "e"), "simd_any(x > 0.0f) && simd_all(true)");
  EXPECT_EQ(init_of(*p->m, "f"), "-INFINITY");
  EXPECT_EQ(init_of(*p->m, "big"), "4000000000u");

  const ir::Expr* c = p->init_expr("c");
  ASSERT_EQ(c->kind, ir::Expr::Kind::Collective);
  EXPECT_EQ(c->collective_op, ir::CollectiveOp::SimdSum);
  EXPECT_EQ(c->mask, nullptr);
  const ir::Expr* f = p->init_expr("f");
  ASSERT_EQ(f->kind, ir::Expr::Kind::Unary);  // -INFINITY = Neg(FloatLit +inf)
  EXPECT_EQ(f->unary_op, ir::UnaryOp::Neg);
  ASSERT_EQ(f->args[0]->kind, ir::Expr::Kind::FloatLit);
  EXPECT_TRUE(std::isinf(f->args[0]->float_value) && f->args[0]->float_value > 0);
  const ir::Expr* g = p->init_expr("g");
  ASSERT_EQ(g->kind, ir::Expr::Kind::FloatLit);
  EXPECT_EQ(g->spelling, "INFINITY");
  EXPECT_EQ(g->loc.line, 14);
  EXPECT_EQ(g->loc.col, 13);
  const ir::Expr* h = p->init_expr("h");
  ASSERT_EQ(h->kind, ir::Expr::Kind::FloatLit);
  EXPECT_EQ((float)h->float_value, 3.40282347e+38f);
  const ir::Expr* t = p->init_expr("t");
  ASSERT_EQ(t->kind, ir::Expr::Kind::BoolLit);
  EXPECT_EQ(t->int_value, 0);
  const ir::Expr* b = p->init_expr("b");
  // The #define'd literal points at the macro use.
  const ir::Expr* eps = b->args[0]->args[0]->args[0]->args[0]->args[1].get();
  ASSERT_EQ(eps->kind, ir::Expr::Kind::FloatLit);
  EXPECT_EQ(eps->loc.line, 9);
  EXPECT_EQ(eps->loc.col, 23);
}

TEST(Expressions, OperatorsAndAssignments) {
  auto p = parse("ops.metal", R"(
kernel void k(device uint* o [[buffer(0)]], uint tid [[thread_position_in_grid]]) {
  uint a = tid;
  a += 3; a -= 1; a *= 2; a /= 2; a %= 7; a <<= 1; a >>= 1; a &= 0xff; a |= 1; a ^= 2;
  uint b = a++ + ++a - a-- - --a;
  uint c = ~a & (a | b) ^ (a << 2) >> 1;
  bool d = !(a < b) || (a >= b && a != b) || a == b || a <= b || a > b;
  int e = -int(a) + +int(b) % 3;
  uint f = d ? a : b;
  device uint* g = o + 1;
  uint h = *g + g[0];
  o[tid] = a + b + c + e + f + h;
}
)");
  ASSERT_PARSED(p);
  std::vector<std::string> stmts;
  for (auto& s : p->k().body->stmts)
    if (s->kind == ir::Stmt::Kind::ExprStmt) stmts.push_back(ir::print_expr(*p->m, p->k(), *s->expr));
  ASSERT_GE(stmts.size(), 10u);
  EXPECT_EQ(stmts[0], "a += 3u");
  EXPECT_EQ(stmts[5], "a <<= 1");
  EXPECT_EQ(stmts[7], "a &= 255u");
  EXPECT_EQ(init_of(*p->m, "b"), "((a++ + ++a) - a--) - --a");
  EXPECT_EQ(init_of(*p->m, "c"), "(~a & (a | b)) ^ ((a << 2) >> 1)");
  EXPECT_EQ(init_of(*p->m, "e"), "-cast<int>(a) + (+cast<int>(b) % 3)");
  EXPECT_EQ(init_of(*p->m, "f"), "d ? a : b");
  EXPECT_EQ(init_of(*p->m, "g"), "o + 1");
  EXPECT_EQ(init_of(*p->m, "h"), "*g + g[0]");
  const ir::Expr* first = p->k().body->stmts[1]->expr.get();
  ASSERT_EQ(first->kind, ir::Expr::Kind::Assign);
  ASSERT_TRUE(first->assign_op.has_value());
  EXPECT_EQ(*first->assign_op, ir::BinaryOp::Add);
}

TEST(Expressions, HelperFunctionInlining) {
  auto p = parse("inline.metal", R"(
inline float bf16_to_f32(ushort v) { return as_type<float>(uint(v) << 16); }
inline float sq(float x) { return x * x; }
kernel void k(device const ushort* in [[buffer(0)]], device float* o [[buffer(1)]],
              uint tid [[thread_position_in_grid]]) {
  float a = bf16_to_f32(in[tid]);
  float b = sq(a + 1.0f);
  o[tid] = a + b;
}
)");
  ASSERT_PARSED(p);
  EXPECT_EQ(init_of(*p->m, "a"), "as_type<float>(cast<uint>(in[tid]) << 16)");
  EXPECT_EQ(init_of(*p->m, "b"), "(a + 1.0f) * (a + 1.0f)");
}

TEST(Expressions, SimdgroupMatrixCalls) {
  auto p = parse("matrix.metal", R"(
kernel void k(device float* o [[buffer(0)]], threadgroup float* t [[threadgroup(0)]]) {
  simdgroup_matrix<float, 8, 8> acc;
  simdgroup_float8x8 a, b;
  simdgroup_load(a, t, 8);
  simdgroup_load(b, &t[64], 16, ulong2(0, 0), true);
  simdgroup_multiply(acc, a, b);
  simdgroup_multiply_accumulate(acc, a, b, acc);
  simdgroup_store(acc, o);
}
)");
  ASSERT_PARSED(p);
  std::vector<std::string> calls;
  for (auto& s : p->k().body->stmts)
    if (s->kind == ir::Stmt::Kind::ExprStmt) calls.push_back(ir::print_expr(*p->m, p->k(), *s->expr));
  EXPECT_EQ(calls, (std::vector<std::string>{
                       "simdgroup_load(a, t, 8ul, ulong2(0ul, 0ul), false)",
                       "simdgroup_load(b, &t[64], 16ul, ulong2(0ul, 0ul), true)",
                       "simdgroup_multiply(acc, a, b)",
                       "simdgroup_multiply_accumulate(acc, a, b, acc)",
                       "simdgroup_store(acc, o, 8ul, ulong2(0ul, 0ul), false)",
                   }));
  EXPECT_EQ(ir::type_name(*p->m, p->k().vars[0].type), "simdgroup_matrix<float, 8, 8>");
  EXPECT_EQ(p->k().vars[0].type.kind, ir::Type::Kind::SimdMatrix);
}

// m.thread_elements() is the tile subscripted by the lane's pair (a vec<T, 2>
// lvalue; the shared pass thread_elements gives the lane map), and
// simdgroup_matrix<T, C, R>(T) the diagonal constructor.
TEST(Expressions, SimdgroupMatrixThreadElementsAndDiagonal) {
  auto p = parse("elements.metal", R"(
kernel void k(device half* o [[buffer(0)]]) {
  simdgroup_half8x8 d = simdgroup_half8x8(1);
  simdgroup_half8x8 e(0.5h);
  half2 v = d.thread_elements();
  e.thread_elements()[1] = v.x;
  simdgroup_store(e, o);
}
)");
  ASSERT_PARSED(p);
  EXPECT_EQ(init_of(*p->m, "d"), "simdgroup_matrix(cast<half>(1))");
  EXPECT_EQ(init_of(*p->m, "e"), "simdgroup_matrix(0.5h)");
  EXPECT_EQ(init_of(*p->m, "v"), "d[thread_elements()]");
  std::string printed = ir::print_kernel(*p->m, p->k());
  EXPECT_NE(printed.find("e[thread_elements()][1] = v.x"), std::string::npos) << printed;
}

TEST(Expressions, VectorConversionsStructCopiesAndOpenCLKeywordsAsNames) {
  auto p = parse("misc.metal", R"(
struct S { float a; uint b; };
kernel void k(device half4* h [[buffer(0)]], device S* out [[buffer(1)]],
              uint2 gid [[thread_position_in_grid]]) {
  half4 v = h[0];
  float4 f = float4(v);
  float3 g = float3(f.xy, 1);
  S local;
  local.a = f.x;
  local.b = gid.y;
  out[gid.x] = local;
  int global = 2, m2[2][3] = {{1, 2, 3}, {4, 5, 6}};
  for (int i = 0, j = 1; i < 3; i++, j++) global += m2[1][i] * j;
  h[1] = half4(f.x, global, half(g.z), 0);
}
)");
  ASSERT_PARSED(p);
  EXPECT_EQ(init_of(*p->m, "f"), "cast<float4>(v)");
  EXPECT_EQ(init_of(*p->m, "g"), "float3(f.xy, 1.0f)");
  EXPECT_EQ(init_of(*p->m, "m2"), "{{1, 2, 3}, {4, 5, 6}}");
  std::string printed = ir::print_kernel(*p->m, p->k());
  EXPECT_NE(printed.find("    %local: S\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find("    out[gid.x] = local\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find("    %global: int = 2\n    %m2: int[2][3] = "), std::string::npos) << printed;
  EXPECT_NE(printed.find("i++, j++"), std::string::npos) << printed;
  EXPECT_NE(printed.find("h[1] = half4(cast<half>(f.x), cast<half>(global), cast<half>(g.z), cast<half>(0))"),
            std::string::npos)
      << printed;
}

}  // namespace
}  // namespace mslport::front
