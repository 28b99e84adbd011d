// The values of function constants the host sets at dispatch: which case
// runs on which translation, and the bytes each target's entry reads.
#include "runtime/host_set_constants.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "runtime/runner.h"

namespace mslport::runtime {
namespace {

class FakeExecutor : public Executor {
 public:
  std::string target() const override { return "openmp"; }
  bool has_kernel(const std::string& name) const override { return name == "k"; }
  CaseResult run(const GoldenCase&) override { return {}; }
  std::vector<HostSetConstant> host_set_constants(const std::string&) const override {
    return {{"rows", 42, "uint"}, {"flip", 3, "bool"}};
  }
};

GoldenCase case_with(std::map<std::string, std::string> fc) {
  GoldenCase c;
  c.kernel = "k";
  c.function_constants = std::move(fc);
  return c;
}

TEST(HostSetConstants, ACaseRunsOnTheTranslationThatFixesTheRest) {
  FakeExecutor plain, fixed;
  fixed.set_function_constants({{"opt", "2.5"}});
  // By name or by index, the host-set ones are passed at dispatch.
  EXPECT_TRUE(case_runs_on(case_with({{"rows", "4"}, {"3", "true"}}), plain));
  EXPECT_FALSE(case_runs_on(case_with({{"rows", "4"}, {"opt", "2.5"}}), plain));
  EXPECT_TRUE(case_runs_on(case_with({{"42", "4"}, {"opt", "2.5"}}), fixed));
  EXPECT_FALSE(case_runs_on(case_with({{"rows", "4"}}), fixed));
  GoldenCase other = case_with({});
  other.kernel = "other";
  EXPECT_FALSE(case_runs_on(other, plain));
}

TEST(HostSetConstants, ValuesByNameBeforeIndex) {
  HostSetConstant rows{"rows", 42, "uint"};
  EXPECT_EQ(case_value({{"42", "1"}, {"rows", "2"}}, rows), "2");
  EXPECT_EQ(case_value({{"42", "1"}}, rows), "1");
  EXPECT_FALSE(case_value({{"41", "1"}}, rows));
}

TEST(HostSetConstants, BytesOfEachType) {
  using V = std::vector<uint8_t>;
  EXPECT_EQ(constant_bytes({"b", 0, "bool"}, "true", false), V{1});
  EXPECT_EQ(constant_bytes({"s", 0, "short"}, "-2", false), (V{0xfe, 0xff}));
  EXPECT_EQ(constant_bytes({"u", 0, "uint"}, "4294967295", false), (V{0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(constant_bytes({"f", 0, "float"}, "1.5", false), (V{0, 0, 0xc0, 0x3f}));
  // half 1.5 = 0x3e00; -1.5 = 0xbe00; on OpenCL a float
  EXPECT_EQ(constant_bytes({"h", 0, "half"}, "-1.5", false), (V{0x00, 0xbe}));
  EXPECT_EQ(constant_bytes({"h", 0, "half"}, "1.5", true), (V{0, 0, 0xc0, 0x3f}));
  // 1 + 2^-11 is halfway between two halves: to even (1.0 = 0x3c00)
  EXPECT_EQ(constant_bytes({"h", 0, "half"}, "1.00048828125", false), (V{0x00, 0x3c}));
  EXPECT_EQ(constant_bytes({"bf", 0, "bfloat"}, "1.5", false), (V{0xc0, 0x3f}));
}

TEST(HostSetConstants, ValuesThatDoNotFitAreRefused) {
  EXPECT_THROW(constant_bytes({"s", 0, "short"}, "40000", false), std::runtime_error);
  EXPECT_THROW(constant_bytes({"u", 0, "uchar"}, "-1", false), std::runtime_error);
  EXPECT_THROW(constant_bytes({"i", 0, "int"}, "2.5", false), std::runtime_error);
  EXPECT_THROW(constant_bytes({"b", 0, "bool"}, "1", false), std::runtime_error);
  EXPECT_THROW(constant_bytes({"f", 0, "float"}, "true", false), std::runtime_error);
  try {
    constant_bytes({"taps", 100, "short"}, "70000", false);
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'taps' [[function_constant(100)]] of type short"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace mslport::runtime
