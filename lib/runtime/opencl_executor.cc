// The OpenCL target: builds an emitted .cl on a chosen platform and launches
// kernels as its X.bindings.json describes (docs/architecture.md).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "mslport/kernel_abi.h"
#include "runtime/case_buffers.h"
#include "runtime/isolated_executor.h"
#include "runtime/opencl_util.h"
#include "runtime/runner.h"

namespace mslport::runtime {

namespace {

using nlohmann::json;

struct ClError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(cl_int err, const std::string& what) {
  if (err != CL_SUCCESS) throw ClError(what + " failed: " + cl_error_name(err) + " (" + std::to_string(err) + ")");
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Owns one OpenCL object.
template <typename T, cl_int (*Release)(T)>
class ClHandle {
 public:
  ClHandle() = default;
  explicit ClHandle(T h) : h_(h) {}
  ~ClHandle() { reset(); }
  ClHandle(ClHandle&& o) noexcept : h_(o.h_) { o.h_ = nullptr; }
  ClHandle& operator=(ClHandle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = o.h_;
      o.h_ = nullptr;
    }
    return *this;
  }
  ClHandle(const ClHandle&) = delete;
  ClHandle& operator=(const ClHandle&) = delete;
  void reset() {
    if (h_) Release(h_);
    h_ = nullptr;
  }
  T get() const { return h_; }

 private:
  T h_ = nullptr;
};
using Context = ClHandle<cl_context, clReleaseContext>;
using Queue = ClHandle<cl_command_queue, clReleaseCommandQueue>;
using Program = ClHandle<cl_program, clReleaseProgram>;
using Kernel = ClHandle<cl_kernel, clReleaseKernel>;
using Mem = ClHandle<cl_mem, clReleaseMemObject>;

enum class ArgKind { Buffer, ThreadgroupMemory, SimdScratch, Grid, FunctionConstant };

// The stand-in for a buffer bound only under a flag that the case leaves out.
constexpr size_t kAbsentBufferBytes = 4096;

struct ArgBinding {
  ArgKind kind = ArgKind::Buffer;
  int index = -1;
  // Buffer: the pointer stored this many bytes into argument buffer
  // `index` ("argument_buffer_offset"); -1: the buffer bound at `index`.
  int64_t argument_buffer_offset = -1;
  // Buffer: bound only where this function constant is true ("present_if").
  std::string present_if;
  std::string name;
  std::string type;  // FunctionConstant: Metal's scalar type
  uint32_t bytes_per_thread = 0;
};

struct KernelBinding {
  std::string name;
  std::vector<ArgBinding> args;
  Kernel kernel;
  std::string error;  // why the kernel cannot run (set at load)
};

// Parses X.bindings.json; throws std::runtime_error naming the field.
std::vector<KernelBinding> parse_bindings(const std::string& text, const std::string& file) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::exception& e) {
    throw std::runtime_error(file + ": invalid JSON: " + e.what());
  }
  auto fail = [&](const std::string& field, const std::string& m) -> void {
    throw std::runtime_error(file + ": field '" + field + "': " + m);
  };
  if (!root.is_object() || !root.contains("kernels") || !root["kernels"].is_array())
    fail("kernels", "missing or not an array");
  std::vector<KernelBinding> out;
  const json& ks = root["kernels"];
  for (size_t i = 0; i < ks.size(); ++i) {
    std::string kp = "kernels[" + std::to_string(i) + "]";
    const json& k = ks[i];
    if (!k.is_object()) fail(kp, "expected an object");
    if (!k.contains("name") || !k["name"].is_string()) fail(kp + ".name", "missing or not a string");
    if (!k.contains("args") || !k["args"].is_array()) fail(kp + ".args", "missing or not an array");
    KernelBinding kb;
    kb.name = k["name"].get<std::string>();
    const json& args = k["args"];
    for (size_t a = 0; a < args.size(); ++a) {
      std::string ap = kp + ".args[" + std::to_string(a) + "]";
      const json& j = args[a];
      if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string())
        fail(ap + ".kind", "missing or not a string");
      std::string kind = j["kind"].get<std::string>();
      ArgBinding ab;
      if (j.contains("name") && j["name"].is_string()) ab.name = j["name"].get<std::string>();
      auto get_index = [&]() {
        if (!j.contains("index") || !j["index"].is_number_integer()) fail(ap + ".index", "missing or not an integer");
        int idx = j["index"].get<int>();
        if (idx < 0 || idx >= MSLPORT_MAX_BINDINGS) fail(ap + ".index", "out of range: " + std::to_string(idx));
        return idx;
      };
      if (kind == "buffer") {
        ab.kind = ArgKind::Buffer;
        ab.index = get_index();
        if (j.contains("argument_buffer_offset")) {
          if (!j["argument_buffer_offset"].is_number_unsigned())
            fail(ap + ".argument_buffer_offset", "not a non-negative integer");
          ab.argument_buffer_offset = j["argument_buffer_offset"].get<int64_t>();
        }
        if (j.contains("present_if")) {
          if (!j["present_if"].is_string()) fail(ap + ".present_if", "not a string");
          ab.present_if = j["present_if"].get<std::string>();
        }
      } else if (kind == "threadgroup_memory") {
        ab.kind = ArgKind::ThreadgroupMemory;
        ab.index = get_index();
      } else if (kind == "simd_scratch") {
        ab.kind = ArgKind::SimdScratch;
        if (!j.contains("bytes_per_thread") || !j["bytes_per_thread"].is_number_unsigned())
          fail(ap + ".bytes_per_thread", "missing or not a non-negative integer");
        ab.bytes_per_thread = j["bytes_per_thread"].get<uint32_t>();
      } else if (kind == "grid") {
        ab.kind = ArgKind::Grid;
      } else if (kind == "function_constant") {
        ab.kind = ArgKind::FunctionConstant;
        if (!j.contains("index") || !j["index"].is_number_unsigned() || j["index"].get<uint64_t>() > 65535)
          fail(ap + ".index", "missing or not a function constant index (0..65535)");
        ab.index = j["index"].get<int>();
        if (!j.contains("type") || !j["type"].is_string()) fail(ap + ".type", "missing or not a string");
        ab.type = j["type"].get<std::string>();
      } else {
        fail(ap + ".kind", "unknown kind \"" + kind + "\"");
      }
      kb.args.push_back(ab);
    }
    out.push_back(std::move(kb));
  }
  return out;
}

