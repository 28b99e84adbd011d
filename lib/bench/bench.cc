#include "bench/bench.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "bench/cases.h"
#include "bench/golden_cases.h"
#include "bench/stats.h"
#include "mslport/openmp_rt.h"
#include "runtime/bench_support.h"

namespace mslport::bench {

namespace fs = std::filesystem;

std::vector<double> time_launches(const std::function<double(size_t)>& launch, size_t sets, const TimingPlan& plan) {
  sets = std::max<size_t>(sets, 1);
  size_t next = 0;
  double last = 0;
  for (int i = 0; i < std::max(plan.warmup, 1); ++i) last = launch(next++ % sets);
  int n = plan.repeats;
  if (n <= 0) {
    double want = last > 0 ? std::ceil(plan.target_seconds / last) : plan.max_repeats;
    n = static_cast<int>(std::clamp<double>(want, plan.min_repeats, plan.max_repeats));
  }
  std::vector<double> out;
  out.reserve(n);
  for (int i = 0; i < n; ++i) out.push_back(launch(next++ % sets));
  return out;
}

std::string short_platform_name(const std::string& name) {
  std::string l;
  for (char c : name) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (l.find("portable computing language") != std::string::npos || l.find("pocl") != std::string::npos) return "pocl";
  if (l.find("nvidia") != std::string::npos) return "nvidia";
  std::string w;
  for (char c : l) {
    if (std::isalnum(static_cast<unsigned char>(c))) w += c;
    else if (!w.empty()) break;
  }
  return w.empty() ? "opencl" : w;
}

namespace {

// c = a + s*b with OpenMP, built and loaded like an emitted module (same
// compiler, flags and OpenMP runtime as the kernels it is the roof for), in
// four forms; the fastest is the roof. The compiler's own loop is not
// always the fastest way to stream: on the AMD EPYC (Zen 4) VM its 512-bit
// loop reached 23-25 GB/s where 256-bit vectors or non-temporal stores
// reached 31-34 (and PoCL's triad 30-34 in the same bench runs), so a roof
// of that loop alone let plain kernels pass 100 %. In place (c += s*b) the
// same VM moved 43 GB/s (a decode step of linear attention, which updates
// its state in place, ran at 47-55 GB/s against a 35 GB/s roof without it).
const char* kOpenMpTriad =
    R"CPP(// mslport bench: the OpenMP memory roof, c[i] = a[i] + s * b[i].
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include "mslport/kernel_abi.h"
#if defined(__AVX__)
#include <immintrin.h>
#endif

          struct Triad {
            float* c;
            const float* x;
            const float* y;
            float s;
            int64_t n;
            explicit Triad(const mslport_args* a)
                : c(static_cast<float*>(a->buffers[0])),
                  x(static_cast<const float*>(a->buffers[1])),
                  y(static_cast<const float*>(a->buffers[2])),
                  s(*static_cast<const float*>(a->buffers[3])),
                  n(int64_t(a->buffer_bytes[0] / sizeof(float))) {}
          };

          // The loop as the compiler vectorises it.
          extern "C" int mslport_bench_triad(const mslport_args* a, const mslport_dispatch*, char*, size_t) {
            const Triad t(a);
            float* __restrict c = t.c;
            const float* __restrict x = t.x;
            const float* __restrict y = t.y;
#pragma omp parallel for simd schedule(static)
            for (int64_t i = 0; i < t.n; ++i) c[i] = x[i] + t.s * y[i];
            return 0;
          }

          // 256-bit vectors, written out (the vectoriser does not widen them).
          typedef float mslport_f8 __attribute__((vector_size(32)));
          extern "C" int mslport_bench_triad_256(const mslport_args* a, const mslport_dispatch*, char*, size_t) {
            const Triad t(a);
            const int64_t nv = t.n / 8;
#pragma omp parallel for schedule(static)
            for (int64_t v = 0; v < nv; ++v) {
              mslport_f8 xv, yv;
              std::memcpy(&xv, t.x + 8 * v, sizeof xv);
              std::memcpy(&yv, t.y + 8 * v, sizeof yv);
              const mslport_f8 r = xv + t.s * yv;
              std::memcpy(t.c + 8 * v, &r, sizeof r);
            }
            for (int64_t i = nv * 8; i < t.n; ++i) t.c[i] = t.x[i] + t.s * t.y[i];
            return 0;
          }

          // In place, c[i] = c[i] + s * b[i]: the same bytes, but every line written
          // was just read, so nothing is fetched for the write alone (what a kernel
          // updating a buffer in place, e.g. a recurrent state, does).
          extern "C" int mslport_bench_triad_inplace(const mslport_args* a, const mslport_dispatch*, char*, size_t) {
            const Triad t(a);
            float* __restrict c = t.c;
            const float* __restrict y = t.y;
#pragma omp parallel for simd schedule(static)
            for (int64_t i = 0; i < t.n; ++i) c[i] = c[i] + t.s * y[i];
            return 0;
          }

