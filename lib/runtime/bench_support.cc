// Direct access to compiled kernels for `mslport bench` (see bench_support.h).
#define CL_TARGET_OPENCL_VERSION 120
#include "runtime/bench_support.h"

#include <CL/cl.h>
#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "mslport/openmp_rt.h"
#include "runtime/opencl_util.h"

namespace mslport::runtime {

namespace fs = std::filesystem;

// ---- OpenMP modules ----

namespace {

struct FindLoaded {
  std::string dir;     // absolute build dir
  std::string prefix;  // "<stem>-"
  std::string found;
};

int find_loaded_cb(struct dl_phdr_info* info, size_t, void* data) {
  auto* f = static_cast<FindLoaded*>(data);
  if (!info->dlpi_name || !*info->dlpi_name) return 0;
  fs::path p(info->dlpi_name);
  std::string name = p.filename().string();
  if (p.parent_path().lexically_normal().string() == f->dir && name.rfind(f->prefix, 0) == 0 && name.size() > 3 &&
      name.compare(name.size() - 3, 3, ".so") == 0) {
    f->found = p.string();
    return 1;
  }
  return 0;
}

}  // namespace

bool load_openmp_entries(const std::string& cpp_path, const std::string& build_dir,
                         std::map<std::string, mslport_entry_fn>* entries, std::string* error) {
  std::string dummy;
  if (!error) error = &dummy;
  // Compile and load through the runner's own path so the flags and cache are
  // the ones `mslport check` validated; then find the module it mapped.
  if (!load_openmp_module(cpp_path, build_dir, error)) return false;
  FindLoaded f;
  f.dir = fs::absolute(fs::path(build_dir)).lexically_normal().string();
  while (f.dir.size() > 1 && f.dir.back() == '/') f.dir.pop_back();
  f.prefix = fs::path(cpp_path).stem().string() + "-";
  dl_iterate_phdr(find_loaded_cb, &f);
  if (f.found.empty()) {
    *error = "the module compiled from " + cpp_path + " is not loaded from " + f.dir;
    return false;
  }
  void* handle = dlopen(f.found.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (!handle) {
    const char* e = dlerror();
    *error = "dlopen " + f.found + " failed: " + (e ? e : "unknown error");
    return false;
  }
  auto table_fn = reinterpret_cast<mslport_module_kernels_fn>(dlsym(handle, MSLPORT_MODULE_KERNELS_SYMBOL));
  if (!table_fn) {
    *error = f.found + " has no " MSLPORT_MODULE_KERNELS_SYMBOL;
    return false;
  }
  int count = 0;
  const mslport_kernel_info* table = table_fn(&count);
  for (int i = 0; table && i < count; ++i)
    if (table[i].name && table[i].entry) entries->emplace(table[i].name, table[i].entry);
  return true;
}

// The emitted kernels' own reading (their non-temporal stores' threshold).
uint64_t cpu_last_level_cache_bytes() { return mslport::last_level_cache_bytes(); }

// ---- OpenCL ----

namespace {

using nlohmann::json;

std::string cl_err(cl_int e) { return cl_error_name(e); }

void check(cl_int err, const std::string& what) {
  if (err != CL_SUCCESS) throw std::runtime_error(what + " failed: " + cl_err(err));
}

std::string platform_str(cl_platform_id p, cl_platform_info what) { return platform_info(p, what); }
std::string device_str(cl_device_id d, cl_device_info what) { return device_info_str(d, what); }

std::vector<cl_platform_id> platforms() {
  cl_uint np = 0;
  cl_int err = clGetPlatformIDs(0, nullptr, &np);
  if (err == -1001 || np == 0) throw std::runtime_error("no OpenCL platform found (is an ICD installed?)");
  check(err, "clGetPlatformIDs");
  std::vector<cl_platform_id> p(np);
  check(clGetPlatformIDs(np, p.data(), nullptr), "clGetPlatformIDs");
  return p;
}

cl_device_id first_device(cl_platform_id p) {
  cl_uint nd = 0;
  if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) return nullptr;
  std::vector<cl_device_id> d(nd);
  if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, d.data(), nullptr) != CL_SUCCESS) return nullptr;
  return d[0];
}

