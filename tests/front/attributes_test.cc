// Kernel parameters: [[buffer(n)]] / [[threadgroup(n)]] / builtin attribute
// recovery from tokens, Metal's implicit buffer indices, parameter kinds.
#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "front/snippet.h"
#include "test_support.h"

namespace mslport::front {
namespace {

TEST(Attributes, ExplicitIndicesAndKinds) {
  DiagEngine d;
  auto m = parse("explicit.metal", R"(
struct P { int n; float eps; };
kernel void k(
    device const float* a [[buffer(0)]],
    device       float* out [[ buffer( 2 ) ]],
    constant P& p [[buffer(3)]],
    constant float* table [[buffer(1)]],
    threadgroup float* scratch [[threadgroup(1)]],
    uint3 tgpig [[threadgroup_position_in_grid]],
    ushort tiisg [[thread_index_in_simdgroup]])
{ out[0] = a[0] + p.eps + table[0] + scratch[0]; }
)",
                 d);
  ASSERT_TRUE(m) << d.diagnostics().front().message;
  ASSERT_EQ(m->kernels.size(), 1u);
  const auto& ps = m->kernels[0].params;
  ASSERT_EQ(ps.size(), 7u);
  EXPECT_EQ(ps[0].kind, ir::Param::Kind::Buffer);
  EXPECT_EQ(ps[0].index, 0);
  EXPECT_FALSE(ps[0].implicit_index);
  EXPECT_EQ(ir::type_name(*m, ps[0].type), "device const float*");
  EXPECT_EQ(ps[1].index, 2);
  EXPECT_EQ(ir::type_name(*m, ps[1].type), "device float*");
  EXPECT_EQ(ps[2].kind, ir::Param::Kind::ConstantRef);
  EXPECT_EQ(ps[2].index, 3);
  EXPECT_EQ(ir::type_name(*m, ps[2].type), "P");
  EXPECT_EQ(ps[3].kind, ir::Param::Kind::Buffer);
  EXPECT_EQ(ir::type_name(*m, ps[3].type), "constant const float*");  // constant memory is read-only
  EXPECT_EQ(ps[4].kind, ir::Param::Kind::ThreadgroupMemory);
  EXPECT_EQ(ps[4].index, 1);
  EXPECT_EQ(ir::type_name(*m, ps[4].type), "threadgroup float*");
  EXPECT_EQ(ps[5].kind, ir::Param::Kind::Builtin);
  EXPECT_EQ(ps[5].builtin, ir::BuiltinId::ThreadgroupPositionInGrid);
  EXPECT_EQ(ir::type_name(*m, ps[5].type), "uint3");
  EXPECT_EQ(ps[6].builtin, ir::BuiltinId::ThreadIndexInSimdgroup);
  // Positions come as uint: a parameter declared ushort is read through a
  // conversion (front/build_kernel.cc), the parameter itself is uint.
  EXPECT_EQ(ir::type_name(*m, ps[6].type), "uint");
  EXPECT_EQ(ps[6].loc.line, 12);
  EXPECT_EQ(ps[6].loc.col, 12);
}

TEST(Attributes, ImplicitIndicesTakeNextUnused) {
  DiagEngine d;
  auto m = parse("implicit.metal", R"(
kernel void k(device float* a,
              constant uint& n [[buffer(0)]],
              device float* b,
              constant uint &count,
              threadgroup float* t,
              uint tid [[thread_position_in_grid]])
{ a[tid] = b[tid] + n + count + t[0]; }
)",
                 d);
  ASSERT_TRUE(m) << d.diagnostics().front().message;
  const auto& ps = m->kernels[0].params;
  ASSERT_EQ(ps.size(), 6u);
  EXPECT_EQ(ps[0].index, 1);
  EXPECT_TRUE(ps[0].implicit_index);
  EXPECT_EQ(ps[1].index, 0);
  EXPECT_FALSE(ps[1].implicit_index);
  EXPECT_EQ(ps[2].index, 2);
  EXPECT_TRUE(ps[2].implicit_index);
  EXPECT_EQ(ps[3].kind, ir::Param::Kind::ConstantRef);
  EXPECT_EQ(ps[3].index, 3);
  EXPECT_TRUE(ps[3].implicit_index);
  EXPECT_EQ(ps[4].kind, ir::Param::Kind::ThreadgroupMemory);
  EXPECT_EQ(ps[4].index, 0);
  EXPECT_TRUE(ps[4].implicit_index);
}