          // Reading alone: the sum of a and b, no stores but one. Not a roof: what a
          // kernel that only streams in (a mat-vec's weights) can read here; on the
          // 2-core VM it read 62-76 % of the in-place triad in the same runs.
          extern "C" int mslport_bench_read(const mslport_args* a, const mslport_dispatch*, char*, size_t) {
            const Triad t(a);
            const float* __restrict x = t.x;
            const float* __restrict y = t.y;
            float s = 0.0f;
#pragma omp parallel for simd schedule(static) reduction(+ : s)
            for (int64_t i = 0; i < t.n; ++i) s += x[i] + y[i];
            t.c[0] = s;
            return 0;
          }

#if defined(__AVX__)
          // Non-temporal stores: c is written without being read into the cache first.
          extern "C" int mslport_bench_triad_nt(const mslport_args* a, const mslport_dispatch*, char* msg, size_t msg_len) {
            const Triad t(a);
            if (reinterpret_cast<uintptr_t>(t.c) % 32 != 0) {
              std::snprintf(msg, msg_len, "triad-nt: c is not 32-byte aligned");
              return 1;
            }
            const int64_t nv = t.n / 8;
            const __m256 s = _mm256_set1_ps(t.s);
#pragma omp parallel for schedule(static)
            for (int64_t v = 0; v < nv; ++v)
              _mm256_stream_ps(t.c + 8 * v, _mm256_add_ps(_mm256_loadu_ps(t.x + 8 * v),
                                                          _mm256_mul_ps(s, _mm256_loadu_ps(t.y + 8 * v))));
            _mm_sfence();
            for (int64_t i = nv * 8; i < t.n; ++i) t.c[i] = t.x[i] + t.s * t.y[i];
            return 0;
          }
#endif

#ifdef MSLPORT_RUNNER_MODULE
          static const mslport_kernel_info kTriadTable[] = {
              {"mslport_bench_triad", mslport_bench_triad},
              {"mslport_bench_triad_256", mslport_bench_triad_256},
              {"mslport_bench_triad_inplace", mslport_bench_triad_inplace},
              {"mslport_bench_read", mslport_bench_read},
#if defined(__AVX__)
              {"mslport_bench_triad_nt", mslport_bench_triad_nt},
#endif
          };
          extern "C" const mslport_kernel_info* mslport_module_kernels(int* count) {
            *count = int(sizeof kTriadTable / sizeof kTriadTable[0]);
            return kTriadTable;
          }
#endif
)CPP";

constexpr uint64_t kMiB = uint64_t{1} << 20;

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string first_lines(const std::string& s, size_t n = 6) {
  std::istringstream in(s);
  std::string line, out;
  for (size_t i = 0; i < n && std::getline(in, line); ++i) out += (i ? "\n    " : "") + line;
  if (std::getline(in, line)) out += "\n    ...";
  return out;
}

struct Page {  // page-aligned host memory
  explicit Page(size_t bytes) {
    if (posix_memalign(&p, 4096, std::max<size_t>(bytes, 1)) != 0) throw std::bad_alloc();
  }
  ~Page() { std::free(p); }
  Page(const Page&) = delete;
  Page& operator=(const Page&) = delete;
  void* p = nullptr;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Times one OpenMP entry on the sets; throws on a non-zero status.
std::vector<double> time_openmp(mslport_entry_fn entry, const std::string& name, const std::vector<mslport_args>& args,
                                const mslport_dispatch& d, const TimingPlan& plan) {
  char msg[1024];
  auto launch = [&](size_t set) {
    msg[0] = 0;
    auto t0 = std::chrono::steady_clock::now();
    int rc = entry(&args[set], &d, msg, sizeof msg);
    double s = seconds_since(t0);
    if (rc != 0) throw std::runtime_error(name + " returned status " + std::to_string(rc) + ": " + msg);
    return s;
  };
  return time_launches(launch, args.size(), plan);
}

mslport_dispatch to_abi(const runtime::DispatchSpec& s) {
  mslport_dispatch d;
  for (int i = 0; i < 3; ++i) {
    d.threadgroups[i] = s.threadgroups[i];
    d.threads_per_tg[i] = s.threads_per_threadgroup[i];
    d.grid_threads[i] = s.grid_threads[i];
  }
  return d;
}

BenchRow make_row(const std::string& kernel, const std::string& target, const std::string& platform, const BenchCase& c,
                  const std::vector<double>& seconds, const std::vector<double>& round_ms) {
  Summary s = summarize(seconds);
  BenchRow r;
  r.kernel = kernel;
  r.target = target;
  r.platform = platform;
  r.description = c.description;
  r.case_name = c.case_name;
  r.bytes = c.min_bytes();
  r.repeats = s.n;
  r.round_ms = round_ms;
  r.ms = round_ms.size() > 1 ? median(round_ms) : s.median * 1e3;
  r.ms_p10 = s.p10 * 1e3;
  r.ms_p90 = s.p90 * 1e3;
  for (double x : seconds) r.launch_ms.push_back(x * 1e3);
  return r;
}

struct ClBackend {
  std::unique_ptr<runtime::OpenClBench> bench;
  std::string platform;  // short name
};

std::string cpu_name() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) {
      auto p = line.find(':');
      if (p != std::string::npos) return line.substr(line.find_first_not_of(' ', p + 1));
    }
  return "CPU";
}

