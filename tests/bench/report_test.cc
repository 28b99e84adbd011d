#include "bench/report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

namespace mslport::bench {
namespace {

BenchRow row(const std::string& kernel, const std::string& target, const std::string& platform, double ms,
             uint64_t bytes) {
  BenchRow r;
  r.kernel = kernel;
  r.target = target;
  r.platform = platform;
  r.ms = r.ms_p10 = r.ms_p90 = ms;
  r.bytes = bytes;
  r.repeats = 10;
  return r;
}

BenchReport sample() {
  BenchReport r;
  r.roofs.push_back({"openmp/cpu", "cpu", 3 * (64u << 20), 10, 20.0, 3, 19.0});
  r.roofs.push_back({"opencl/pocl", "pocl", 3 * (64u << 20), 10, 10.0, 3, 9.0});
  r.rows.push_back(row("k1", "openmp", "cpu", 2.0, 20'000'000));   // 10 GB/s
  r.rows.push_back(row("k1", "opencl", "pocl", 4.0, 20'000'000));  // 5 GB/s
  r.rows.push_back(row("k2", "openmp", "cpu", 1.0, 1'000'000));    // no PoCL row
  r.skipped.push_back("k3: no bench case");
  finish_report(&r);
  return r;
}

TEST(BenchReport, ComputesBandwidthRoofFractionAndRatioToPocl) {
  BenchReport r = sample();
  EXPECT_DOUBLE_EQ(r.rows[0].gbps, 10.0);
  ASSERT_TRUE(r.rows[0].roof_fraction);
  EXPECT_DOUBLE_EQ(*r.rows[0].roof_fraction, 0.5);
  ASSERT_TRUE(r.rows[0].vs_pocl);
  EXPECT_DOUBLE_EQ(*r.rows[0].vs_pocl, 2.0);  // PoCL's 4 ms / 2 ms
  EXPECT_DOUBLE_EQ(*r.rows[1].vs_pocl, 1.0);
  EXPECT_DOUBLE_EQ(*r.rows[1].roof_fraction, 0.5);
  EXPECT_FALSE(r.rows[2].vs_pocl);
  EXPECT_DOUBLE_EQ(*geomean_vs_pocl(r, "openmp/cpu"), 2.0);
}

TEST(BenchReport, JsonHasExactlyTheDocumentedShape) {
  auto j = nlohmann::json::parse(format_bench_json(sample()));
  ASSERT_TRUE(j.is_object());
  std::set<std::string> top;
  for (auto& [k, v] : j.items()) top.insert(k);
  EXPECT_EQ(top, (std::set<std::string>{"roof_gbps", "rounds", "isolation", "bytes_model", "results"}));
  EXPECT_EQ(j["rounds"], 1);
  EXPECT_EQ(j["isolation"], "none");
  EXPECT_EQ(j["bytes_model"], "minimum");
  ASSERT_TRUE(j["roof_gbps"].is_object());
  EXPECT_DOUBLE_EQ(j["roof_gbps"]["openmp/cpu"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(j["roof_gbps"]["opencl/pocl"].get<double>(), 10.0);
  ASSERT_TRUE(j["results"].is_array());
  ASSERT_EQ(j["results"].size(), 3u);
  for (const auto& r : j["results"]) {
    std::set<std::string> keys;
    for (auto& [k, v] : r.items()) keys.insert(k);
    EXPECT_EQ(keys, (std::set<std::string>{"kernel", "case", "target", "platform", "ms", "round_ms", "spread", "gbps",
                                           "roof_fraction", "vs_pocl", "vs_pocl_rounds"}));
    EXPECT_TRUE(r["case"].is_null());
    EXPECT_TRUE(r["kernel"].is_string());
    EXPECT_TRUE(r["ms"].is_number());
    EXPECT_TRUE(r["gbps"].is_number());
  }
  EXPECT_EQ(j["results"][0]["kernel"], "k1");
  EXPECT_EQ(j["results"][0]["target"], "openmp");
  EXPECT_EQ(j["results"][0]["platform"], "cpu");
  EXPECT_DOUBLE_EQ(j["results"][0]["vs_pocl"].get<double>(), 2.0);
  EXPECT_TRUE(j["results"][2]["vs_pocl"].is_null());
}

TEST(BenchReport, TableListsRowsRoofsGeomeanAndSkipped) {
  std::string t = format_bench_table(sample());
  EXPECT_NE(t.find("roof  openmp/cpu"), std::string::npos);
  EXPECT_NE(t.find("opencl/pocl"), std::string::npos);
  EXPECT_NE(t.find("2.00x"), std::string::npos);
  EXPECT_NE(t.find("geometric mean vs PoCL: openmp/cpu 2.00x over 1 kernels"), std::string::npos);
  EXPECT_NE(t.find("k3: no bench case"), std::string::npos);
}

TEST(BenchReport, PlotJsonAddsSpreadForThePlotScript) {
  auto j = nlohmann::json::parse(format_plot_json(sample()));
  EXPECT_TRUE(j["results"][0].contains("gbps_low"));
  EXPECT_TRUE(j["results"][0].contains("gbps_high"));
  EXPECT_EQ(j["devices"]["openmp/cpu"], "cpu");
}

TEST(BenchReport, TableAndPlotJsonNameTheRoofMethod) {
  BenchReport r = sample();
  r.roofs[1].method = "copy";
  r.roofs[1].method_gbps = {{"triad", 8.0}, {"copy", 10.0}};
  finish_report(&r);
  std::string t = format_bench_table(r);
  EXPECT_NE(t.find("(copy, "), std::string::npos) << t;
  EXPECT_NE(t.find("copy 10.0, triad 8.0"), std::string::npos) << t;
  auto j = nlohmann::json::parse(format_plot_json(r));
  EXPECT_DOUBLE_EQ(j["roof_methods"]["opencl/pocl"]["copy"].get<double>(), 10.0);
  EXPECT_FALSE(j["roof_methods"]["openmp/cpu"].contains("copy"));
  // The documented JSON keeps exactly its five keys.
  auto plain = nlohmann::json::parse(format_bench_json(r));
  EXPECT_EQ(plain.size(), 5u);
}

TEST(BenchReport, EmptyLaunchTimeIsInTheTableAndPlotJsonOnly) {
  BenchReport r = sample();
  r.roofs[1].empty_launch_us = 5.5;
  std::string t = format_bench_table(r);
  const std::string line = "opencl/pocl      a launch that does nothing takes 5.5 us";
  ASSERT_NE(t.find(line), std::string::npos) << t;
  const std::string phrase = "a launch that does nothing";
  EXPECT_EQ(t.find(phrase, t.find(phrase) + phrase.size()), std::string::npos) << t;  // once: not on openmp/cpu
  auto j = nlohmann::json::parse(format_plot_json(r));
  EXPECT_DOUBLE_EQ(j["empty_launch_us"]["opencl/pocl"].get<double>(), 5.5);
  EXPECT_FALSE(j["empty_launch_us"].contains("openmp/cpu"));
  EXPECT_EQ(nlohmann::json::parse(format_bench_json(r)).size(), 5u);
}

TEST(BenchReport, ReadingAloneIsReportedBesideTheRoofNotAsIt) {
  BenchReport r = sample();
  r.roofs[0].read_gbps = 10.0;  // half of openmp/cpu's 20 GB/s roof
  finish_report(&r);
  EXPECT_DOUBLE_EQ(*r.rows[0].roof_fraction, 0.5);  // 10 GB/s against the roof, not against reading
  std::string t = format_bench_table(r);
  const std::string line = "openmp/cpu       reading alone (a + b summed, no stores) 10.0 GB/s = 50 % of the roof";
  EXPECT_NE(t.find(line), std::string::npos) << t;
  EXPECT_EQ(t.find("opencl/pocl      reading alone"), std::string::npos) << t;
  auto j = nlohmann::json::parse(format_plot_json(r));
  EXPECT_DOUBLE_EQ(j["read_only_gbps"]["openmp/cpu"].get<double>(), 10.0);
  EXPECT_FALSE(j["read_only_gbps"].contains("opencl/pocl"));
  auto doc = nlohmann::json::parse(format_bench_json(r));
  EXPECT_EQ(doc.size(), 5u);
  EXPECT_DOUBLE_EQ(doc["roof_gbps"]["openmp/cpu"].get<double>(), 20.0);
}

TEST(BenchReport, RoofKeepsTheBestOfEachMethodAndOverall) {
  Roof r;
  EXPECT_TRUE(r.add("triad", 3000, 1.0));        // 3 GB/s
  EXPECT_TRUE(r.add("triad-nt", 3000, 0.5));     // 6 GB/s: the roof now
  EXPECT_FALSE(r.add("triad-256", 3000, 0.75));  // 4 GB/s
  EXPECT_FALSE(r.add("triad-nt", 3000, 2.0));    // a slower repeat keeps the best
  EXPECT_EQ(r.method, "triad-nt");
  EXPECT_DOUBLE_EQ(r.gbps, 0.006);
  EXPECT_DOUBLE_EQ(r.ms, 0.5);
  EXPECT_DOUBLE_EQ(r.method_gbps.at("triad-nt"), 0.006);
  EXPECT_DOUBLE_EQ(r.method_gbps.at("triad-256"), 0.004);
  EXPECT_DOUBLE_EQ(r.method_gbps.at("triad"), 0.003);
}

}  // namespace
}  // namespace mslport::bench

namespace mslport::bench {
namespace {

TEST(BenchReport, RoundsGiveTheirRangeSpreadAndRatiosPerRound) {
  BenchReport r;
  r.rounds = 2;
  r.isolation = "process";
  BenchRow omp = row("k1", "openmp", "cpu", 2.0, 20'000'000);
  omp.round_ms = {1.5, 2.5};
  BenchRow pocl = row("k1", "opencl", "pocl", 4.0, 20'000'000);
  pocl.round_ms = {3.0, 6.0};
  pocl.case_name = "big";
  omp.case_name = "big";
  r.rows = {omp, pocl};
  finish_report(&r);
  EXPECT_EQ(r.rows[0].vs_pocl_rounds, (std::vector<double>{2.0, 2.4}));
  EXPECT_DOUBLE_EQ(r.rows[0].spread(), 0.5);
  std::string t = format_bench_table(r);
  EXPECT_NE(t.find("median of 2 rounds' medians (each backend in a process of its own"), std::string::npos) << t;
  EXPECT_NE(t.find("k1 (big)"), std::string::npos) << t;
  EXPECT_NE(t.find("[1.50, 2.50]"), std::string::npos) << t;
  EXPECT_NE(t.find("50%"), std::string::npos) << t;
  EXPECT_NE(t.find("2.00-2.40x"), std::string::npos) << t;
  auto j = nlohmann::json::parse(format_bench_json(r));
  EXPECT_EQ(j["rounds"], 2);
  EXPECT_EQ(j["isolation"], "process");
  EXPECT_EQ(j["results"][0]["case"], "big");
  EXPECT_EQ(j["results"][0]["round_ms"].size(), 2u);
  EXPECT_EQ(j["results"][0]["vs_pocl_rounds"].size(), 2u);
  EXPECT_TRUE(j["results"][1]["vs_pocl_rounds"].size() == 2u);
}

}  // namespace
}  // namespace mslport::bench
