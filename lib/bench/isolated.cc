#include "bench/isolated.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "bench/stats.h"
#include "bench/turns.h"
#include "runtime/bench_support.h"
#include "support/atomic_file.h"
#include "support/subprocess.h"

namespace mslport::bench {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string self_executable(std::string* error) {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    if (error) *error = "cannot find this program's path (/proc/self/exe): " + ec.message();
    return "";
  }
  return p.string();
}

// ---- request ----

std::string request_to_json(const BenchRequest& r) {
  json j;
  j["modules"] = json::array();
  for (const auto& m : r.modules)
    j["modules"].push_back({{"source", m.source},
                            {"cpp", m.cpp},
                            {"cl", m.cl},
                            {"bindings", m.bindings},
                            {"function_constants", m.function_constants}});
  j["targets"] = r.targets;
  j["platforms"] = r.platforms;
  j["platform_index"] = r.platform_index;
  j["kernels"] = r.kernels;
  j["nvidia_shfl"] = r.nvidia_shfl;
  j["plan"] = {{"warmup", r.plan.warmup},
               {"repeats", r.plan.repeats},
               {"target_seconds", r.plan.target_seconds},
               {"min_repeats", r.plan.min_repeats},
               {"max_repeats", r.plan.max_repeats}};
  j["rounds"] = r.rounds;
  j["roofs_between_kernels"] = r.roofs_between_kernels;
  j["warn_if_busy"] = r.warn_if_busy;
  j["golden_dir"] = r.golden_dir;
  j["case_name"] = r.case_name;
  j["source_kernels"] = r.source_kernels;
  j["build_dir"] = r.build_dir;
  return j.dump(1);
}

bool request_from_json(const std::string& text, BenchRequest* r, std::string* error) {
  try {
    json j = json::parse(text);
    r->modules.clear();
    for (const auto& m : j.at("modules")) {
      runtime::EmittedFiles f;
      f.source = m.at("source").get<std::string>();
      f.cpp = m.at("cpp").get<std::string>();
      f.cl = m.at("cl").get<std::string>();
      f.bindings = m.at("bindings").get<std::string>();
      f.function_constants = m.at("function_constants").get<std::map<std::string, std::string>>();
      r->modules.push_back(std::move(f));
    }
    r->targets = j.at("targets").get<std::vector<std::string>>();
    r->platforms = j.at("platforms").get<std::vector<std::string>>();
    r->platform_index = j.at("platform_index").get<int>();
    r->kernels = j.at("kernels").get<std::vector<std::string>>();
    r->nvidia_shfl = j.at("nvidia_shfl").get<std::string>();
    const json& p = j.at("plan");
    r->plan.warmup = p.at("warmup").get<int>();
    r->plan.repeats = p.at("repeats").get<int>();
    r->plan.target_seconds = p.at("target_seconds").get<double>();
    r->plan.min_repeats = p.at("min_repeats").get<int>();
    r->plan.max_repeats = p.at("max_repeats").get<int>();
    r->rounds = j.at("rounds").get<int>();
    r->roofs_between_kernels = j.at("roofs_between_kernels").get<bool>();
    r->warn_if_busy = j.at("warn_if_busy").get<bool>();
    r->golden_dir = j.at("golden_dir").get<std::string>();
    r->case_name = j.at("case_name").get<std::string>();
    r->source_kernels = j.at("source_kernels").get<std::vector<std::string>>();
    r->build_dir = j.at("build_dir").get<std::string>();
  } catch (const std::exception& e) {
    if (error) *error = std::string("bench request: ") + e.what();
    return false;
  }
  return true;
}

// ---- report ----