// The kernels each module's X.bindings.json names: known without building
// anything. False when a module has no readable bindings (then only a build
// can tell).
bool kernels_from_bindings(const std::vector<runtime::EmittedFiles>& modules,
                           std::vector<std::set<std::string>>* per_module) {
  for (const auto& m : modules) {
    std::set<std::string> names;
    try {
      std::ifstream f(m.bindings);
      if (m.bindings.empty() || !f) return false;
      auto j = nlohmann::json::parse(f);
      for (const auto& k : j.at("kernels")) names.insert(k.at("name").get<std::string>());
    } catch (const std::exception&) {
      return false;
    }
    per_module->push_back(std::move(names));
  }
  return true;
}

// What to time: the kernels, and in golden mode each one's case.
struct KernelPlan {
  std::vector<std::string> kernels;
  std::map<std::string, runtime::GoldenCase> golden;
};

KernelPlan plan_kernels(const BenchRequest& req, const std::vector<std::string>& names, BenchReport* report) {
  KernelPlan p;
  if (!req.golden_dir.empty()) {
    std::vector<std::map<std::string, std::string>> sets;
    for (const auto& m : req.modules) sets.push_back(m.function_constants);
    auto runnable = [&](const runtime::GoldenCase& c) {
      return std::find(sets.begin(), sets.end(), c.function_constants) != sets.end();
    };
    GoldenSelection sel = select_golden_cases(req.golden_dir, names, req.kernels, req.case_name, runnable);
    report->errors.insert(report->errors.end(), sel.errors.begin(), sel.errors.end());
    report->skipped.insert(report->skipped.end(), sel.skipped.begin(), sel.skipped.end());
    for (const auto& [k, c] : sel.cases) p.kernels.push_back(k);
    p.golden = std::move(sel.cases);
    return p;
  }
  const std::set<std::string> in_sources(names.begin(), names.end());
  const std::vector<std::string> known = bench_kernels();
  const std::set<std::string> has_case(known.begin(), known.end());
  std::vector<std::string> todo;
  size_t errors = 0;
  if (req.kernels.empty()) {
    todo.assign(in_sources.begin(), in_sources.end());
  } else {
    for (const auto& k : req.kernels) {
      if (in_sources.count(k)) todo.push_back(k);
      else {
        report->errors.push_back(k + ": not a kernel of the sources");
        ++errors;
      }
    }
  }
  for (const auto& k : todo) {
    if (has_case.count(k)) p.kernels.push_back(k);
    else if (!req.kernels.empty()) {
      report->errors.push_back(k + ": no bench case (this build has them for " + std::to_string(known.size()) +
                               " kernels of the corpus); --golden DIR times it on its golden cases");
      ++errors;
    } else {
      report->skipped.push_back(k + ": no bench case");
    }
  }
  if (p.kernels.empty() && errors == 0)
    report->errors.push_back(
        "nothing to time: no kernel of the sources has a bench case; --golden DIR times any "
        "kernel on its golden cases");
  return p;
}

// The sources' kernels when known before building anything.
std::optional<std::vector<std::string>> known_kernels(const BenchRequest& req,
                                                      std::vector<std::set<std::string>>* module_kernels) {
  const bool from_bindings = kernels_from_bindings(req.modules, module_kernels);
  if (!req.source_kernels.empty()) return req.source_kernels;
  if (!from_bindings) return std::nullopt;
  std::set<std::string> all;
  for (const auto& names : *module_kernels) all.insert(names.begin(), names.end());
  return std::vector<std::string>(all.begin(), all.end());
}

}  // namespace

std::optional<std::vector<std::string>> kernels_to_time(const BenchRequest& req, BenchReport* report) {
  std::vector<std::set<std::string>> module_kernels;
  auto names = known_kernels(req, &module_kernels);
  if (!names) return std::nullopt;
  return plan_kernels(req, *names, report).kernels;
}

std::vector<std::string> busy_machine_warnings() {
  // Other processes on the machine make every number here noisy; say so.
  std::ifstream f("/proc/loadavg");
  double load = 0;
  unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  if (f >> load && load > 0.5 * cpus) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "the 1-minute load average was %.1f on %u CPUs before the run: other processes competed, "
                  "so times and ratios are noisy",
                  load, cpus);
    return {buf};
  }
  return {};
}

