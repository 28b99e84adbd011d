// What `mslport bench` (lib/bench) needs from the runtime beyond the
// Executor interface (which runs a golden case and compares it): the entry
// points of a compiled OpenMP module, to call them directly, and OpenCL
// launches timed with profiling events. Like the rest of the runtime, this
// is the only place that touches dlopen and OpenCL; it knows nothing of
// bench cases, statistics or reports.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mslport/kernel_abi.h"
#include "runtime/runner.h"

namespace mslport::runtime {

// Compiles (or reuses from the cache) an emitted .cpp exactly as
// load_openmp_module does (same compiler, flags and cache directory) and
// returns its kernel table, name -> generic entry. The module stays loaded
// for the life of the process. False with a message on failure.
bool load_openmp_entries(const std::string& cpp_path, const std::string& build_dir,
                         std::map<std::string, mslport_entry_fn>* entries, std::string* error);

// The size of the CPU's last-level cache in bytes (sysfs), or 0 if unknown.
uint64_t cpu_last_level_cache_bytes();

struct OpenClDeviceInfo {
  int platform_index = -1;              // position in clGetPlatformIDs
  std::string platform;                 // CL_PLATFORM_NAME
  std::string device;                   // CL_DEVICE_NAME of the platform's first device
  std::string vendor;                   // CL_DEVICE_VENDOR
  uint64_t global_mem_cache_bytes = 0;  // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE
  uint64_t global_mem_bytes = 0;        // CL_DEVICE_GLOBAL_MEM_SIZE
  bool is_cpu = false;                  // CL_DEVICE_TYPE_CPU (e.g. PoCL): shares the cores with OpenMP
  std::string build_options;            // what emitted programs are built with (OpenClBench)
};

// Every platform that has a device, with its first device (the device
// load_opencl_program picks). Empty (and *error set) when there is no ICD.
std::vector<OpenClDeviceInfo> list_opencl_devices(std::string* error);

// One input set of a launch: Metal buffer index -> host bytes. The bytes are
// copied to the device by OpenClBench::prepare; the host memory may be
// released afterwards.
struct HostBinding {
  int index = -1;
  const void* data = nullptr;
  size_t bytes = 0;
};
using HostSet = std::vector<HostBinding>;

// A launch whose arguments are bound and whose buffers are on the device,
// one copy per input set. run(i) launches on set i, waits, and returns the
// kernel's device time in seconds (CL_PROFILING_COMMAND_START..END).
// Throws std::runtime_error on an OpenCL error.
class ClLaunch {
 public:
  virtual ~ClLaunch() = default;
  virtual size_t sets() const = 0;
  virtual double run(size_t set) = 0;
};

// One OpenCL device (a platform's first), with a profiling command queue;
// programs are built with emitted_build_options(device, nv_shfl) like
// load_opencl_program's default (info().build_options says which).
class OpenClBench {
 public:
  static std::unique_ptr<OpenClBench> open(int platform_index, std::string* error, bool nv_shfl = true);
  virtual ~OpenClBench() = default;
  virtual const OpenClDeviceInfo& info() const = 0;

  // Builds an emitted .cl and reads its .bindings.json; its kernels join
  // those of earlier programs (a name already present keeps the first).
  virtual bool add_program(const std::string& cl_path, const std::string& bindings_json_path, std::string* error) = 0;
  virtual bool has_kernel(const std::string& name) const = 0;

  // Binds `kernel` per its bindings (buffers by Metal index from each set,
  // __local arguments from threadgroup_memory and the SIMD scratch size,
  // the grid) and uploads every set. nullptr with a message when the
  // kernel cannot run (missing buffer, work-group or local memory too big).
  virtual std::unique_ptr<ClLaunch> prepare(const std::string& kernel, const DispatchSpec& dispatch,
                                            const std::vector<ThreadgroupMemorySpec>& threadgroup_memory,
                                            const std::vector<HostSet>& sets, std::string* error) = 0;

  // The bandwidth roof: c[i] = a[i] + s * b[i] over n floats (a and b
  // filled on the device), 256 work-items per group, `sets` independent
  // (a, b, c) triples rotated like a kernel's input sets.
  virtual std::unique_ptr<ClLaunch> prepare_triad(size_t n, size_t sets, std::string* error) = 0;

  // The device-to-device copy roof: clEnqueueCopyBuffer of `bytes` between
  // two device buffers (`sets` pairs rotated); run() returns the copy's
  // device time. It moves 2 x bytes (read + write).
  virtual std::unique_ptr<ClLaunch> prepare_copy(size_t bytes, size_t sets, std::string* error) = 0;

  // A kernel launch that does nothing (one work-group of 256 work-items
  // whose guard is false): its device time is the fixed cost every launch's
  // START..END includes on this driver, reported beside the roof.
  virtual std::unique_ptr<ClLaunch> prepare_empty(std::string* error) = 0;
};

}  // namespace mslport::runtime