class OpenClExecutor : public Executor {
 public:
  OpenClExecutor(Context ctx, cl_device_id dev, Queue q, Program prog, std::vector<KernelBinding> kernels,
                 std::string where)
      : ctx_(std::move(ctx)), dev_(dev), queue_(std::move(q)), prog_(std::move(prog)), where_(std::move(where)) {
    for (auto& k : kernels) {
      std::string name = k.name;
      kernels_.emplace(name, std::move(k));
    }
  }

  std::string target() const override { return "opencl"; }
  std::string device() const override { return where_; }
  bool has_kernel(const std::string& name) const override { return kernels_.count(name) > 0; }
  std::vector<std::string> kernel_names() const override {
    std::vector<std::string> out;
    for (const auto& k : kernels_) out.push_back(k.first);
    return out;
  }
  std::vector<HostSetConstant> host_set_constants(const std::string& kernel) const override {
    std::vector<HostSetConstant> out;
    if (auto it = kernels_.find(kernel); it != kernels_.end())
      for (const ArgBinding& a : it->second.args)
        if (a.kind == ArgKind::FunctionConstant) out.push_back({a.name, uint32_t(a.index), a.type});
    return out;
  }

  CaseResult run(const GoldenCase& c) override {
    try {
      return run_impl(c);
    } catch (const std::exception& e) {
      return error_result(c, target(), e.what());
    } catch (...) {
      return error_result(c, target(), "unknown exception");
    }
  }