namespace {

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

std::string report_to_json(const BenchReport& r) {
  json j;
  j["roofs"] = json::array();
  for (const auto& x : r.roofs)
    j["roofs"].push_back({{"backend", x.backend},
                          {"device", x.device},
                          {"bytes", x.bytes},
                          {"ms", x.ms},
                          {"gbps", x.gbps},
                          {"samples", x.samples},
                          {"gbps_lowest", x.gbps_lowest},
                          {"method", x.method},
                          {"method_gbps", x.method_gbps},
                          {"empty_launch_us", x.empty_launch_us},
                          {"read_gbps", x.read_gbps}});
  j["rows"] = json::array();
  for (const auto& x : r.rows)
    j["rows"].push_back({{"kernel", x.kernel},
                         {"target", x.target},
                         {"platform", x.platform},
                         {"description", x.description},
                         {"case_name", x.case_name},
                         {"bytes", x.bytes},
                         {"repeats", x.repeats},
                         {"ms", x.ms},
                         {"ms_p10", x.ms_p10},
                         {"ms_p90", x.ms_p90},
                         {"round_ms", x.round_ms},
                         {"launch_ms", x.launch_ms},
                         {"gbps", x.gbps},
                         {"roof_fraction", opt(x.roof_fraction)},
                         {"vs_pocl", opt(x.vs_pocl)}});
  j["skipped"] = r.skipped;
  j["errors"] = r.errors;
  j["warnings"] = r.warnings;
  j["cache_bytes"] = r.cache_bytes;
  j["rounds"] = r.rounds;
  j["isolation"] = r.isolation;
  j["bytes_model"] = r.bytes_model;
  return j.dump();
}

bool report_from_json(const std::string& text, BenchReport* r, std::string* error) {
  try {
    json j = json::parse(text);
    *r = BenchReport{};
    for (const auto& x : j.at("roofs")) {
      Roof f;
      f.backend = x.at("backend").get<std::string>();
      f.device = x.at("device").get<std::string>();
      f.bytes = x.at("bytes").get<uint64_t>();
      f.ms = x.at("ms").get<double>();
      f.gbps = x.at("gbps").get<double>();
      f.samples = x.at("samples").get<int>();
      f.gbps_lowest = x.at("gbps_lowest").get<double>();
      f.method = x.at("method").get<std::string>();
      f.method_gbps = x.at("method_gbps").get<std::map<std::string, double>>();
      f.empty_launch_us = x.at("empty_launch_us").get<double>();
      f.read_gbps = x.at("read_gbps").get<double>();
      r->roofs.push_back(std::move(f));
    }
    for (const auto& x : j.at("rows")) {
      BenchRow w;
      w.kernel = x.at("kernel").get<std::string>();
      w.target = x.at("target").get<std::string>();
      w.platform = x.at("platform").get<std::string>();
      w.description = x.at("description").get<std::string>();
      w.case_name = x.at("case_name").get<std::string>();
      w.bytes = x.at("bytes").get<uint64_t>();
      w.repeats = x.at("repeats").get<size_t>();
      w.ms = x.at("ms").get<double>();
      w.ms_p10 = x.at("ms_p10").get<double>();
      w.ms_p90 = x.at("ms_p90").get<double>();
      w.round_ms = x.at("round_ms").get<std::vector<double>>();
      w.launch_ms = x.at("launch_ms").get<std::vector<double>>();
      w.gbps = x.at("gbps").get<double>();
      if (!x.at("roof_fraction").is_null()) w.roof_fraction = x.at("roof_fraction").get<double>();
      if (!x.at("vs_pocl").is_null()) w.vs_pocl = x.at("vs_pocl").get<double>();
      r->rows.push_back(std::move(w));
    }
    r->skipped = j.at("skipped").get<std::vector<std::string>>();
    r->errors = j.at("errors").get<std::vector<std::string>>();
    r->warnings = j.at("warnings").get<std::vector<std::string>>();
    r->cache_bytes = j.at("cache_bytes").get<uint64_t>();
    r->rounds = j.at("rounds").get<int>();
    r->isolation = j.at("isolation").get<std::string>();
    r->bytes_model = j.at("bytes_model").get<std::string>();
  } catch (const std::exception& e) {
    if (error) *error = std::string("bench report: ") + e.what();
    return false;
  }
  return true;
}

// ---- merging ----

BenchReport merge_rounds(const std::vector<BenchReport>& parts, int rounds) {
  BenchReport out;
  out.rounds = std::max(rounds, 1);
  out.isolation = "process";
  std::set<std::string> seen_err, seen_warn, seen_skip;
  auto add_once = [](std::vector<std::string>* v, std::set<std::string>* seen, const std::string& s) {
    if (seen->insert(s).second) v->push_back(s);
  };
  std::map<std::pair<std::string, std::string>, size_t> row_at;  // (kernel, backend) -> index in out.rows
  std::map<std::string, size_t> roof_at;
  for (const auto& p : parts) {
    out.cache_bytes = std::max(out.cache_bytes, p.cache_bytes);
    out.bytes_model = p.bytes_model;
    for (const auto& e : p.errors) add_once(&out.errors, &seen_err, e);
    for (const auto& w : p.warnings) add_once(&out.warnings, &seen_warn, w);
    for (const auto& s : p.skipped) add_once(&out.skipped, &seen_skip, s);
    for (const auto& roof : p.roofs) {
      auto it = roof_at.find(roof.backend);
      if (it == roof_at.end()) {
        roof_at[roof.backend] = out.roofs.size();
        out.roofs.push_back(roof);
        continue;
      }
      Roof& r = out.roofs[it->second];
      r.samples += roof.samples;
      r.gbps_lowest = std::min(r.gbps_lowest, roof.gbps_lowest);
      for (const auto& [how, g] : roof.method_gbps) r.method_gbps[how] = std::max(r.method_gbps[how], g);
      r.read_gbps = std::max(r.read_gbps, roof.read_gbps);
      if (r.empty_launch_us <= 0) r.empty_launch_us = roof.empty_launch_us;
      if (roof.gbps > r.gbps) {
        r.gbps = roof.gbps;
        r.ms = roof.ms;
        r.bytes = roof.bytes;
        r.method = roof.method;
      }
    }
    for (const auto& row : p.rows) {
      auto key = std::make_pair(row.kernel, row.backend());
      auto it = row_at.find(key);
      if (it == row_at.end()) {
        row_at[key] = out.rows.size();
        BenchRow r = row;
        r.round_ms.clear();
        r.launch_ms.clear();
        out.rows.push_back(r);
        it = row_at.find(key);
      }
      BenchRow& r = out.rows[it->second];
      // A worker runs one round: its row's median is that round's.
      r.round_ms.push_back(row.ms);
      r.launch_ms.insert(r.launch_ms.end(), row.launch_ms.begin(), row.launch_ms.end());
    }
  }
  for (auto& r : out.rows) {
    std::vector<double> s(r.launch_ms);
    Summary sum = summarize(s);
    r.repeats = sum.n;
    r.ms_p10 = sum.p10;
    r.ms_p90 = sum.p90;
    r.ms = median(r.round_ms);
  }
  // Kernel by kernel; OpenMP first, then the OpenCL backends, in the order they appeared.
  std::stable_sort(out.rows.begin(), out.rows.end(), [](const BenchRow& a, const BenchRow& b) {
    if (a.kernel != b.kernel) return a.kernel < b.kernel;
    return (a.target == "openmp") > (b.target == "openmp");
  });
  finish_report(&out);
  return out;
}

// ---- the two sides ----

int bench_worker_main(const std::string& request_path, const std::string& result_path, int turns_fd, int steps_fd) {
  // A worker runs in a process group of its own (run_process): when the
  // bench that started it is stopped (a `timeout` around it, say), it must
  // not go on holding the cores and devices.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  std::string text, err;
  BenchRequest req;
  if (!read_file(request_path, &text) || !request_from_json(text, &req, &err)) {
    std::cerr << "bench worker: cannot read " << request_path << (err.empty() ? "" : ": " + err) << "\n";
    return 2;
  }
  // Each line with the seconds since the worker started: where a round's
  // time goes (building, filling input sets, roofs, launches).
  const auto started = std::chrono::steady_clock::now();
  req.progress = [started](const std::string& line) {
    char at[32];
    std::snprintf(at, sizeof at, "[%6.1f s] ",
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    std::cerr << at << line << "\n";
  };
  if (turns_fd >= 0 && steps_fd >= 0) {
    // Not for the compilers and OpenCL builds it starts.
    ::fcntl(turns_fd, F_SETFD, FD_CLOEXEC);
    ::fcntl(steps_fd, F_SETFD, FD_CLOEXEC);
    auto taking_turns = std::make_shared<bool>(true);
    req.turn = [=](const TurnStep& step) {
      // Without a coordinator (it was stopped) the run goes on alone.
      if (*taking_turns && !wait_for_turn(turns_fd, steps_fd, step)) *taking_turns = false;
    };
  }
  BenchReport report;
  try {
    report = run_bench(req);
  } catch (const std::exception& e) {
    report.errors.push_back(e.what());
  }
  if (!write_file_atomic(result_path, report_to_json(report), &err)) {
    std::cerr << "bench worker: " << err << "\n";
    return 2;
  }
  return 0;
}

namespace {

std::string last_lines(const std::string& s, size_t n) {
  std::vector<std::string> lines;
  std::istringstream in(s);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  std::string out;
  for (size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); ++i) out += "\n    " + lines[i];
  return out;
}

}  // namespace

BenchReport run_bench_isolated(const BenchRequest& request, const std::string& exe, const std::string& work_dir) {
  auto progress = [&](const std::string& s) {
    if (request.progress) request.progress(s);
  };
  const int rounds = std::max(request.rounds, 1);
  BenchReport planned;
  planned.rounds = rounds;
  planned.isolation = "process";
  planned.bytes_model = request.golden_dir.empty() ? "minimum" : "buffers";
  // Nothing to time: say why without starting a worker.
  BenchRequest base = request;
  if (auto todo = kernels_to_time(request, &planned)) {
    if (todo->empty()) {
      finish_report(&planned);
      return planned;
    }
    base.kernels = *todo;  // the workers need not repeat why the others are not timed
  }
  {
    // Checked once here: after a worker that kept every core busy, the load
    // average says nothing about other processes.
    std::vector<std::string> w = busy_machine_warnings();
    planned.warnings.insert(planned.warnings.end(), w.begin(), w.end());
  }
  base.roofs_between_kernels = false;
  base.warn_if_busy = false;

  std::error_code ec;
  fs::path dir = fs::path(work_dir) / ("rounds-" + std::to_string(::getpid()));
  fs::create_directories(dir, ec);
  // Each round: one worker per backend, started together, taking turns step
  // by step (bench/turns.h), so a kernel's backends are timed seconds apart
  // (openmp, opencl, the next kernel ...). Each round in new processes: a
  // process's own placement moves its times too (PoCL's moe_combine_residual
  // held 2.04-2.22 ms over five rounds in one process and 2.51-2.67 ms in
  // another), and only fresh processes average that out.
  base.rounds = 1;
  base.plan = round_share(request.plan, rounds);
  // One worker per target, and per OpenCL platform: PoCL's rounds spread
  // 14-30 % on the LM-head mat-vecs in a process that also held NVIDIA's
  // OpenCL, 7 % in one of its own (six fresh processes each, H100/H200 hosts).
  struct Side {
    std::string name;  // "openmp", "opencl", "opencl/pocl"
    BenchRequest request;
  };
  std::vector<Side> sides;
  for (const auto& target : request.targets) {
    BenchRequest one = base;
    one.targets = {target};
    std::vector<NamedPlatform> selected;
    if (target == "opencl") {
      std::string ignored;  // a worker reports it
      selected = selected_platforms(runtime::list_opencl_devices(&ignored), request.platforms);
    }
    if (selected.size() < 2) {
      sides.push_back({target, one});
      continue;
    }
    for (const auto& [d, name] : selected) {
      one.platform_index = d.platform_index;
      sides.push_back({target + "/" + name, one});
    }
  }
  std::vector<BenchReport> parts = {planned};
  for (int round = 1; round <= rounds; ++round) {
    const std::string tag = "round " + std::to_string(round) + "/" + std::to_string(rounds);
    std::vector<TurnWorker> workers;
    std::vector<std::string> targets, stems;
    for (size_t side = 0; side < sides.size(); ++side) {
      const std::string& target = sides[side].name;
      const BenchRequest& one = sides[side].request;
      const std::string stem = (dir / (std::to_string(round) + "-" + std::to_string(side))).string();
      std::string err;
      if (!write_file_atomic(stem + ".request.json", request_to_json(one), &err)) {
        BenchReport part;
        part.errors.push_back(target + " (" + tag + "): " + err);
        parts.push_back(part);
        continue;
      }
      workers.push_back({{exe, kWorkerFlag, stem + ".request.json", stem + ".result.json"}, stem + ".log"});
      targets.push_back(target);
      stems.push_back(stem);
    }
    std::string names;
    for (const auto& t : targets) names += (names.empty() ? "" : " and ") + t;
    progress(tag + ": " + names + ", a worker process each, taking turns");
    std::vector<ProcessResult> outcomes = run_taking_turns(workers, base.kernels);
    for (size_t i = 0; i < workers.size(); ++i) {
      std::string log, text, err;
      read_file(stems[i] + ".log", &log);
      {
        std::istringstream in(log);
        std::string line;
        while (std::getline(in, line)) progress("  " + line);
      }
      BenchReport part;
      part.rounds = 1;
      if (!outcomes[i].ok() || !read_file(stems[i] + ".result.json", &text) || !report_from_json(text, &part, &err)) {
        part = BenchReport{};
        part.errors.push_back(targets[i] + " (" + tag + "): the worker process failed (" +
                              display_command(workers[i].argv) + ": " +
                              (outcomes[i].ok() ? err : outcomes[i].describe()) + ")" + last_lines(log, 6));
      }
      parts.push_back(std::move(part));
    }
  }
  fs::remove_all(dir, ec);
  return merge_rounds(parts, rounds);
}

}  // namespace mslport::bench
