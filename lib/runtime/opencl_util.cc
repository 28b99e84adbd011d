#include "runtime/opencl_util.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace mslport::runtime {

const char* cl_error_name(cl_int e) {
  switch (e) {
#define E(x) \
  case x: return #x;
    E(CL_SUCCESS)
    E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE) E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY) E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_MEM_COPY_OVERLAP)
            E(CL_IMAGE_FORMAT_MISMATCH) E(CL_IMAGE_FORMAT_NOT_SUPPORTED) E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
                E(CL_MISALIGNED_SUB_BUFFER_OFFSET) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
                    E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINKER_NOT_AVAILABLE) E(CL_LINK_PROGRAM_FAILURE)
                        E(CL_DEVICE_PARTITION_FAILED) E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) E(CL_INVALID_VALUE) E(
                            CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT)
                            E(CL_INVALID_QUEUE_PROPERTIES) E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_HOST_PTR)
                                E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) E(CL_INVALID_IMAGE_SIZE)
                                    E(CL_INVALID_SAMPLER) E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS)
                                        E(CL_INVALID_PROGRAM) E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME)
                                            E(CL_INVALID_KERNEL_DEFINITION) E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX)
                                                E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS)
                                                    E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
                                                        E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET)
                                                            E(CL_INVALID_EVENT_WAIT_LIST) E(CL_INVALID_EVENT)
                                                                E(CL_INVALID_OPERATION) E(CL_INVALID_GL_OBJECT)
                                                                    E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_MIP_LEVEL)
                                                                        E(CL_INVALID_GLOBAL_WORK_SIZE)
                                                                            E(CL_INVALID_PROPERTY)
#undef E
                                                                                case -1001
        : return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "unknown OpenCL error";
  }
}

std::string platform_info(cl_platform_id p, cl_platform_info what) {
  size_t n = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS) return "";
  std::string s(n, '\0');
  clGetPlatformInfo(p, what, n, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string device_info_str(cl_device_id d, cl_device_info what) {
  size_t n = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS) return "";
  std::string s(n, '\0');
  clGetDeviceInfo(d, what, n, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

bool is_nvidia_device(cl_device_id d) {
  std::string v = device_info_str(d, CL_DEVICE_VENDOR);
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return v.find("nvidia") != std::string::npos;
}

bool reported_work_group_size_binds(cl_device_id d) { return !is_nvidia_device(d); }

std::string emitted_build_options(cl_device_id dev, bool nv_shfl) {
  // Strict OpenCL C: -cl-unsafe-math-optimizations would give sums Metal's
  // reassociation license (as -fassociative-math does for the C++ build),
  // but NVIDIA's compiler then also swaps precise::sin/cos for fast
  // approximations (measured: RoPE at large positions fails its golden
  // cases on the H100), and OpenCL C has no narrower switch.
  std::string opts = "-cl-std=CL1.2";
  const char* env = std::getenv("MSLPORT_NV_SHFL");
  if (env && std::string(env) == "0") nv_shfl = false;
  if (nv_shfl && is_nvidia_device(dev)) opts += " -DMSLPORT_NV_SHFL";
  // For experiments (e.g. what fast math would buy on a device): appended as given.
  const char* extra = std::getenv("MSLPORT_CL_OPTIONS");
  if (extra && *extra) opts += std::string(" ") + extra;
  return opts;
}

}  // namespace mslport::runtime