TEST(Attributes, EveryBuiltinScalarAndVector) {
  const ir::BuiltinId all[] = {
      ir::BuiltinId::ThreadPositionInGrid,
      ir::BuiltinId::ThreadPositionInThreadgroup,
      ir::BuiltinId::ThreadgroupPositionInGrid,
      ir::BuiltinId::ThreadsPerThreadgroup,
      ir::BuiltinId::ThreadsPerGrid,
      ir::BuiltinId::ThreadgroupsPerGrid,
      ir::BuiltinId::ThreadIndexInThreadgroup,
      ir::BuiltinId::ThreadIndexInSimdgroup,
      ir::BuiltinId::SimdgroupIndexInThreadgroup,
      ir::BuiltinId::ThreadsPerSimdgroup,
      ir::BuiltinId::SimdgroupsPerThreadgroup,
      ir::BuiltinId::DispatchThreadsPerThreadgroup,
      ir::BuiltinId::GridOrigin,
      ir::BuiltinId::GridSize,
  };
  // Scalar-only builtins (Metal rejects vector types for them).
  auto scalar_only = [](ir::BuiltinId b) {
    return b == ir::BuiltinId::ThreadIndexInThreadgroup || b == ir::BuiltinId::ThreadIndexInSimdgroup ||
           b == ir::BuiltinId::SimdgroupIndexInThreadgroup || b == ir::BuiltinId::ThreadsPerSimdgroup ||
           b == ir::BuiltinId::SimdgroupsPerThreadgroup;
  };
  std::string params = "device uint* out [[buffer(0)]]";
  std::vector<std::pair<ir::BuiltinId, std::string>> expect;
  int i = 0;
  for (auto b : all) {
    std::string attr = ir::builtin_attr_name(b);
    params += ",\n  uint s" + std::to_string(i) + " [[" + attr + "]]";
    expect.push_back({b, "uint"});
    if (!scalar_only(b)) {
      params += ",\n  uint3 v" + std::to_string(i) + " [[" + attr + "]]";
      expect.push_back({b, "uint3"});
      params += ",\n  ushort2 w" + std::to_string(i) + " [[" + attr + "]]";
      expect.push_back({b, "uint2"});  // materialised as uint2, read as ushort2
    }
    ++i;
  }
  DiagEngine d;
  auto m = parse("builtins.metal", "kernel void k(" + params + ") { out[0] = 1; }\n", d);
  ASSERT_TRUE(m) << d.diagnostics().front().message;
  const auto& ps = m->kernels[0].params;
  ASSERT_EQ(ps.size(), expect.size() + 1);
  for (size_t j = 0; j < expect.size(); ++j) {
    EXPECT_EQ(ps[j + 1].kind, ir::Param::Kind::Builtin) << j;
    EXPECT_EQ(ps[j + 1].builtin, expect[j].first) << j;
    EXPECT_EQ(ir::type_name(*m, ps[j + 1].type), expect[j].second) << j;
  }
}

TEST(Attributes, VectorTypeForScalarOnlyBuiltinIsAnError) {
  DiagEngine d;
  auto m = parse("badbuiltin.metal",
                 "kernel void k(device uint* o [[buffer(0)]], uint3 t [[thread_index_in_simdgroup]])"
                 " { o[0] = t.x; }\n",
                 d);
  EXPECT_FALSE(m);
  ASSERT_EQ(d.error_count(), 1);
  EXPECT_EQ(d.diagnostics()[0].message, "[[thread_index_in_simdgroup]] parameter 't' cannot have type 'uint3'");
}

TEST(Attributes, UnknownAttributeIsAnErrorAtItsToken) {
  DiagEngine d;
  auto m = parse("unknown.metal",
                 "kernel void k(device float* a [[buffer(0)]],\n"
                 "              device float* b [[foo(1)]]) { a[0] = b[0]; }\n",
                 d);
  EXPECT_FALSE(m);
  ASSERT_EQ(d.error_count(), 1);
  const auto& e = d.diagnostics()[0];
  EXPECT_EQ(e.message, "unknown attribute 'foo' on kernel parameter");
  EXPECT_EQ(e.loc.line, 4);
  EXPECT_EQ(e.loc.col, 33);
}

TEST(Attributes, ValueParameterWithoutAttributeIsAnError) {
  DiagEngine d;
  auto m = parse("noattr.metal", "kernel void k(device float* a [[buffer(0)]], uint n) { a[0] = n; }\n", d);
  EXPECT_FALSE(m);
  ASSERT_EQ(d.error_count(), 1);
  EXPECT_NE(d.diagnostics()[0].message.find("kernel parameter 'n' of type 'uint' needs an address space"),
            std::string::npos);
  EXPECT_EQ(d.diagnostics()[0].loc.line, 3);
  EXPECT_EQ(d.diagnostics()[0].loc.col, 51);
}

TEST(Attributes, DuplicateBufferIndexIsAnError) {
  DiagEngine d;
  auto m = parse("dup.metal",
                 "kernel void k(device float* a [[buffer(1)]], device float* b [[buffer(1)]]) { a[0] = b[0]; }\n", d);
  EXPECT_FALSE(m);
  ASSERT_EQ(d.error_count(), 1);
  EXPECT_EQ(d.diagnostics()[0].message, "buffer index 1 is used by both 'a' and 'b'");
}

}  // namespace
}  // namespace mslport::front
