#include "bench/cases.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "bench/bench.h"

namespace mslport::bench {
namespace {

uint32_t word(const BenchBuffer& b, size_t i) {
  uint32_t v;
  std::memcpy(&v, b.contents.data() + 4 * i, 4);
  return v;
}

TEST(BenchCases, CoverTheCorpusKernelsTheIssueNames) {
  for (const char* k : {"silu_mul_stacked_f32", "weighted_sum_stacked_f32", "weighted_sum_residual_stacked_f32",
                        "fused_norm_add_f32", "fused_residual_norm_f32", "fused_moe_wsum_norm_add_f32", "moe_gate",
                        "dequant_matvec_4bit_v3", "dequant_matvec_8bit_v3", "bf16_matvec", "swiglu_fused",
                        "rms_norm_apply", "residual_add", "moe_combine_residual"}) {
    auto c = bench_case(k);
    ASSERT_TRUE(c) << k;
    EXPECT_EQ(c->kernel, k);
    std::set<int> indices;
    for (const auto& b : c->buffers) EXPECT_TRUE(indices.insert(b.index).second) << k << " buffer " << b.index;
    EXPECT_GT(c->min_bytes(), 0u) << k;
    EXPECT_LE(c->min_bytes(), 2 * c->set_bytes()) << k;
  }
  EXPECT_FALSE(bench_case("no_such_kernel"));
}

TEST(BenchCases, SiluMulStackedMovesTwoInputsAndOneOutput) {
  auto c = bench_case("silu_mul_stacked_f32");
  ASSERT_TRUE(c);
  const BenchBuffer* p = c->buffer(3);
  ASSERT_TRUE(p);
  uint64_t n = uint64_t(word(*p, 0)) * word(*p, 1);  // ffn * n_slots
  EXPECT_EQ(c->buffer(0)->bytes, n * 4);
  EXPECT_EQ(c->min_bytes(), 3 * n * 4 + 8);  // gate + up read, out written, the params struct
  // The grid covers ffn x n_slots with 256-thread groups.
  EXPECT_EQ(c->dispatch.threadgroups[0] * 256u, (word(*p, 0) + 255) / 256 * 256);
  EXPECT_EQ(c->dispatch.threadgroups[1], word(*p, 1));
}

TEST(BenchCases, ReadWriteResidualCountsTwice) {
  auto c = bench_case("weighted_sum_residual_stacked_f32");
  ASSERT_TRUE(c);
  const BenchBuffer* p = c->buffer(3);
  uint64_t hidden = word(*p, 0), slots = word(*p, 1);
  EXPECT_EQ(c->min_bytes(), hidden * slots * 4 + slots * 4 + 2 * hidden * 4 + 8);
}

TEST(BenchCases, GatedDeltaNetStepCountsItsStateReadAndWritten) {
  auto c = bench_case("gated_delta_net_step");
  ASSERT_TRUE(c);
  const uint64_t heads = word(*c->buffer(8), 0), key_total = word(*c->buffer(7), 0);
  const uint64_t state = heads * 128 * 128 * 4;
  EXPECT_EQ(c->buffer(0)->bytes_read, state);
  EXPECT_EQ(c->buffer(0)->bytes_written, state);
  EXPECT_EQ(word(*c->buffer(6), 0), 1u);  // one token: the decode step
  const uint64_t conv = (2 * key_total + heads * 128) * 4;
  EXPECT_EQ(c->min_bytes(), 2 * state + conv + 2 * heads * 4 + heads * 128 * 4 + 16);
}

TEST(BenchCases, MoeCombineResidualCountsOnlyTheExpertsItReads) {
  auto c = bench_case("moe_combine_residual");
  ASSERT_TRUE(c);
  uint64_t dim = word(*c->buffer(20), 0), k = word(*c->buffer(21), 0);
  ASSERT_LT(k, 16u);
  // h_mid, shared_out and K expert outputs read; hidden_out written;
  // params[0..K) and the shared gate score, dim and K read.
  EXPECT_EQ(c->min_bytes(), (2 + k) * dim * 4 + dim * 4 + (k + 1) * 4 + 4 + 4);
  EXPECT_EQ(c->buffer(3 + 15)->bytes_read, 0u);  // an unused expert slot
}

TEST(BenchCases, DequantCountsPackedWeightsScalesAndBiases) {
  auto c = bench_case("dequant_matvec_4bit_v3");
  ASSERT_TRUE(c);
  uint64_t out = word(*c->buffer(5), 0), in = word(*c->buffer(6), 0), gs = word(*c->buffer(7), 0);
  uint64_t expected = out * in / 2               // 4-bit weights
                      + 2 * out * (in / gs) * 2  // bf16 scales and biases
                      + in * 4 + out * 4 + 12;   // x, out, three scalars
  EXPECT_EQ(c->min_bytes(), expected);
  EXPECT_LE(in, 4096u);  // the kernel's x_shared
}

TEST(BenchCases, TwoBitMatvecCountsSixteenWeightsPerWord) {
  auto c = bench_case("dequant_matvec_2bit");
  ASSERT_TRUE(c);
  uint64_t out = word(*c->buffer(5), 0), in = word(*c->buffer(6), 0), gs = word(*c->buffer(7), 0);
  EXPECT_EQ(c->buffer(0)->bytes, out * in / 4);
  EXPECT_EQ(c->min_bytes(), out * in / 4 + 2 * out * (in / gs) * 2 + in * 4 + out * 4 + 12);
  // The same bindings as v3 for the other variants.
  for (const char* k : {"dequant_matvec_4bit_v4", "dequant_matvec_4bit_v5"}) {
    auto v = bench_case(k);
    ASSERT_TRUE(v) << k;
    EXPECT_EQ(v->min_bytes(), bench_case("dequant_matvec_4bit_v3")->min_bytes()) << k;
  }
}

TEST(BenchCases, InputSetsAreLargerThanTheCacheTogether) {
  // Four times the cache: twice was not enough on the EPYC VM, whose L3 is
  // not strictly LRU (a 4 MiB in-place state rotated through 64 MiB ran 20 %
  // faster than through 128 MiB).
  EXPECT_EQ(input_sets_for(64u << 20, 32u << 20), 2u);
  EXPECT_EQ(input_sets_for(9u << 20, 32u << 20), 15u);
  EXPECT_EQ(input_sets_for(1u << 20, 1u << 30), 256u);  // capped
  for (const auto& k : bench_kernels()) {
    auto c = bench_case(k);
    size_t n = input_sets_for(c->set_bytes(), 32u << 20);
    EXPECT_GE(n * c->set_bytes(), 128u << 20) << k;
  }
}

TEST(BenchCases, FillIsDeterministicPerSeedAndInRange) {
  BenchBuffer b;
  b.bytes = 4096;
  b.fill = Fill::Uniform;
  b.lo = -2;
  b.hi = 3;
  std::vector<uint8_t> x(4096), y(4096), z(4096);
  fill_buffer(b, 1, x.data());
  fill_buffer(b, 1, y.data());
  fill_buffer(b, 2, z.data());
  EXPECT_EQ(x, y);
  EXPECT_NE(x, z);
  for (size_t i = 0; i < 1024; ++i) {
    float f;
    std::memcpy(&f, x.data() + 4 * i, 4);
    EXPECT_GE(f, -2.0f);
    EXPECT_LT(f, 3.0f);
  }
  b.fill = Fill::Bf16Uniform;
  fill_buffer(b, 1, x.data());
  for (size_t i = 0; i < 2048; ++i) {
    uint16_t h;
    std::memcpy(&h, x.data() + 2 * i, 2);
    uint32_t u = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    EXPECT_GE(f, -2.0f);
    EXPECT_LE(f, 3.0f);
  }
}

TEST(TimeLaunches, WarmsUpThenRotatesSets) {
  std::vector<size_t> calls;
  TimingPlan plan;
  plan.warmup = 2;
  plan.repeats = 5;
  auto secs = time_launches(
      [&](size_t s) {
        calls.push_back(s);
        return 0.001;
      },
      3, plan);
  EXPECT_EQ(secs.size(), 5u);
  EXPECT_EQ(calls, (std::vector<size_t>{0, 1, 2, 0, 1, 2, 0}));
}

TEST(TimeLaunches, PicksRepeatsFromTheTargetTime) {
  TimingPlan plan;
  plan.target_seconds = 0.3;
  EXPECT_EQ(time_launches([](size_t) { return 0.01; }, 1, plan).size(), 30u);
  EXPECT_EQ(time_launches([](size_t) { return 1.0; }, 1, plan).size(), size_t(plan.min_repeats));
  EXPECT_EQ(time_launches([](size_t) { return 1e-7; }, 1, plan).size(), size_t(plan.max_repeats));
}

TEST(RoundShare, SplitsTheLaunchesAskedForButKeepsEachRoundsSeconds) {
  TimingPlan plan;  // automatic: each round times its own half second
  TimingPlan round = round_share(plan, 5);
  EXPECT_EQ(round.target_seconds, plan.target_seconds);
  EXPECT_EQ(round.max_repeats, plan.max_repeats);
  EXPECT_EQ(round.min_repeats, 2);
  EXPECT_EQ(round.repeats, 0);
  plan.repeats = 12;  // asked for: twelve in all
  EXPECT_EQ(round_share(plan, 5).repeats, 3);
  EXPECT_EQ(round_share(plan, 1).repeats, 12);
}

TEST(ShortPlatformName, NamesPoclAndNvidia) {
  EXPECT_EQ(short_platform_name("Portable Computing Language"), "pocl");
  EXPECT_EQ(short_platform_name("NVIDIA CUDA"), "nvidia");
  EXPECT_EQ(short_platform_name("Intel(R) OpenCL"), "intel");
}

}  // namespace
}  // namespace mslport::bench
