// Struct layouts against the sizes and alignments the Metal Shading Language
// specification lists for its types (chapter 2: scalars, vectors, packed
// vectors, matrices), and the layout rules for structs: alignas on a field
// and on a struct, runtime-sized trailing arrays.
#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "front/snippet.h"
#include "test_support.h"

namespace mslport::front {
namespace {

struct Expected {
  const char* type;
  int size;
  int align;
};

// MSL specification, tables of scalar, vector, packed vector and matrix
// sizes and alignments.
const Expected kSpec[] = {
    {"bool", 1, 1},           {"char", 1, 1},          {"uchar", 1, 1},          {"short", 2, 2},
    {"ushort", 2, 2},         {"int", 4, 4},           {"uint", 4, 4},           {"long", 8, 8},
    {"ulong", 8, 8},          {"half", 2, 2},          {"bfloat", 2, 2},         {"float", 4, 4},
    {"char2", 2, 2},          {"char3", 4, 4},         {"char4", 4, 4},          {"uchar3", 4, 4},
    {"short2", 4, 4},         {"short3", 8, 8},        {"short4", 8, 8},         {"ushort3", 8, 8},
    {"int2", 8, 8},           {"int3", 16, 16},        {"int4", 16, 16},         {"uint3", 16, 16},
    {"long2", 16, 16},        {"long3", 32, 32},       {"long4", 32, 32},        {"ulong3", 32, 32},
    {"half2", 4, 4},          {"half3", 8, 8},         {"half4", 8, 8},          {"bfloat3", 8, 8},
    {"float2", 8, 8},         {"float3", 16, 16},      {"float4", 16, 16},       {"packed_char2", 2, 1},
    {"packed_char3", 3, 1},   {"packed_char4", 4, 1},  {"packed_uchar3", 3, 1},  {"packed_short2", 4, 2},
    {"packed_short3", 6, 2},  {"packed_short4", 8, 2}, {"packed_ushort3", 6, 2}, {"packed_int2", 8, 4},
    {"packed_int3", 12, 4},   {"packed_int4", 16, 4},  {"packed_uint3", 12, 4},  {"packed_half2", 4, 2},
    {"packed_half3", 6, 2},   {"packed_half4", 8, 2},  {"packed_float2", 8, 4},  {"packed_float3", 12, 4},
    {"packed_float4", 16, 4}, {"half2x2", 8, 4},       {"half2x3", 16, 8},       {"half2x4", 16, 8},
    {"half3x2", 12, 4},       {"half3x3", 24, 8},      {"half3x4", 24, 8},       {"half4x2", 16, 4},
    {"half4x3", 32, 8},       {"half4x4", 32, 8},      {"float2x2", 16, 8},      {"float2x3", 32, 16},
    {"float2x4", 32, 16},     {"float3x2", 24, 8},     {"float3x3", 48, 16},     {"float3x4", 48, 16},
    {"float4x2", 32, 8},      {"float4x3", 64, 16},    {"float4x4", 64, 16},
};

const ir::StructDef* find_struct(const ir::Module& m, const std::string& name) {
  for (auto& s : m.structs)
    if (s.name == name) return &s;
  return nullptr;
}

// `struct Probe_i { char c; T x; }`: x lands at T's alignment, and the
// struct's size is T's size after it, rounded up to T's alignment.
TEST(Layout, EveryTypeHasTheSpecificationsSizeAndAlignment) {
  std::string src;
  for (size_t i = 0; i < std::size(kSpec); ++i)
    src += "struct Probe" + std::to_string(i) + " { char c; " + kSpec[i].type + " x; };\n";
  // Metal allows 31 buffers per kernel: one kernel per 30 probes.
  std::string kernels;
  for (size_t first = 0; first < std::size(kSpec); first += 30) {
    kernels += "kernel void k" + std::to_string(first) + "(device float* o [[buffer(0)]]";
    for (size_t i = first; i < std::min(first + 30, std::size(kSpec)); ++i)
      kernels += ", constant Probe" + std::to_string(i) + "& p" + std::to_string(i) + " [[buffer(" +
                 std::to_string(i - first + 1) + ")]]";
    kernels += ") { o[0] = 1.0f; }\n";
  }
  DiagEngine d;
  auto m = parse("spec_layout.metal", src + kernels, d);
  ASSERT_TRUE(m) << first_error(d);
  for (size_t i = 0; i < std::size(kSpec); ++i) {
    const Expected& e = kSpec[i];
    const ir::StructDef* s = find_struct(*m, "Probe" + std::to_string(i));
    ASSERT_NE(s, nullptr) << e.type;
    ASSERT_EQ(s->fields.size(), 2u) << e.type;
    EXPECT_EQ(ir::type_size(*m, s->fields[1].type), e.size) << e.type;
    EXPECT_EQ(ir::type_align(*m, s->fields[1].type), e.align) << e.type;
    EXPECT_EQ(s->fields[1].offset, e.align) << e.type;
    const int end = e.align + e.size;
    EXPECT_EQ(s->size, (end + e.align - 1) / e.align * e.align) << e.type;
    EXPECT_EQ(s->align, e.align) << e.type;
  }
}

TEST(Layout, AlignasMovesAFieldAndAlignsTheStruct) {
  DiagEngine d;
  auto m = parse("alignas.metal", R"(
struct Params {
  packed_float3 offset;   // 0, 12 bytes
  float bias;             // 12
  alignas(32) uint stride; // 32
  float3 dir;             // 48
};
struct alignas(16) Wide { float x; };
struct Holder { char c; Wide w; };
kernel void k(constant Params& p [[buffer(0)]], constant Holder& h [[buffer(1)]], device float* o [[buffer(2)]]) {
  o[0] = p.bias + h.w.x;
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  const ir::StructDef* p = find_struct(*m, "Params");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->fields[0].offset, 0);
  EXPECT_EQ(p->fields[1].offset, 12);
  EXPECT_EQ(p->fields[2].offset, 32);
  EXPECT_EQ(p->fields[3].offset, 48);
  EXPECT_EQ(p->size, 64);
  EXPECT_EQ(p->align, 32);
  const ir::StructDef* w = find_struct(*m, "Wide");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->size, 16);
  EXPECT_EQ(w->align, 16);
  const ir::StructDef* h = find_struct(*m, "Holder");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->fields[1].offset, 16);
  EXPECT_EQ(h->size, 32);
}

TEST(Layout, RuntimeSizedTrailingArrayAddsNothingToTheSize) {
  DiagEngine d;
  auto m = parse("tail.metal", R"(
struct Tail { float4 head; float scale; float data[]; };
struct Generated { uint count; float2 data[1]; };
kernel void k(device Tail& t [[buffer(0)]], device const Generated* g [[buffer(1)]]) {
  t.data[3] = g->data[5].y;
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  const ir::StructDef* t = find_struct(*m, "Tail");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->fields[2].offset, 20);
  EXPECT_EQ(t->fields[2].type.count, 0);
  EXPECT_EQ(t->size, 32);
  const ir::StructDef* g = find_struct(*m, "Generated");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->fields[1].offset, 8);
  EXPECT_EQ(g->size, 16);
}

TEST(Layout, RuntimeSizedArrayMustBeTheLastField) {
  DiagEngine d;
  auto m = parse("tail_first.metal", R"(
struct Bad { float data[]; uint count; };
kernel void k(device Bad& b [[buffer(0)]]) { b.count = 1; }
)",
                 d);
  EXPECT_FALSE(m && !d.has_errors());
}

// Packed vectors of every element type are structs named as Metal names the
// type (C spells `packed_vec<unsigned char, 4>`'s argument in two words), and
// convert from aligned and packed vectors of another element type.
TEST(Layout, PackedVectorsAreNamedAsInMetalAndConvertElementTypes) {
  DiagEngine d;
  auto m = parse("packed_names.metal", R"(
struct P { packed_uchar4 c; packed_ushort2 s; packed_uint3 u; packed_ulong2 l; packed_half3 h; packed_float3 f; };
kernel void k(device P* p [[buffer(0)]]) {
  p->f = packed_float3(p->h);
  p->h = packed_half3(float3(p->f) * 2.0f);
  p->c = packed_uchar4(uint4(p->c) + 1u);
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  for (const char* name : {"packed_uchar4", "packed_ushort2", "packed_uint3", "packed_ulong2"})
    EXPECT_NE(find_struct(*m, name), nullptr) << name;
  EXPECT_EQ(m->kernels.size(), 1u);
}

}  // namespace
}  // namespace mslport::front
