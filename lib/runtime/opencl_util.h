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

}  // namespace mslport::runtime