 private:
  CaseResult run_impl(const GoldenCase& c) {
    auto it = kernels_.find(c.kernel);
    if (it == kernels_.end()) return error_result(c, target(), "kernel '" + c.kernel + "' has no OpenCL binding");
    KernelBinding& kb = it->second;
    if (!kb.error.empty()) return error_result(c, target(), kb.error);
    cl_kernel k = kb.kernel.get();

    const DispatchSpec& d = c.dispatch;
    size_t tptg_total =
        size_t{d.threads_per_threadgroup[0]} * d.threads_per_threadgroup[1] * d.threads_per_threadgroup[2];
    size_t max_wg = 0;
    check(clGetKernelWorkGroupInfo(k, dev_, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, nullptr),
          "clGetKernelWorkGroupInfo");
    // Where the answer is no limit, a real one fails clEnqueueNDRangeKernel below.
    if (tptg_total > max_wg && reported_work_group_size_binds(dev_))
      return error_result(c, target(),
                          "threadgroup of " + std::to_string(tptg_total) +
                              " threads exceeds the kernel's maximum work-group size " + std::to_string(max_wg) +
                              " on " + where_);

    std::vector<HostBuffer> buffers = load_case_buffers(c);
    std::vector<std::vector<uint8_t>> host(buffers.size());
    for (size_t i = 0; i < buffers.size(); ++i) {
      host[i].resize(buffers[i].bytes + kGuardBytes);
      fill_buffer(buffers[i], host[i].data());
    }
    auto host_index = [&](int metal_index, int64_t argument_buffer_offset) -> int {
      for (size_t i = 0; i < buffers.size(); ++i)
        if (buffers[i].spec->index == metal_index && buffers[i].spec->argument_buffer_offset == argument_buffer_offset)
          return static_cast<int>(i);
      return -1;
    };

    std::map<int, Mem> mems;  // by position in `buffers`
    std::vector<Mem> absent;  // stand-ins for buffers bound only under a flag
    cl_ulong local_total = 0;
    for (size_t a = 0; a < kb.args.size(); ++a) {
      const ArgBinding& ab = kb.args[a];
      cl_uint ai = static_cast<cl_uint>(a);
      std::string what = "clSetKernelArg(" + std::to_string(a) + ") of " + kb.name;
      switch (ab.kind) {
        case ArgKind::Buffer: {
          int hi = host_index(ab.index, ab.argument_buffer_offset);
          if (hi < 0 && ab.argument_buffer_offset >= 0)
            return error_result(c, target(),
                                "kernel '" + kb.name + "' reads the pointer" +
                                    (ab.name.empty() ? "" : " '" + ab.name + "'") + " at byte " +
                                    std::to_string(ab.argument_buffer_offset) + " of argument buffer(" +
                                    std::to_string(ab.index) + ") (OpenCL argument " + std::to_string(a) +
                                    ") but the case gives no buffer with index " + std::to_string(ab.index) +
                                    " and argument_buffer_offset " + std::to_string(ab.argument_buffer_offset));
          if (hi < 0 && !ab.present_if.empty()) {
            // Not bound by the case (its flag is false, or it should be:
            // the OpenMP target checks the flag): a poisoned stand-in, so that
            // a kernel reading it anyway gives NaNs, not plausible values.
            std::vector<uint8_t> poison(kAbsentBufferBytes, kPoisonByte);
            cl_int err = CL_SUCCESS;
            cl_mem m = clCreateBuffer(ctx_.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, poison.size(),
                                      poison.data(), &err);
            check(err, "clCreateBuffer for the absent buffer(" + std::to_string(ab.index) + ")");
            absent.emplace_back(m);
            check(clSetKernelArg(k, ai, sizeof(cl_mem), &m), what);
            break;
          }
          if (hi < 0)
            return error_result(c, target(),
                                "kernel '" + kb.name + "' binds buffer(" + std::to_string(ab.index) + ")" +
                                    (ab.name.empty() ? "" : " '" + ab.name + "'") + " (OpenCL argument " +
                                    std::to_string(a) + ") but the case provides no buffer with index " +
                                    std::to_string(ab.index));
          if (!mems.count(hi)) {
            cl_int err = CL_SUCCESS;
            cl_mem m = clCreateBuffer(ctx_.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host[hi].size(),
                                      host[hi].data(), &err);
            check(err, "clCreateBuffer for buffer(" + std::to_string(ab.index) + ")");
            mems.emplace(hi, Mem(m));
          }
          cl_mem m = mems.at(hi).get();
          check(clSetKernelArg(k, ai, sizeof(cl_mem), &m), what);
          break;
        }
        case ArgKind::ThreadgroupMemory: {
          const ThreadgroupMemorySpec* t = nullptr;
          for (const auto& s : c.threadgroup_memory)
            if (s.index == ab.index) t = &s;
          if (!t)
            return error_result(c, target(),
                                "kernel '" + kb.name + "' binds threadgroup(" + std::to_string(ab.index) +
                                    ") memory but the case gives no threadgroup_memory with index " +
                                    std::to_string(ab.index));
          // Metal has no zero-length threadgroup argument, and a kernel
          // touching one writes out of bounds (as the OpenMP target says too).
          if (t->bytes == 0)
            return error_result(c, target(),
                                "kernel '" + kb.name + "' binds threadgroup(" + std::to_string(ab.index) +
                                    ") memory but the case gives it 0 bytes");
          size_t bytes = t->bytes;
          local_total += bytes;
          check(clSetKernelArg(k, ai, bytes, nullptr), what);
          break;
        }
        case ArgKind::SimdScratch: {
          size_t bytes = std::max<size_t>(size_t{ab.bytes_per_thread} * tptg_total, 4);
          local_total += bytes;
          check(clSetKernelArg(k, ai, bytes, nullptr), what);
          break;
        }
        case ArgKind::FunctionConstant: {
          std::vector<uint8_t> bytes = dispatch_bytes(c, {ab.name, uint32_t(ab.index), ab.type}, /*opencl=*/true);
          check(clSetKernelArg(k, ai, bytes.size(), bytes.data()), what);
          break;
        }
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
    cl_ulong local_static = 0, local_max = 0;
    clGetKernelWorkGroupInfo(k, dev_, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_static, &local_static, nullptr);
    clGetDeviceInfo(dev_, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_max, &local_max, nullptr);
    // CL_KERNEL_LOCAL_MEM_SIZE includes the __local arguments already set.
    cl_ulong local_used = std::max(local_static, local_total);
    if (local_max && local_used > local_max)
      return error_result(c, target(),
                          "the kernel needs " + std::to_string(local_used) + " bytes of local memory (" +
                              std::to_string(local_total) + " in __local arguments), more than the device's " +
                              std::to_string(local_max) + " on " + where_);

    size_t global[3], local[3];
    for (int i = 0; i < 3; ++i) {
      local[i] = d.threads_per_threadgroup[i];
      global[i] = size_t{d.threadgroups[i]} * d.threads_per_threadgroup[i];
    }
    check(clEnqueueNDRangeKernel(queue_.get(), k, 3, nullptr, global, local, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel(" + kb.name + ") with a work-group of " + std::to_string(tptg_total) +
              " (the kernel's reported maximum: " + std::to_string(max_wg) + ")");
    check(clFinish(queue_.get()), "clFinish after " + kb.name);
    for (auto& [hi, m] : mems) {
      check(
          clEnqueueReadBuffer(queue_.get(), m.get(), CL_TRUE, 0, host[hi].size(), host[hi].data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer for buffer(" + buffer_key(*buffers[hi].spec) + ")");
    }
    CaseResult r = make_result(c, target());
    std::vector<const uint8_t*> contents;
    for (const auto& h : host) contents.push_back(h.data());
    check_buffers(buffers, contents, &r, c.capture_dir.empty() ? "" : c.capture_dir + "/" + target());
    return r;
  }

  Context ctx_;
  cl_device_id dev_;
  Queue queue_;
  Program prog_;
  std::string where_;
  std::map<std::string, KernelBinding> kernels_;
};

}  // namespace

namespace {

// Builds and runs in this process (the worker's side of load_opencl_program).
std::unique_ptr<Executor> load_in_process(const std::string& cl_path, const std::string& bindings_json_path,
                                          const std::string& platform_filter, std::string* error,
                                          const OpenClOptions& options) {
  try {
    std::string source, bindings_text;
    {
      std::ifstream f(cl_path, std::ios::binary);
      if (!f) throw std::runtime_error("cannot open " + cl_path);
      std::ostringstream ss;
      ss << f.rdbuf();
      source = ss.str();
    }
    {
      std::ifstream f(bindings_json_path, std::ios::binary);
      if (!f) throw std::runtime_error("cannot open " + bindings_json_path);
      std::ostringstream ss;
      ss << f.rdbuf();
      bindings_text = ss.str();
    }
    std::vector<KernelBinding> bindings = parse_bindings(bindings_text, bindings_json_path);

    // Platform and device.
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(0, nullptr, &np);
    if (err == -1001 || np == 0) throw std::runtime_error("no OpenCL platform found (is an ICD installed?)");
    check(err, "clGetPlatformIDs");
    std::vector<cl_platform_id> plats(np);
    check(clGetPlatformIDs(np, plats.data(), nullptr), "clGetPlatformIDs");
    cl_platform_id plat = nullptr;
    cl_device_id dev = nullptr;
    std::string seen;
    std::string want = lower(platform_filter);
    for (cl_platform_id p : plats) {
      std::string name = platform_info(p, CL_PLATFORM_NAME);
      seen += "\n  " + name;
      if (!want.empty() && lower(name).find(want) == std::string::npos) continue;
      cl_uint nd = 0;
      if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
      std::vector<cl_device_id> devs(nd);
      check(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, devs.data(), nullptr), "clGetDeviceIDs");
      plat = p;
      dev = devs[0];
      break;
    }
    if (!plat)
      throw std::runtime_error("no OpenCL platform with a device matches '" + platform_filter + "'; platforms:" + seen);
    std::string where = platform_info(plat, CL_PLATFORM_NAME) + " / " + device_info_str(dev, CL_DEVICE_NAME);

    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(plat), 0};
    Context ctx(clCreateContext(props, 1, &dev, nullptr, nullptr, &err));
    check(err, "clCreateContext on " + where);
    Queue queue(clCreateCommandQueue(ctx.get(), dev, 0, &err));
    check(err, "clCreateCommandQueue on " + where);

    const char* src = source.c_str();
    size_t len = source.size();
    Program prog(clCreateProgramWithSource(ctx.get(), 1, &src, &len, &err));
    check(err, "clCreateProgramWithSource");
    std::string opts = emitted_build_options(dev, options.nv_shfl);
    err = clBuildProgram(prog.get(), 1, &dev, opts.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS) {
      size_t n = 0;
      clGetProgramBuildInfo(prog.get(), dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
      std::string log(n, '\0');
      if (n) clGetProgramBuildInfo(prog.get(), dev, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
      while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
      throw std::runtime_error("building " + cl_path + " on " + where + " with \"" + opts +
                               "\" failed: " + cl_error_name(err) + "\nbuild log:\n" + log);
    }

    for (auto& kb : bindings) {
      cl_kernel k = clCreateKernel(prog.get(), kb.name.c_str(), &err);
      if (err != CL_SUCCESS) {
        kb.error = "kernel '" + kb.name + "' of " + bindings_json_path + " is not in " + cl_path +
                   " (clCreateKernel: " + cl_error_name(err) + ")";
        continue;
      }
      kb.kernel = Kernel(k);
      cl_uint nargs = 0;
      clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, nullptr);
      if (nargs != kb.args.size())
        kb.error = "kernel '" + kb.name + "' has " + std::to_string(nargs) + " arguments in " + cl_path + " but " +
                   std::to_string(kb.args.size()) + " in " + bindings_json_path;
    }
    return std::make_unique<OpenClExecutor>(std::move(ctx), dev, std::move(queue), std::move(prog), std::move(bindings),
                                            where);
  } catch (const std::exception& e) {
    *error = e.what();
    return nullptr;
  }
}

}  // namespace

std::unique_ptr<Executor> load_opencl_program(const std::string& cl_path, const std::string& bindings_json_path,
                                              const std::string& platform_filter, std::string* error) {
  return load_opencl_program(cl_path, bindings_json_path, platform_filter, error, OpenClOptions{});
}

std::unique_ptr<Executor> load_opencl_program(const std::string& cl_path, const std::string& bindings_json_path,
                                              const std::string& platform_filter, std::string* error,
                                              const OpenClOptions& options) {
  std::string dummy;
  if (!error) error = &dummy;
  const char* inproc = std::getenv("MSLPORT_RUNNER_INPROCESS");
  if (inproc && *inproc && std::string(inproc) != "0")
    return load_in_process(cl_path, bindings_json_path, platform_filter, error, options);
  return make_isolated_executor(
      [=](std::string* err) { return load_in_process(cl_path, bindings_json_path, platform_filter, err, options); },
      error);
}

}  // namespace mslport::runtime