OpenClDeviceInfo describe(int index, cl_platform_id p, cl_device_id d) {
  OpenClDeviceInfo i;
  i.platform_index = index;
  i.platform = platform_str(p, CL_PLATFORM_NAME);
  i.device = device_str(d, CL_DEVICE_NAME);
  i.vendor = device_str(d, CL_DEVICE_VENDOR);
  cl_ulong v = 0;
  if (clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof v, &v, nullptr) == CL_SUCCESS)
    i.global_mem_cache_bytes = v;
  v = 0;
  if (clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof v, &v, nullptr) == CL_SUCCESS) i.global_mem_bytes = v;
  cl_device_type t = 0;
  if (clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, nullptr) == CL_SUCCESS) i.is_cpu = (t & CL_DEVICE_TYPE_CPU) != 0;
  return i;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

enum class ArgKind { Buffer, ThreadgroupMemory, SimdScratch, Grid };
struct Arg {
  ArgKind kind = ArgKind::Buffer;
  int index = -1;
  uint32_t bytes_per_thread = 0;
};
struct Binding {
  cl_program program = nullptr;  // owned by the OpenClBenchImpl
  std::vector<Arg> args;
};

// Reads X.bindings.json (format in docs/architecture.md).
std::map<std::string, std::vector<Arg>> parse_bindings(const std::string& text, const std::string& file) {
  std::map<std::string, std::vector<Arg>> out;
  json root;
  try {
    root = json::parse(text);
  } catch (const json::exception& e) {
    throw std::runtime_error(file + ": invalid JSON: " + e.what());
  }
  if (!root.is_object() || !root.contains("kernels") || !root["kernels"].is_array())
    throw std::runtime_error(file + ": field 'kernels' missing or not an array");
  for (const json& k : root["kernels"]) {
    if (!k.is_object() || !k.contains("name") || !k.contains("args") || !k["args"].is_array())
      throw std::runtime_error(file + ": a kernel lacks 'name' or 'args'");
    std::vector<Arg> args;
    for (const json& j : k["args"]) {
      Arg a;
      std::string kind = j.value("kind", "");
      if (kind == "buffer") a.kind = ArgKind::Buffer;
      else if (kind == "threadgroup_memory") a.kind = ArgKind::ThreadgroupMemory;
      else if (kind == "simd_scratch") a.kind = ArgKind::SimdScratch;
      else if (kind == "grid") a.kind = ArgKind::Grid;
      else throw std::runtime_error(file + ": unknown argument kind '" + kind + "'");
      if (j.contains("argument_buffer_offset"))
        throw std::runtime_error(file + ": kernel '" + k["name"].get<std::string>() +
                                 "' reads an argument buffer; those are not benchmarked yet");
      a.index = j.value("index", -1);
      a.bytes_per_thread = j.value("bytes_per_thread", 0u);
      args.push_back(a);
    }
    out.emplace(k["name"].get<std::string>(), std::move(args));
  }
  return out;
}

double event_seconds(cl_event e) {
  cl_ulong start = 0, end = 0;
  check(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
        "clGetEventProfilingInfo(START)");
  check(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
        "clGetEventProfilingInfo(END)");
  return end > start ? double(end - start) * 1e-9 : 0.0;
}

// Waits for `ev`, releases it and returns its device time.
double wait_and_time(cl_event ev, const std::string& name) {
  cl_int err = clWaitForEvents(1, &ev);
  double s = 0;
  if (err == CL_SUCCESS) {
    try {
      s = event_seconds(ev);
    } catch (...) {
      clReleaseEvent(ev);
      throw;
    }
  }
  clReleaseEvent(ev);
  check(err, "clWaitForEvents(" + name + ")");
  return s;
}

