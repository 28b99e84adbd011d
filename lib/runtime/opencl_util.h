// Small OpenCL helpers shared by the golden-case executor and the benchmark.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <string>

namespace mslport::runtime {

// "CL_OUT_OF_RESOURCES", ... for an OpenCL status code.
const char* cl_error_name(cl_int e);
// String-valued platform / device info ("" if the query fails).
std::string platform_info(cl_platform_id p, cl_platform_info what);
std::string device_info_str(cl_device_id d, cl_device_info what);

// True for a device whose CL_DEVICE_VENDOR names NVIDIA.
bool is_nvidia_device(cl_device_id d);

// Whether a kernel's CL_KERNEL_WORK_GROUP_SIZE on `d` is a limit to check
// before launching. Not on NVIDIA: its driver answers 256 for every kernel,
// a one-line one included, and then runs 1024-item work-groups of it
// (measured on the H100); there the launch decides.
bool reported_work_group_size_binds(cl_device_id d);

// The build options of emitted .cl files on `dev`: "-cl-std=CL1.2", plus
// "-DMSLPORT_NV_SHFL" on NVIDIA devices, which selects the warp-shuffle
// implementation of SIMD-group functions in the emitted prelude
// (back/opencl/prelude.cc), unless `nv_shfl` is false or the environment
// sets MSLPORT_NV_SHFL=0 (the portable local-memory emulation then runs
// there too, e.g. for an A/B comparison). MSLPORT_CL_OPTIONS is appended
// verbatim (experiments: what -cl-fast-relaxed-math would buy, say).
std::string emitted_build_options(cl_device_id dev, bool nv_shfl = true);

}  // namespace mslport::runtime
