#include "ir/analysis/constant_value.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace mslport;
using namespace mslport::ir;

namespace {

Type scalar(ScalarKind k) { return Type::scalar_of(k); }

ExprPtr vec(ScalarKind k, std::vector<ExprPtr> lanes) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::VectorConstruct;
  e->type = Type::vector_of(k, (int)lanes.size());
  for (auto& l : lanes) e->args.push_back(std::move(l));
  return e;
}

ExprPtr global(const Module& m, int i) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::GlobalConstRef;
  e->type = m.constants.at(i).type;
  e->index = i;
  return e;
}

ExprPtr lane(ExprPtr v, int i) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::Swizzle;
  e->type = Type::scalar_of(v->type.scalar);
  e->components = {i};
  e->args.push_back(std::move(v));
  return e;
}

ExprPtr f32(double v) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::FloatLit;
  e->type = scalar(ScalarKind::Float);
  e->float_value = v;
  return e;
}

// constant uint3 size = uint3(4, 20, 1);
Module module_with_size() {
  Module m;
  std::vector<ExprPtr> lanes;
  for (int v : {4, 20, 1}) lanes.push_back(make_int(scalar(ScalarKind::UInt), v));
  m.constants.push_back(
      GlobalConst{"size", Type::vector_of(ScalarKind::UInt, 3), vec(ScalarKind::UInt, std::move(lanes)), {}});
  return m;
}

}  // namespace

TEST(ConstantValue, ReadsALaneOfAConstantVector) {
  Module m = module_with_size();
  const Type u = scalar(ScalarKind::UInt);
  // size.x * size.y + size.z
  auto e = make_binary(BinaryOp::Add, u, make_binary(BinaryOp::Mul, u, lane(global(m, 0), 0), lane(global(m, 0), 1)),
                       lane(global(m, 0), 2));
  auto v = analysis::constant_scalar(m, *e);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->kind, Expr::Kind::IntLit);
  EXPECT_EQ(v->int_value, 81);
}

TEST(ConstantValue, IntegersWrapToTheirType) {
  Module m;
  const Type u = scalar(ScalarKind::UInt);
  auto v = analysis::constant_scalar(m, *make_binary(BinaryOp::Sub, u, make_int(u, 1), make_int(u, 2)));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->int_value, 4294967295);
  auto c = analysis::constant_scalar(m, *make_cast(scalar(ScalarKind::Char), make_int(scalar(ScalarKind::Int), 200)));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->int_value, -56);
  auto s = analysis::constant_scalar(
      m, *make_binary(BinaryOp::Shr, scalar(ScalarKind::Int), make_int(scalar(ScalarKind::Int), -16),
                      make_int(scalar(ScalarKind::Int), 2)));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->int_value, -4);
}

TEST(ConstantValue, FloatsRoundToFloat) {
  Module m;
  const Type f = scalar(ScalarKind::Float);
  auto v = analysis::constant_scalar(m, *make_binary(BinaryOp::Div, f, f32(1.0), f32(3.0)));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->kind, Expr::Kind::FloatLit);
  EXPECT_EQ(v->float_value, double(1.0f / 3.0f));
  // A uint above 2^31 converts by value.
  auto w = analysis::constant_scalar(m, *make_cast(f, make_int(scalar(ScalarKind::UInt), 3000000000LL)));
  ASSERT_TRUE(w);
  EXPECT_EQ(w->float_value, 3e9);
}

TEST(ConstantValue, NothingThatVariesOrIsUndefined) {
  Module m;
  Kernel k;
  k.params.push_back(Param{});
  k.params[0].name = "n";
  k.params[0].type = scalar(ScalarKind::Int);
  const Type i = scalar(ScalarKind::Int);
  EXPECT_FALSE(analysis::constant_scalar(m, *make_binary(BinaryOp::Add, i, make_param_ref(k, 0), make_int(i, 1))));
  EXPECT_FALSE(analysis::constant_scalar(m, *make_binary(BinaryOp::Div, i, make_int(i, 1), make_int(i, 0))));
  EXPECT_FALSE(analysis::constant_scalar(m, *make_binary(BinaryOp::Shl, i, make_int(i, 1), make_int(i, 40))));
  // half and bfloat round as the targets do: not folded here.
  EXPECT_FALSE(analysis::constant_scalar(m, *make_cast(scalar(ScalarKind::Half), f32(0.1))));
}