class ClLaunchImpl : public ClLaunch {
 public:
  ClLaunchImpl(cl_command_queue q, std::string name, size_t dims, std::array<size_t, 3> global,
               std::array<size_t, 3> local, bool use_local)
      : queue_(q), name_(std::move(name)), dims_(dims), global_(global), local_(local), use_local_(use_local) {}
  ~ClLaunchImpl() override {
    clFinish(queue_);
    for (cl_kernel k : kernels_) clReleaseKernel(k);
    for (cl_mem m : mems_) clReleaseMemObject(m);
  }
  size_t sets() const override { return kernels_.size(); }
  double run(size_t set) override {
    cl_event ev = nullptr;
    check(clEnqueueNDRangeKernel(queue_, kernels_.at(set), static_cast<cl_uint>(dims_), nullptr, global_.data(),
                                 use_local_ ? local_.data() : nullptr, 0, nullptr, &ev),
          "clEnqueueNDRangeKernel(" + name_ + ")");
    return wait_and_time(ev, name_);
  }
  std::vector<cl_kernel> kernels_;
  std::vector<cl_mem> mems_;

 private:
  cl_command_queue queue_;
  std::string name_;
  size_t dims_;
  std::array<size_t, 3> global_, local_;
  bool use_local_;
};

// clEnqueueCopyBuffer between two device buffers (the D2D copy roof).
class ClCopyImpl : public ClLaunch {
 public:
  ClCopyImpl(cl_command_queue q, size_t bytes) : queue_(q), bytes_(bytes) {}
  ~ClCopyImpl() override {
    clFinish(queue_);
    for (cl_mem m : mems_) clReleaseMemObject(m);
  }
  size_t sets() const override { return mems_.size() / 2; }
  double run(size_t set) override {
    cl_event ev = nullptr;
    check(clEnqueueCopyBuffer(queue_, mems_.at(2 * set), mems_.at(2 * set + 1), 0, 0, bytes_, 0, nullptr, &ev),
          "clEnqueueCopyBuffer");
    return wait_and_time(ev, "copy");
  }
  std::vector<cl_mem> mems_;  // (src, dst) per set

 private:
  cl_command_queue queue_;
  size_t bytes_;
};

const char* kTriadSource = R"CL(
__kernel void mslport_bench_triad(__global float* restrict c, __global const float* restrict a,
                                  __global const float* restrict b, const float s, const uint n) {
  const size_t i = get_global_id(0);
  if (i < n) c[i] = a[i] + s * b[i];
}
)CL";

class OpenClBenchImpl : public OpenClBench {
 public:
  OpenClBenchImpl(OpenClDeviceInfo info, cl_device_id dev, cl_context ctx, cl_command_queue q)
      : info_(std::move(info)), dev_(dev), ctx_(ctx), queue_(q) {}
  ~OpenClBenchImpl() override {
    clFinish(queue_);
    for (cl_program p : programs_) clReleaseProgram(p);
    clReleaseCommandQueue(queue_);
    clReleaseContext(ctx_);
  }
  const OpenClDeviceInfo& info() const override { return info_; }

  bool add_program(const std::string& cl_path, const std::string& bindings_path, std::string* error) override {
    try {
      auto bindings = parse_bindings(slurp(bindings_path), bindings_path);
      cl_program prog = build(slurp(cl_path), cl_path);
      for (auto& [name, args] : bindings) {
        if (kernels_.count(name)) continue;
        kernels_.emplace(name, Binding{prog, std::move(args)});
      }
      return true;
    } catch (const std::exception& e) {
      if (error) *error = e.what();
      return false;
    }
  }

  bool has_kernel(const std::string& name) const override { return kernels_.count(name) > 0; }

