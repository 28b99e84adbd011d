// Unions and anonymous members (front/types.cc, FunctionBuilder::member),
// and default member initializers beside array fields.
#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "ir/printer.h"
#include "test_support.h"

namespace mslport::front {
namespace {

using testing::init_of;

struct Parsed {
  std::optional<ir::Module> m;
  DiagEngine d;
  const ir::StructDef* find(const std::string& name) const {
    for (auto& s : m->structs)
      if (s.name == name) return &s;
    return nullptr;
  }
};

std::unique_ptr<Parsed> parse(const std::string& name, const std::string& body) {
  auto p = std::make_unique<Parsed>();
  p->m = parse_metal_file(testing::write_temp_file(name, "#include <metal_stdlib>\nusing namespace metal;\n" + body),
                          p->d);
  return p;
}

#define ASSERT_PARSED(p) \
  ASSERT_TRUE((p)->m) << ((p)->d.diagnostics().empty() ? "" : DiagEngine::render((p)->d.diagnostics().front()))

const char* kBlock = R"(
typedef struct {
  union {
    struct { half d; half m; };
    half2 dm;
  };
  uchar qs[6];
} block;
typedef union { uint u; float f; uchar b[4]; } bits;
)";

TEST(Unions, EveryMemberAtOffsetZeroAndTheSizeOfTheLargest) {
  auto p = parse("union_layout.metal", std::string(kBlock) + R"(
kernel void k(device const block* x [[buffer(0)]], device float* o [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  bits v;
  v.u = x[i].qs[0];
  o[i] = v.f;
}
)");
  ASSERT_PARSED(p);
  const ir::StructDef* bits = p->find("bits");
  ASSERT_NE(bits, nullptr);
  EXPECT_TRUE(bits->is_union);
  EXPECT_EQ(bits->size, 4);
  EXPECT_EQ(bits->align, 4);
  for (auto& f : bits->fields) EXPECT_EQ(f.offset, 0) << f.name;
  const ir::StructDef* block = p->find("block");
  ASSERT_NE(block, nullptr);
  EXPECT_FALSE(block->is_union);
  ASSERT_EQ(block->fields.size(), 2u);
  EXPECT_TRUE(block->fields[0].anonymous);
  EXPECT_EQ(block->fields[1].name, "qs");
  EXPECT_EQ(block->fields[1].offset, 4);
  EXPECT_EQ(block->size, 12);  // half2 aligns the union, and so the struct, to 4
  ASSERT_TRUE(block->fields[0].type.is_struct());
  const ir::StructDef& inner = p->m->structs[block->fields[0].type.struct_index];
  EXPECT_TRUE(inner.is_union);
  EXPECT_EQ(inner.size, 4);
}

// b.d is b.<anonymous union>.<anonymous struct>.d: one Member per step.
TEST(Unions, FieldsOfAnonymousMembersAreReachedThroughThem) {
  auto p = parse("union_members.metal", std::string(kBlock) + R"(
kernel void k(device const block* x [[buffer(0)]], device float* o [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  float d = x[i].d;
  float m = x[i].m;
  half2 dm = x[i].dm;
  o[i] = d + m + float(dm.x);
}
)");
  ASSERT_PARSED(p);
  EXPECT_EQ(init_of(*p->m, "d"), "cast<float>(x[i].anon0.anon0.d)");
  EXPECT_EQ(init_of(*p->m, "m"), "cast<float>(x[i].anon0.anon0.m)");
  EXPECT_EQ(init_of(*p->m, "dm"), "x[i].anon0.dm");
}

// `uchar b[2]`'s bound is an expression child of the field, as a default
// member initializer is: only the latter initialises.
TEST(Unions, AnArrayBoundIsNoDefaultMemberInitializer) {
  auto p = parse("array_bound.metal", R"(
struct pair { float v[2]; float bias = 0.5f; };
kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  pair p;
  p.v[0] = 1.0f;
  o[i] = p.v[0] + p.bias;
}
)");
  ASSERT_PARSED(p);
  std::string printed = ir::print_module(*p->m);
  EXPECT_NE(printed.find("self.bias = 0.5f"), std::string::npos) << printed;
  EXPECT_EQ(printed.find("self.v = "), std::string::npos) << printed;
}

// A constructor's member initializers and the default member initializers
// of fields declared in anonymous members reach those fields through the
// anonymous members, as a member access does.
TEST(Unions, ConstructorsInitialiseFieldsOfAnonymousMembers) {
  auto p = parse("ctor_anonymous.metal", R"(
struct cell {
  union { float f; uint u; };
  struct { float lo = 0.25f; float hi; };
  float g = 2.0f;
  cell(float x) : f(x), hi(x + 1.0f) {}
  cell(uint x, float y) { u = x; g = y; }
};
kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  cell a(1.5f);
  cell b(i, 3.0f);
  o[i] = a.f + a.lo + a.hi + a.g + b.g + float(b.u) + b.lo;
}
)");
  ASSERT_PARSED(p);
  std::string printed = ir::print_module(*p->m);
  EXPECT_HAS(printed, "self.anon0.f = x");
  EXPECT_HAS(printed, "self.anon1.hi = x + 1.0f");
  EXPECT_HAS(printed, "self.anon1.lo = 0.25f");  // default, in both constructors
  EXPECT_HAS(printed, "self.g = 2.0f");
  EXPECT_HAS(printed, "self.anon0.u = x");
}

}  // namespace
}  // namespace mslport::front