TimingPlan round_share(TimingPlan plan, int rounds) {
  rounds = std::max(rounds, 1);
  if (rounds == 1) return plan;
  if (plan.repeats > 0) plan.repeats = (plan.repeats + rounds - 1) / rounds;
  plan.min_repeats = std::max(2, (plan.min_repeats + rounds - 1) / rounds);
  return plan;
}

bool platform_selected(const runtime::OpenClDeviceInfo& d, const std::vector<std::string>& filters) {
  if (filters.empty()) return true;
  const std::string sname = short_platform_name(d.platform);
  for (const auto& f : filters)
    if (lower(d.platform).find(lower(f)) != std::string::npos || sname == lower(f)) return true;
  return false;
}

std::vector<NamedPlatform> selected_platforms(const std::vector<runtime::OpenClDeviceInfo>& devices,
                                              const std::vector<std::string>& filters) {
  std::vector<NamedPlatform> out;
  std::set<std::string> used;
  for (const auto& d : devices) {
    if (!platform_selected(d, filters)) continue;
    std::string name = short_platform_name(d.platform);
    if (!used.insert(name).second) name += std::to_string(d.platform_index);
    out.push_back({d, name});
  }
  return out;
}

BenchReport run_bench(const BenchRequest& request) {
  BenchReport report;
  BenchRequest req = request;
  const bool golden = !req.golden_dir.empty();
  report.bytes_model = golden ? "buffers" : "minimum";
  report.rounds = std::max(req.rounds, 1);
  // When the sources' kernels are known before building (the caller says,
  // or every module's bindings do), a kernel asked for that cannot be
  // timed is an error before minutes of building and measuring, nothing is
  // measured when nothing is to be timed, and only the modules holding the
  // kernels to time are built.
  std::vector<std::set<std::string>> module_kernels;
  std::optional<KernelPlan> kplan;
  if (auto names = known_kernels(req, &module_kernels)) {
    kplan = plan_kernels(req, *names, &report);
    if (kplan->kernels.empty()) {
      finish_report(&report);
      return report;
    }
    if (module_kernels.size() == req.modules.size()) {
      std::vector<runtime::EmittedFiles> needed;
      for (size_t i = 0; i < req.modules.size(); ++i) {
        bool wanted = false;
        for (const auto& k : kplan->kernels) {
          if (!module_kernels[i].count(k)) continue;
          auto g = kplan->golden.find(k);
          wanted =
              wanted || g == kplan->golden.end() || g->second.function_constants == req.modules[i].function_constants;
        }
        if (wanted) needed.push_back(req.modules[i]);
      }
      req.modules = needed;
    }
  }
  // Called after a CPU backend (OpenMP, or a CPU OpenCL device such as PoCL)
  // was timed, before another backend is: its idle workers spin for a while
  // (OpenMP: LLVM's KMP_BLOCKTIME, 200 ms; PoCL's pthread device likewise)
  // on the cores the next one needs. Measured on 16 cores with a pause after
  // OpenMP only: OpenMP's swiglu_fused 28 GB/s next to PoCL, 83 GB/s alone.
  // A fixed 250 ms pause was not always enough: three full runs on the H100
  // host each had 1-4 kernels where OpenMP ran 5-10x slower than in the
  // others (once PoCL 2x too); an OpenMP-only run had none, nor did the two
  // full runs with this pause, which lasts until the workers are idle.
  int busy_pauses = 0;  // pauses that ended with the workers still busy
  auto let_cpu_workers_sleep = [&] {
    if (!wait_until_threads_idle()) ++busy_pauses;
  };
  if (req.warn_if_busy) {
    auto w = busy_machine_warnings();
    report.warnings.insert(report.warnings.end(), w.begin(), w.end());
  }
  auto progress = [&](const std::string& s) {
    if (req.progress) req.progress(s);
  };
  const bool want_omp = std::count(req.targets.begin(), req.targets.end(), "openmp") > 0;
  const bool want_cl = std::count(req.targets.begin(), req.targets.end(), "opencl") > 0;
  std::error_code ec;
  fs::create_directories(req.build_dir, ec);

  // Kernel names in the sources, in order.
  std::vector<std::string> names;
  std::set<std::string> seen_names;
  auto add_name = [&](const std::string& n) {
    if (seen_names.insert(n).second) names.push_back(n);
  };

  // ---- OpenMP modules ----
  std::map<std::string, mslport_entry_fn> omp;
  // Every module's entries, to pick the one translated with a golden case's
  // function constants once the cases are known.
  std::map<std::string, std::vector<std::pair<std::map<std::string, std::string>, mslport_entry_fn>>> omp_all;
  if (want_omp) {
    for (const auto& m : req.modules) {
      if (m.cpp.empty()) continue;
      progress("compiling " + m.cpp);
      std::map<std::string, mslport_entry_fn> entries;
      std::string err;
      if (!runtime::load_openmp_entries(m.cpp, req.build_dir, &entries, &err)) {
        report.errors.push_back(m.source + " on openmp/cpu: " + first_lines(err));
        continue;
      }
      for (auto& [n, e] : entries) {
        omp_all[n].emplace_back(m.function_constants, e);
        add_name(n);
      }
    }
  }

  // ---- OpenCL devices ----
  std::vector<ClBackend> cls;
  if (want_cl) {
    for (const auto& m : req.modules) {
      if (m.bindings.empty()) continue;
      try {
        std::ifstream f(m.bindings);
        auto j = nlohmann::json::parse(f);
        for (const auto& k : j.at("kernels")) add_name(k.at("name").get<std::string>());
      } catch (const std::exception&) {
        // reported when the program is added
      }
    }
    std::string err;
    auto devices = runtime::list_opencl_devices(&err);
    if (devices.empty()) report.errors.push_back("opencl: " + (err.empty() ? "no OpenCL platform has a device" : err));
    // Named among every selected platform, also in a worker that times one
    // of them: two workers never report under one name.
    for (const auto& [d, sname] : selected_platforms(devices, req.platforms)) {
      if (req.platform_index >= 0 && d.platform_index != req.platform_index) continue;
      // NVIDIA: warp shuffles for SIMD-group functions, the emulation, or both.
      std::vector<std::pair<std::string, bool>> variants = {{sname, true}};
      if (lower(d.vendor).find("nvidia") != std::string::npos) {
        if (req.nvidia_shfl == "off") variants = {{sname + "-noshfl", false}};
        else if (req.nvidia_shfl == "both") variants = {{sname, true}, {sname + "-noshfl", false}};
      }
      for (const auto& [label, shfl] : variants) {
        auto b = runtime::OpenClBench::open(d.platform_index, &err, shfl);
        if (!b) {
          report.errors.push_back("opencl/" + label + ": " + err);
          continue;
        }
        bool any = false;
        for (const auto& m : req.modules) {
          if (m.cl.empty()) continue;
          progress("building " + m.cl + " on " + d.platform + " (" + b->info().build_options + ")");
          if (!b->add_program(m.cl, m.bindings, &err)) {
            report.errors.push_back(m.source + " on opencl/" + label + ": " + first_lines(err));
            continue;
          }
          any = true;
        }
        if (any || req.modules.empty()) cls.push_back({std::move(b), label});
      }
    }
    if (!req.platforms.empty() && req.platform_index < 0 && cls.empty() && devices.size()) {
      std::string names_seen;
      for (const auto& d : devices) names_seen += (names_seen.empty() ? "" : ", ") + d.platform;
      report.errors.push_back("opencl: no OpenCL platform matches the --platform filter (platforms: " + names_seen +
                              ")");
    }
  }

  if (!kplan) {
    kplan = plan_kernels(req, names, &report);
    if (kplan->kernels.empty()) {
      finish_report(&report);
      return report;
    }
  }
  for (const auto& [n, candidates] : omp_all) {
    auto g = kplan->golden.find(n);
    for (const auto& [set, entry] : candidates)
      if (g == kplan->golden.end() || g->second.function_constants == set) {
        omp.emplace(n, entry);
        break;
      }
  }

  // The caches the input sets and the roof arrays must overflow.
  uint64_t cpu_llc = runtime::cpu_last_level_cache_bytes();
  uint64_t cache = std::max<uint64_t>(cpu_llc, 32 * kMiB);
  for (const auto& b : cls) cache = std::max<uint64_t>(cache, b.bench->info().global_mem_cache_bytes);
  report.cache_bytes = cache;
  if (want_omp && !omp.empty()) {
    // The emitted kernels decide this in their own process (openmp_rt.h);
    // said here so a table can be read with it.
    const uint64_t t = mslport::stream_threshold_bytes();
    const char* mode = std::getenv("MSLPORT_STREAM_STORES");
    progress(std::string("openmp/cpu: non-temporal stores (MSLPORT_STREAM_STORES=") + (mode && *mode ? mode : "auto") +
             "): " +
             (t == 0              ? "always"
              : t == ~uint64_t{0} ? "never"
                                  : "launches storing >= " + std::to_string(t >> 20) + " MiB through a loop"));
  }

  TimingPlan roof_plan = req.plan;
  // A roof is the best of its samples, not a median over the machine's
  // swings, and each worker measures it in every round: 0.3 s will do.
  roof_plan.target_seconds = std::min(roof_plan.target_seconds, 0.3);
  if (roof_plan.repeats <= 0) roof_plan.min_repeats = std::max(roof_plan.min_repeats, 10);
  // Each triad array: at least 64 MiB and twice the largest cache.
  const size_t triad_n = std::max<uint64_t>(64 * kMiB, 2 * cache) / sizeof(float);
  const uint64_t triad_bytes = 3 * uint64_t{triad_n} * sizeof(float);

  // ---- roofs: measured before and after the kernels; the better one counts ----
  std::vector<std::pair<std::string, mslport_entry_fn>> omp_triads;  // method, entry
  mslport_entry_fn omp_read = nullptr;
  if (want_omp && !omp.empty()) {
    fs::path src = fs::path(req.build_dir) / "mslport_bench_triad.cpp";
    std::string text;
    {
      std::ifstream in(src, std::ios::binary);
      std::ostringstream ss;
      if (in) ss << in.rdbuf();
      text = ss.str();
    }
    if (text != kOpenMpTriad) std::ofstream(src, std::ios::binary) << kOpenMpTriad;
    std::map<std::string, mslport_entry_fn> entries;
    std::string err;
    if (!runtime::load_openmp_entries(src.string(), req.build_dir, &entries, &err) ||
        !entries.count("mslport_bench_triad"))
      report.errors.push_back("roof on openmp/cpu: " + first_lines(err));
    else {
      for (const auto& [method, entry] : openmp_triad_forms())
        if (entries.count(entry)) omp_triads.emplace_back(method, entries.at(entry));
      if (entries.count("mslport_bench_read")) omp_read = entries.at("mslport_bench_read");
    }
  }
  // `first`: also time an empty launch on each OpenCL backend (once a run).
  auto measure_roofs = [&](const char* when, bool first) {
    std::vector<Roof> out;
    if (!omp_triads.empty()) {
      try {
        Page a(triad_n * 4), b(triad_n * 4), c(triad_n * 4);
        std::fill_n(static_cast<float*>(a.p), triad_n, 1.0f);
        std::fill_n(static_cast<float*>(b.p), triad_n, 2.0f);
        std::fill_n(static_cast<float*>(c.p), triad_n, 0.0f);
        float s = 3.0f;
        mslport_args args;
        std::memset(&args, 0, sizeof args);
        args.buffers[0] = c.p;
        args.buffers[1] = a.p;
        args.buffers[2] = b.p;
        args.buffers[3] = &s;
        for (int i = 0; i < 3; ++i) args.buffer_bytes[i] = triad_n * 4;
        args.buffer_bytes[3] = 4;
        mslport_dispatch d{};
        Roof r;
        r.backend = "openmp/cpu";
        unsigned threads = std::thread::hardware_concurrency();
        const char* omp_env = std::getenv("OMP_NUM_THREADS");
        r.device = cpu_name() + ", " +
                   (omp_env && *omp_env ? std::string("OMP_NUM_THREADS=") + omp_env
                                        : std::to_string(threads) + " hardware threads");
        for (const auto& [method, entry] : omp_triads) {
          auto secs = time_openmp(entry, method, {args}, d, roof_plan);
          r.add(method, triad_bytes, median(secs) * 1e3);
          progress("roof openmp/cpu " + method + " (" + when + "): " + std::to_string(r.method_gbps[method]) + " GB/s");
        }
        if (omp_read) {
          auto secs = time_openmp(omp_read, "read", {args}, d, roof_plan);
          r.read_gbps = double(2 * uint64_t{triad_n} * sizeof(float)) / (median(secs) * 1e9);
          progress("openmp/cpu reading alone (" + std::string(when) + "): " + std::to_string(r.read_gbps) + " GB/s");
        }
        out.push_back(r);
      } catch (const std::exception& e) {
        report.errors.push_back(std::string("roof on openmp/cpu: ") + e.what());
      }
      if (!cls.empty()) let_cpu_workers_sleep();
    }
    for (auto& b : cls) {
      std::string backend = "opencl/" + b.platform;
      // Larger arrays on OpenCL devices (a GPU's launch overhead and its
      // caches are then small next to the traffic).
      size_t n = std::max<size_t>(triad_n, 256 * kMiB / sizeof(float));
      uint64_t mem = b.bench->info().global_mem_bytes;
      if (mem && 3 * n * 4 > mem / 2) n = static_cast<size_t>(mem / 2 / 12);
      // The triad, then a device-to-device copy of as many bytes as the
      // triad touches (a GPU's copy engine or copy kernel may beat a triad
      // kernel); the faster one is the roof.
      Roof r;
      r.backend = backend;
      r.device = b.bench->info().platform + " / " + b.bench->info().device;
      const uint64_t copy_bytes = 3 * uint64_t{n} * 4 / 2;
      for (const char* method : {"triad", "copy"}) {
        std::string err;
        bool triad = std::string(method) == "triad";
        auto launch = triad ? b.bench->prepare_triad(n, 1, &err) : b.bench->prepare_copy(copy_bytes, 1, &err);
        if (!launch) {
          report.errors.push_back(std::string("roof (") + method + ") on " + backend + ": " + first_lines(err));
          continue;
        }
        try {
          auto secs = time_launches([&](size_t s) { return launch->run(s); }, launch->sets(), roof_plan);
          const uint64_t bytes = triad ? 3 * uint64_t{n} * 4 : 2 * copy_bytes;
          r.add(method, bytes, median(secs) * 1e3);
          progress("roof " + backend + " " + method + " (" + when + "): " + std::to_string(r.method_gbps[method]) +
                   " GB/s");
        } catch (const std::exception& e) {
          report.errors.push_back(std::string("roof (") + method + ") on " + backend + ": " + e.what());
        }
      }
      if (first) {
        std::string err;
        auto empty = b.bench->prepare_empty(&err);
        if (!empty) {
          report.errors.push_back("empty launch on " + backend + ": " + first_lines(err));
        } else {
          try {
            r.empty_launch_us = median(time_launches([&](size_t s) { return empty->run(s); }, 1, roof_plan)) * 1e6;
            progress("empty launch " + backend + ": " + std::to_string(r.empty_launch_us) + " us");
          } catch (const std::exception& e) {
            report.errors.push_back("empty launch on " + backend + ": " + e.what());
          }
        }
      }
      if (r.gbps > 0) out.push_back(r);
      if (b.bench->info().is_cpu && (want_omp || cls.size() > 1)) let_cpu_workers_sleep();
    }
    return out;
  };
  // Taking turns with other worker processes (bench/turns.h): before each
  // step, this process's CPU workers are let sleep first, so that the next
  // process's step does not share the cores with them.
  const bool uses_cpu = (want_omp && !omp.empty()) ||
                        std::any_of(cls.begin(), cls.end(), [](const ClBackend& b) { return b.bench->info().is_cpu; });
  auto take_turn = [&](const TurnStep& step) {
    if (!req.turn) return;
    if (uses_cpu) let_cpu_workers_sleep();
    req.turn(step);
  };
  take_turn({0, "", 0});
  report.roofs = measure_roofs("before", true);
  for (auto& r : report.roofs) r.gbps_lowest = r.gbps;
  // Later measurements: the best counts (what the memory delivers when the
  // machine's other tenants leave it alone), the lowest is reported too.
  auto remeasure_roofs = [&](const char* when) {
    if (report.roofs.empty()) return;
    for (const Roof& again : measure_roofs(when, false)) {
      for (Roof& r : report.roofs) {
        if (r.backend != again.backend) continue;
        ++r.samples;
        r.gbps_lowest = std::min(r.gbps_lowest, again.gbps);
        for (const auto& [method, gbps] : again.method_gbps)
          r.method_gbps[method] = std::max(r.method_gbps[method], gbps);
        r.read_gbps = std::max(r.read_gbps, again.read_gbps);
        r.add(again.method, again.bytes, again.ms);  // the best so far stays, or this one
      }
    }
  };

  // ---- kernels ----
  const std::vector<std::string>& todo = kplan->kernels;
  bool measured_since_roof = false;
  for (const auto& kernel : todo) {
    take_turn({1, kernel, -1});
    if (measured_since_roof && req.roofs_between_kernels) {  // the last kernel's input sets are freed by now
      remeasure_roofs("between kernels");
      measured_since_roof = false;
    }
    std::optional<BenchCase> bc;
    if (golden) {
      try {
        bc = bench_case_from_golden(kplan->golden.at(kernel));
      } catch (const std::exception& e) {
        report.errors.push_back(kernel + ": " + e.what());
        continue;
      }
    } else {
      bc = bench_case(kernel);
    }
    if (!bc) {
      report.skipped.push_back(kernel + ": no bench case");
      continue;
    }
    const BenchCase& c = *bc;
    size_t nsets = input_sets_for(c.set_bytes(), cache);
    progress(kernel + ": " + c.description + "; " + std::to_string(nsets) + " input sets of " +
             std::to_string(c.set_bytes() / kMiB) + " MiB");
    std::vector<std::unique_ptr<InputSet>> sets;
    try {
      for (size_t s = 0; s < nsets; ++s) sets.push_back(std::make_unique<InputSet>(c, s));
    } catch (const std::exception& e) {
      report.errors.push_back(kernel + ": cannot allocate the input sets: " + e.what());
      continue;
    }
    // Every backend's launches in rounds, taking turns (A B A B A B): this
    // machine's bandwidth moves with its other tenants over seconds, and
    // one backend timed entirely before the other would see a different
    // machine. Each row keeps all its rounds' launches.
    struct Runner {
      std::string target, platform;
      bool on_cpu;
      std::function<std::vector<double>(const TimingPlan&)> time;
      std::vector<double> secs;
      std::vector<double> round_ms;  // each round's median
      bool failed = false;
    };
    std::vector<Runner> runners;
    std::vector<mslport_args> omp_args(nsets);
    auto omp_it = omp.find(kernel);
    if (want_omp && omp_it != omp.end()) {
      for (size_t s = 0; s < nsets; ++s) {
        std::memset(&omp_args[s], 0, sizeof omp_args[s]);
        for (size_t i = 0; i < c.buffers.size(); ++i) {
          omp_args[s].buffers[c.buffers[i].index] = sets[s]->data(i);
          omp_args[s].buffer_bytes[c.buffers[i].index] = c.buffers[i].bytes;
        }
        for (const auto& t : c.threadgroup_memory) omp_args[s].threadgroup_bytes[t.index] = t.bytes;
      }
      mslport_entry_fn entry = omp_it->second;
      const mslport_dispatch d = to_abi(c.dispatch);
      runners.push_back({"openmp", "cpu", true, [&, entry, d](const TimingPlan& plan) {
                           return time_openmp(entry, kernel, omp_args, d, plan);
                         }});
    }
    std::vector<std::unique_ptr<runtime::ClLaunch>> launches;
    for (auto& b : cls) {
      if (!b.bench->has_kernel(kernel)) continue;
      std::vector<runtime::HostSet> host(nsets);
      for (size_t s = 0; s < nsets; ++s)
        for (size_t i = 0; i < c.buffers.size(); ++i)
          host[s].push_back({c.buffers[i].index, sets[s]->data(i), c.buffers[i].bytes});
      std::string err;
      auto launch = b.bench->prepare(kernel, c.dispatch, c.threadgroup_memory, host, &err);
      if (!launch) {
        report.errors.push_back(kernel + " on opencl/" + b.platform + ": " + first_lines(err));
        continue;
      }
      runtime::ClLaunch* l = launch.get();
      launches.push_back(std::move(launch));
      runners.push_back({"opencl", b.platform, b.bench->info().is_cpu, [l](const TimingPlan& plan) {
                           return time_launches([&](size_t s) { return l->run(s); }, l->sets(), plan);
                         }});
    }
    const int kRounds = report.rounds;
    TimingPlan plan = round_share(req.plan, kRounds);  // a round's share
    for (int round = 0; round < kRounds; ++round) {
      take_turn({1, kernel, round});
      if (round > 0) plan.warmup = 1;
      for (auto& r : runners) {
        if (r.failed) continue;
        try {
          auto secs = r.time(plan);
          r.secs.insert(r.secs.end(), secs.begin(), secs.end());
          r.round_ms.push_back(median(secs) * 1e3);
        } catch (const std::exception& e) {
          report.errors.push_back(kernel + " on " + r.target + "/" + r.platform + ": " + e.what());
          r.failed = true;
        }
        if (r.on_cpu && runners.size() > 1) let_cpu_workers_sleep();
      }
    }
    for (auto& r : runners) {
      if (r.failed) continue;
      report.rows.push_back(make_row(kernel, r.target, r.platform, c, r.secs, r.round_ms));
      progress("  " + r.target + "/" + r.platform + ": " + std::to_string(report.rows.back().ms) + " ms");
    }
    measured_since_roof = true;
  }
  take_turn({2, "", 0});
  remeasure_roofs("after");
  if (busy_pauses > 0)
    report.warnings.push_back(std::to_string(busy_pauses) +
                              " pause(s) between backends ended with this process's CPU workers still busy after 2 s: "
                              "the next backend shared the cores");
  finish_report(&report);
  return report;
}

bool wait_until_threads_idle(int min_ms, int max_ms) {
  auto cpu_seconds = [] {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
  };
  const auto start = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::milliseconds(min_ms));
  constexpr int kWindowMs = 50;
  // Two quiet windows in a row: on a loaded machine a spinning worker may
  // get no core for one window and look idle.
  int quiet = 0;
  while (seconds_since(start) * 1e3 < max_ms) {
    const double cpu0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(kWindowMs));
    // This thread sleeps: what the process used meanwhile is its workers'.
    quiet = cpu_seconds() - cpu0 < 0.05 * seconds_since(t0) ? quiet + 1 : 0;
    if (quiet == 2) return true;
  }
  return false;
}

const char* openmp_triad_source() { return kOpenMpTriad; }

const std::vector<std::pair<std::string, std::string>>& openmp_triad_forms() {
  static const std::vector<std::pair<std::string, std::string>> forms = {
      {"triad", "mslport_bench_triad"},
      {"triad-256", "mslport_bench_triad_256"},
      {"triad-inplace", "mslport_bench_triad_inplace"},
      {"triad-nt", "mslport_bench_triad_nt"}};
  return forms;
}

}  // namespace mslport::bench