  std::unique_ptr<ClLaunch> prepare(const std::string& name, const DispatchSpec& d,
                                    const std::vector<ThreadgroupMemorySpec>& tg_mem, const std::vector<HostSet>& sets,
                                    std::string* error) override {
    try {
      auto it = kernels_.find(name);
      if (it == kernels_.end()) throw std::runtime_error("kernel '" + name + "' has no OpenCL binding");
      const Binding& b = it->second;
      std::array<size_t, 3> global{}, local{};
      for (int i = 0; i < 3; ++i) {
        local[i] = d.threads_per_threadgroup[i];
        global[i] = size_t{d.threadgroups[i]} * d.threads_per_threadgroup[i];
      }
      auto launch = std::make_unique<ClLaunchImpl>(queue_, name, 3, global, local, true);
      size_t tptg = local[0] * local[1] * local[2];
      for (size_t s = 0; s < sets.size(); ++s) {
        cl_int err = CL_SUCCESS;
        cl_kernel k = clCreateKernel(b.program, name.c_str(), &err);
        check(err, "clCreateKernel(" + name + ")");
        launch->kernels_.push_back(k);
        if (s == 0) {
          cl_uint nargs = 0;
          clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, nullptr);
          if (nargs != b.args.size())
            throw std::runtime_error("kernel '" + name + "' has " + std::to_string(nargs) +
                                     " arguments but its bindings list " + std::to_string(b.args.size()));
          size_t max_wg = 0;
          check(clGetKernelWorkGroupInfo(k, dev_, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, nullptr),
                "clGetKernelWorkGroupInfo");
          if (tptg > max_wg && reported_work_group_size_binds(dev_))
            throw std::runtime_error("threadgroup of " + std::to_string(tptg) +
                                     " threads exceeds the kernel's maximum work-group size " + std::to_string(max_wg));
        }
        std::map<int, cl_mem> by_index;
        for (const HostBinding& h : sets[s]) {
          cl_mem m = clCreateBuffer(ctx_, CL_MEM_READ_WRITE, std::max<size_t>(h.bytes, 4), nullptr, &err);
          check(err,
                "clCreateBuffer(" + std::to_string(h.bytes) + " bytes) for buffer(" + std::to_string(h.index) + ")");
          launch->mems_.push_back(m);
          if (h.bytes)
            check(clEnqueueWriteBuffer(queue_, m, CL_TRUE, 0, h.bytes, h.data, 0, nullptr, nullptr),
                  "clEnqueueWriteBuffer for buffer(" + std::to_string(h.index) + ")");
          by_index[h.index] = m;
        }
        for (size_t a = 0; a < b.args.size(); ++a) {
          const Arg& arg = b.args[a];
          cl_uint ai = static_cast<cl_uint>(a);
          std::string what = "clSetKernelArg(" + std::to_string(a) + ") of " + name;
          switch (arg.kind) {
            case ArgKind::Buffer: {
              auto m = by_index.find(arg.index);
              if (m == by_index.end())
                throw std::runtime_error("kernel '" + name + "' binds buffer(" + std::to_string(arg.index) +
                                         ") but the bench case has none");
              check(clSetKernelArg(k, ai, sizeof(cl_mem), &m->second), what);
              break;
            }
            case ArgKind::ThreadgroupMemory: {
              uint32_t bytes = 0;
              bool found = false;
              for (const auto& t : tg_mem)
                if (t.index == arg.index) bytes = t.bytes, found = true;
              if (!found)
                throw std::runtime_error("kernel '" + name + "' binds threadgroup(" + std::to_string(arg.index) +
                                         ") memory but the bench case gives none");
              check(clSetKernelArg(k, ai, std::max<size_t>(bytes, 4), nullptr), what);
              break;
            }
            case ArgKind::SimdScratch:
              check(clSetKernelArg(k, ai, std::max<size_t>(size_t{arg.bytes_per_thread} * tptg, 4), nullptr), what);
              break;
            case ArgKind::Grid: {
              cl_uint4 g;
              g.s[0] = d.grid_threads[0];
              g.s[1] = d.grid_threads[1];
              g.s[2] = d.grid_threads[2];
              g.s[3] = 0;
              check(clSetKernelArg(k, ai, sizeof g, &g), what);
              break;
            }
          }
        }
      }
      check(clFinish(queue_), "clFinish after uploading " + name + "'s buffers");
      return launch;
    } catch (const std::exception& e) {
      if (error) *error = e.what();
      return nullptr;
    }
  }

  std::unique_ptr<ClLaunch> prepare_triad(size_t n, size_t sets, std::string* error) override {
    try {
      if (!triad_) triad_ = build(kTriadSource, "<triad>");
      const size_t local = 256;
      std::array<size_t, 3> global{(n + local - 1) / local * local, 1, 1}, lsz{local, 1, 1};
      auto launch = std::make_unique<ClLaunchImpl>(queue_, "triad", 1, global, lsz, true);
      for (size_t s = 0; s < std::max<size_t>(sets, 1); ++s) {
        cl_int err = CL_SUCCESS;
        cl_kernel k = clCreateKernel(triad_, "mslport_bench_triad", &err);
        check(err, "clCreateKernel(triad)");
        launch->kernels_.push_back(k);
        cl_mem m[3];
        for (int i = 0; i < 3; ++i) {
          m[i] = clCreateBuffer(ctx_, CL_MEM_READ_WRITE, n * sizeof(float), nullptr, &err);
          check(err, "clCreateBuffer for the triad");
          launch->mems_.push_back(m[i]);
          float pattern = 1.0f + float(i);
          check(clEnqueueFillBuffer(queue_, m[i], &pattern, sizeof pattern, 0, n * sizeof(float), 0, nullptr, nullptr),
                "clEnqueueFillBuffer");
        }
        float scalar = 3.0f;
        cl_uint count = static_cast<cl_uint>(n);
        check(clSetKernelArg(k, 0, sizeof(cl_mem), &m[0]), "clSetKernelArg(triad c)");
        check(clSetKernelArg(k, 1, sizeof(cl_mem), &m[1]), "clSetKernelArg(triad a)");
        check(clSetKernelArg(k, 2, sizeof(cl_mem), &m[2]), "clSetKernelArg(triad b)");
        check(clSetKernelArg(k, 3, sizeof scalar, &scalar), "clSetKernelArg(triad s)");
        check(clSetKernelArg(k, 4, sizeof count, &count), "clSetKernelArg(triad n)");
      }
      check(clFinish(queue_), "clFinish after filling the triad arrays");
      return launch;
    } catch (const std::exception& e) {
      if (error) *error = e.what();
      return nullptr;
    }
  }

  std::unique_ptr<ClLaunch> prepare_empty(std::string* error) override {
    try {
      if (!triad_) triad_ = build(kTriadSource, "<triad>");
      const std::array<size_t, 3> one_group{256, 1, 1};
      auto launch = std::make_unique<ClLaunchImpl>(queue_, "empty", 1, one_group, one_group, true);
      cl_int err = CL_SUCCESS;
      cl_kernel k = clCreateKernel(triad_, "mslport_bench_triad", &err);
      check(err, "clCreateKernel(triad)");
      launch->kernels_.push_back(k);
      cl_mem m = clCreateBuffer(ctx_, CL_MEM_READ_WRITE, sizeof(float), nullptr, &err);
      check(err, "clCreateBuffer for the empty launch");
      launch->mems_.push_back(m);
      const float scalar = 0.0f;
      const cl_uint none = 0;  // n = 0: no work-item passes `i < n`
      for (cl_uint i = 0; i < 3; ++i) check(clSetKernelArg(k, i, sizeof(cl_mem), &m), "clSetKernelArg(empty)");
      check(clSetKernelArg(k, 3, sizeof scalar, &scalar), "clSetKernelArg(empty s)");
      check(clSetKernelArg(k, 4, sizeof none, &none), "clSetKernelArg(empty n)");
      return launch;
    } catch (const std::exception& e) {
      if (error) *error = e.what();
      return nullptr;
    }
  }

  std::unique_ptr<ClLaunch> prepare_copy(size_t bytes, size_t sets, std::string* error) override {
    try {
      auto launch = std::make_unique<ClCopyImpl>(queue_, bytes);
      for (size_t s = 0; s < std::max<size_t>(sets, 1); ++s)
        for (int i = 0; i < 2; ++i) {
          cl_int err = CL_SUCCESS;
          cl_mem m = clCreateBuffer(ctx_, CL_MEM_READ_WRITE, bytes, nullptr, &err);
          check(err, "clCreateBuffer(" + std::to_string(bytes) + " bytes) for the copy");
          launch->mems_.push_back(m);
          const uint32_t pattern = 0x3f800000u + uint32_t(i);
          check(clEnqueueFillBuffer(queue_, m, &pattern, sizeof pattern, 0, bytes, 0, nullptr, nullptr),
                "clEnqueueFillBuffer");
        }
      check(clFinish(queue_), "clFinish after filling the copy buffers");
      return launch;
    } catch (const std::exception& e) {
      if (error) *error = e.what();
      return nullptr;
    }
  }

 private:
  cl_program build(const std::string& source, const std::string& what) {
    cl_int err = CL_SUCCESS;
    const char* src = source.c_str();
    size_t len = source.size();
    cl_program prog = clCreateProgramWithSource(ctx_, 1, &src, &len, &err);
    check(err, "clCreateProgramWithSource(" + what + ")");
    const char* opts = info_.build_options.c_str();
    err = clBuildProgram(prog, 1, &dev_, opts, nullptr, nullptr);
    if (err != CL_SUCCESS) {
      size_t n = 0;
      clGetProgramBuildInfo(prog, dev_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
      std::string log(n, '\0');
      if (n) clGetProgramBuildInfo(prog, dev_, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
      clReleaseProgram(prog);
      throw std::runtime_error("building " + what + " on " + info_.platform + " / " + info_.device + " with \"" +
                               info_.build_options + "\" failed: " + cl_err(err) + "\nbuild log:\n" + log);
    }
    programs_.push_back(prog);
    return prog;
  }

  OpenClDeviceInfo info_;
  cl_device_id dev_;
  cl_context ctx_;
  cl_command_queue queue_;
  std::vector<cl_program> programs_;
  cl_program triad_ = nullptr;
  std::map<std::string, Binding> kernels_;
};

}  // namespace

