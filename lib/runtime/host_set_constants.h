// Function constants a kernel reads that the host sets at dispatch (a
// required `[[function_constant(i)]]` constant translated without a value:
// docs/metal-language.md, "Function constants"). A golden case gives their
// values in "function_constants", by name or by index, as it gives the
// values of those fixed at translation; the executors pass them at dispatch.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mslport::runtime {

struct GoldenCase;
class Executor;

struct HostSetConstant {
  std::string name;
  uint32_t index = 0;  // [[function_constant(index)]]
  std::string type;    // Metal's scalar type name: "bool", "short", "half", ...
};

// The case's value for `k`: by name, else by index; nullopt when it gives none.
std::optional<std::string> case_value(const std::map<std::string, std::string>& values, const HostSetConstant& k);

// Does case `c` run on `e`? `e` has the kernel, and the case's function
// constants are those `e` was translated with plus values for constants the
// kernel reads at dispatch.
bool case_runs_on(const GoldenCase& c, const Executor& e);

// `value` ("true", "false", or a number as golden cases write it) as the
// bytes of `k.type`: for the C++ entry, a bool is one byte; for an OpenCL
// argument (`opencl`), a bool is a uchar and a half or bfloat a float.
// Throws std::runtime_error naming the constant when the value does not fit.
std::vector<uint8_t> constant_bytes(const HostSetConstant& k, const std::string& value, bool opencl);

// The bytes case `c` gives `k` (constant_bytes of case_value); throws
// std::runtime_error naming the kernel and the constant when it gives none.
std::vector<uint8_t> dispatch_bytes(const GoldenCase& c, const HostSetConstant& k, bool opencl);

}  // namespace mslport::runtime
