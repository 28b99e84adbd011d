#include "bench/report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "bench/stats.h"

namespace mslport::bench {

namespace {

bool is_pocl(const BenchRow& r) { return r.target == "opencl" && r.platform == "pocl"; }

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string pad(std::string s, size_t w, bool right = false) {
  if (s.size() >= w) return s;
  return right ? std::string(w - s.size(), ' ') + s : s + std::string(w - s.size(), ' ');
}

// Milliseconds with about 3 significant digits.
std::string ms_text(double ms) {
  if (ms >= 100) return fmt("%.0f", ms);
  if (ms >= 10) return fmt("%.1f", ms);
  if (ms >= 1) return fmt("%.2f", ms);
  return fmt("%.3g", ms);  // a kernel of a few microseconds keeps its digits
}

nlohmann::ordered_json opt(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json base_json(const BenchReport& r, bool extra) {
  nlohmann::ordered_json j;
  j["roof_gbps"] = nlohmann::ordered_json::object();
  for (const auto& roof : r.roofs) j["roof_gbps"][roof.backend] = roof.gbps;
  j["rounds"] = r.rounds;
  j["isolation"] = r.isolation;
  j["bytes_model"] = r.bytes_model;
  j["results"] = nlohmann::ordered_json::array();
  for (const auto& row : r.rows) {
    nlohmann::ordered_json o;
    o["kernel"] = row.kernel;
    o["case"] = row.case_name.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(row.case_name);
    o["target"] = row.target;
    o["platform"] = row.platform;
    o["ms"] = row.ms;
    o["round_ms"] = row.round_ms;
    o["spread"] = row.spread();
    o["gbps"] = row.gbps;
    o["roof_fraction"] = opt(row.roof_fraction);
    o["vs_pocl"] = opt(row.vs_pocl);
    o["vs_pocl_rounds"] =
        row.vs_pocl_rounds.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(row.vs_pocl_rounds);
    if (extra) {
      o["description"] = row.description;
      o["bytes"] = row.bytes;
      o["repeats"] = row.repeats;
      // Slower time = lower bandwidth: the slowest round (or p90 of the
      // time) is the low end.
      double slow = row.ms_p90, fast = row.ms_p10;
      if (row.round_ms.size() > 1) {
        auto [mn, mx] = std::minmax_element(row.round_ms.begin(), row.round_ms.end());
        slow = *mx;
        fast = *mn;
      }
      o["gbps_low"] = slow > 0 ? double(row.bytes) / (slow * 1e6) : 0.0;
      o["gbps_high"] = fast > 0 ? double(row.bytes) / (fast * 1e6) : 0.0;
    }
    j["results"].push_back(o);
  }
  if (extra) {
    // What the whiskers of the plot span: the rounds' medians, or with one
    // round p10..p90 of the launches.
    j["whiskers"] = r.rounds > 1 ? "rounds" : "p10-p90";
    j["devices"] = nlohmann::ordered_json::object();
    for (const auto& roof : r.roofs) j["devices"][roof.backend] = roof.device;
    // What a launch that does nothing takes on each OpenCL backend (the fixed
    // part of every kernel's time there).
    for (const auto& roof : r.roofs)
      if (roof.empty_launch_us > 0) j["empty_launch_us"][roof.backend] = roof.empty_launch_us;
    // What a loop that only reads streams on each OpenMP backend.
    for (const auto& roof : r.roofs)
      if (roof.read_gbps > 0) j["read_only_gbps"][roof.backend] = roof.read_gbps;
    j["roof_methods"] = nlohmann::ordered_json::object();
    for (const auto& roof : r.roofs) {
      nlohmann::ordered_json m = nlohmann::ordered_json::object();
      for (const auto& [how, gbps] : roof.method_gbps) m[how] = gbps;
      j["roof_methods"][roof.backend] = m;
    }
  }
  return j;
}

}  // namespace

double BenchRow::spread() const {
  if (round_ms.size() < 2 || ms <= 0) return 0;
  auto [mn, mx] = std::minmax_element(round_ms.begin(), round_ms.end());
  return (*mx - *mn) / ms;
}

bool Roof::add(const std::string& how, uint64_t launch_bytes, double launch_ms) {
  const double g = double(launch_bytes) / (launch_ms * 1e6);
  double& best = method_gbps[how];
  best = std::max(best, g);
  if (g <= gbps) return false;
  method = how;
  bytes = launch_bytes;
  ms = launch_ms;
  gbps = g;
  return true;
}

void finish_report(BenchReport* r) {
  std::map<std::string, double> roof;
  for (const auto& x : r->roofs) roof[x.backend] = x.gbps;
  std::map<std::string, double> pocl_ms;
  std::map<std::string, std::vector<double>> pocl_rounds;
  for (const auto& row : r->rows)
    if (is_pocl(row) && row.ms > 0) {
      pocl_ms[row.kernel] = row.ms;
      pocl_rounds[row.kernel] = row.round_ms;
    }
  for (auto& row : r->rows) {
    row.gbps = row.ms > 0 ? double(row.bytes) / (row.ms * 1e6) : 0.0;
    auto it = roof.find(row.backend());
    row.roof_fraction =
        it != roof.end() && it->second > 0 ? std::optional<double>(row.gbps / it->second) : std::nullopt;
    auto p = pocl_ms.find(row.kernel);
    row.vs_pocl = p != pocl_ms.end() && row.ms > 0 ? std::optional<double>(p->second / row.ms) : std::nullopt;
    row.vs_pocl_rounds.clear();
    if (row.vs_pocl && !row.round_ms.empty() && pocl_rounds[row.kernel].size() == row.round_ms.size())
      for (size_t i = 0; i < row.round_ms.size(); ++i)
        row.vs_pocl_rounds.push_back(row.round_ms[i] > 0 ? pocl_rounds[row.kernel][i] / row.round_ms[i] : 0.0);
  }
}

std::optional<double> geomean_vs_pocl(const BenchReport& r, const std::string& backend) {
  std::vector<double> v;
  for (const auto& row : r.rows)
    if (row.backend() == backend && row.vs_pocl) v.push_back(*row.vs_pocl);
  if (v.empty()) return std::nullopt;
  return geometric_mean(v);
}

std::string format_bench_table(const BenchReport& r) {
  std::string out;
  if (r.rows.empty() && r.roofs.empty()) {
    // Nothing was measured (nothing to time, or every build failed): only why.
    for (const auto& w : r.warnings) out += "warning: " + w + "\n";
    if (!r.skipped.empty()) {
      out += "skipped (" + std::to_string(r.skipped.size()) + "):";
      for (const auto& s : r.skipped) out += "\n  " + s;
      out += "\n";
    }
    if (!r.errors.empty()) {
      out += "errors (" + std::to_string(r.errors.size()) + "):";
      for (const auto& s : r.errors) out += "\n  " + s;
      out += "\n";
    }
    return out;
  }
  out += r.bytes_model == "buffers"
             ? "effective bandwidth = bytes of the golden case's buffers (each read once, each written once) / median "
               "launch time\n"
             : "effective bandwidth = minimum bytes read + written / median launch time\n";
  if (r.rounds > 1)
    out += "ms = median of " + std::to_string(r.rounds) + " rounds' medians (" +
           (r.isolation == "process" ? std::string("each backend in a process of its own, taking turns")
                                     : std::string("the backends taking turns in one process")) +
           "); rounds = the lowest and highest round, spread = their difference / ms\n";
  out +=
      "roof = triad c = a + s*b (OpenMP: as compiled, in 256-bit vectors, in place, with non-temporal stores; OpenCL: "
      "also\n"
      "       a device-to-device buffer copy) in this run, before the kernels, after each and after the last\n"
      "       (the best counts)\n";
  for (const auto& roof : r.roofs) {
    std::string methods;
    if (roof.method_gbps.size() > 1)
      for (const auto& [how, gbps] : roof.method_gbps)
        methods += (methods.empty() ? "; " : ", ") + how + " " + fmt("%.1f", gbps);
    out += "roof  " + pad(roof.backend, 16) + pad(fmt("%.1f", roof.gbps), 7, true) + " GB/s  (" + roof.method + ", " +
           fmt("%.0f", double(roof.bytes) / 1048576.0) + " MiB per launch" + methods +
           (roof.samples > 1 ? "; best of " + std::to_string(roof.samples) + ", lowest " + fmt("%.1f", roof.gbps_lowest)
                             : std::string()) +
           "; " + roof.device + ")\n";
    if (roof.empty_launch_us > 0)
      out += "      " + pad(roof.backend, 16) + " a launch that does nothing takes " +
             fmt("%.1f", roof.empty_launch_us) + " us (device time, part of every kernel's)\n";
    if (roof.read_gbps > 0 && roof.gbps > 0)
      out += "      " + pad(roof.backend, 16) + " reading alone (a + b summed, no stores) " +
             fmt("%.1f", roof.read_gbps) + " GB/s = " + fmt("%.0f", 100.0 * roof.read_gbps / roof.gbps) +
             " % of the roof: what a kernel that only streams in (a mat-vec) can read here\n";
  }
  out += "\n";
  // A golden case's name beside its kernel.
  auto label = [](const BenchRow& row) {
    return row.case_name.empty() ? row.kernel : row.kernel + " (" + row.case_name + ")";
  };
  size_t kw = 6;
  for (const auto& row : r.rows) kw = std::max(kw, label(row).size());
  const bool rounds = r.rounds > 1;
  out += pad("kernel", kw + 2) + pad("backend", 16) + pad("ms", 9, true) + "  " + pad("[p10, p90]", 18) +
         (rounds ? pad("rounds", 18) + pad("spread", 7, true) + "  " : std::string()) + pad("n", 5, true) +
         pad("MB", 8, true) + pad("GB/s", 8, true) + pad("roof", 7, true) + pad("vs PoCL", 9, true) +
         (rounds ? "  per round" : "") + "\n";
  std::string last;
  for (const auto& row : r.rows) {
    std::string spread = "[" + ms_text(row.ms_p10) + ", " + ms_text(row.ms_p90) + "]";
    std::string round_cols;
    if (rounds) {
      std::string range = "-";
      if (!row.round_ms.empty()) {
        auto [mn, mx] = std::minmax_element(row.round_ms.begin(), row.round_ms.end());
        range = "[" + ms_text(*mn) + ", " + ms_text(*mx) + "]";
      }
      round_cols = pad(range, 18) + pad(fmt("%.0f%%", row.spread() * 100), 7, true) + "  ";
    }
    std::string ratio_range;
    if (rounds && !row.vs_pocl_rounds.empty()) {
      auto [mn, mx] = std::minmax_element(row.vs_pocl_rounds.begin(), row.vs_pocl_rounds.end());
      ratio_range = "  " + fmt("%.2f", *mn) + "-" + fmt("%.2fx", *mx);
    }
    out += pad(row.kernel == last ? "" : label(row), kw + 2) + pad(row.backend(), 16) + pad(ms_text(row.ms), 9, true) +
           "  " + pad(spread, 18) + round_cols + pad(std::to_string(row.repeats), 5, true) +
           pad(fmt("%.1f", double(row.bytes) / 1e6), 8, true) + pad(fmt("%.1f", row.gbps), 8, true) +
           pad(row.roof_fraction ? fmt("%.0f%%", *row.roof_fraction * 100) : "-", 7, true) +
           pad(row.vs_pocl ? fmt("%.2fx", *row.vs_pocl) : "-", 9, true) + ratio_range + "\n";
    last = row.kernel;
  }
  std::set<std::string> backends;
  for (const auto& row : r.rows) backends.insert(row.backend());
  bool first = true;
  for (const auto& b : backends) {
    if (b == "opencl/pocl") continue;
    auto g = geomean_vs_pocl(r, b);
    if (!g) continue;
    size_t n = 0;
    for (const auto& row : r.rows) n += row.backend() == b && row.vs_pocl;
    out += std::string(first ? "\n" : "") + "geometric mean vs PoCL: " + b + " " + fmt("%.2fx", *g) + " over " +
           std::to_string(n) + " kernels\n";
    first = false;
  }
  for (const auto& w : r.warnings) out += "\nwarning: " + w + "\n";
  if (!r.skipped.empty()) {
    out += "\nskipped (" + std::to_string(r.skipped.size()) + "):";
    for (const auto& s : r.skipped) out += "\n  " + s;
    out += "\n";
  }
  if (!r.errors.empty()) {
    out += "\nerrors (" + std::to_string(r.errors.size()) + "):";
    for (const auto& s : r.errors) out += "\n  " + s;
    out += "\n";
  }
  return out;
}

std::string format_bench_json(const BenchReport& r) { return base_json(r, false).dump(2) + "\n"; }

std::string format_plot_json(const BenchReport& r) { return base_json(r, true).dump(2) + "\n"; }

}  // namespace mslport::bench