std::vector<OpenClDeviceInfo> list_opencl_devices(std::string* error) {
  std::vector<OpenClDeviceInfo> out;
  try {
    auto ps = platforms();
    for (size_t i = 0; i < ps.size(); ++i) {
      cl_device_id d = first_device(ps[i]);
      if (d) out.push_back(describe(static_cast<int>(i), ps[i], d));
    }
  } catch (const std::exception& e) {
    if (error) *error = e.what();
  }
  return out;
}

std::unique_ptr<OpenClBench> OpenClBench::open(int platform_index, std::string* error, bool nv_shfl) {
  try {
    auto ps = platforms();
    if (platform_index < 0 || size_t(platform_index) >= ps.size())
      throw std::runtime_error("no OpenCL platform #" + std::to_string(platform_index));
    cl_platform_id p = ps[platform_index];
    cl_device_id d = first_device(p);
    if (!d) throw std::runtime_error("OpenCL platform '" + platform_str(p, CL_PLATFORM_NAME) + "' has no device");
    OpenClDeviceInfo info = describe(platform_index, p, d);
    info.build_options = emitted_build_options(d, nv_shfl);
    cl_int err = CL_SUCCESS;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(p), 0};
    cl_context ctx = clCreateContext(props, 1, &d, nullptr, nullptr, &err);
    check(err, "clCreateContext on " + info.platform);
    cl_command_queue q = clCreateCommandQueue(ctx, d, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
      clReleaseContext(ctx);
      check(err, "clCreateCommandQueue(CL_QUEUE_PROFILING_ENABLE) on " + info.platform);
    }
    return std::make_unique<OpenClBenchImpl>(std::move(info), d, ctx, q);
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return nullptr;
  }
}

}  // namespace mslport::runtime
