// The reserved-name lists of both backends (back/*/keywords.h) against the
// compilers of this machine: every macro that emitted code can see must be
// reserved, or a Metal name spelled like it would be expanded (a parameter
// named `errno` or `M_PI` made the emitted C++ fail to compile).
#include "back/opencl/keywords.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "back/openmp/keywords.h"
#include "support/subprocess.h"
#include "test_support.h"

using namespace mslport;

namespace {

// The names of the macros a preprocessor run with -dM (`argv`) defines,
// leaving out the implementation's own (leading underscore). Empty when the
// compiler is not there.
std::set<std::string> macros(const std::vector<std::string>& argv) {
  std::set<std::string> out;
  mslport::ProcessResult r = mslport::run_process(argv, {0, size_t{64} << 20});
  if (!r.ok()) return out;
  std::istringstream lines(r.output);
  for (std::string s; std::getline(lines, s);) {
    if (s.rfind("#define ", 0) != 0) continue;
    std::string name = s.substr(8, s.find_first_of(" (", 8) - 8);
    if (!name.empty() && name[0] != '_') out.insert(name);
  }
  return out;
}

std::string probe(const std::string& name, const std::string& text) {
  return mslport::testing::write_temp_file(name, text);
}

}  // namespace

TEST(CppKeywords, EveryMacroTheEmittedCodeSeesIsReserved) {
  const std::string include = mslport::testing::source_path("lib/runtime/include");
  int compilers = 0;
  for (const char* cxx : {"g++", "clang++-19", "clang++"}) {
    for (const char* header : {"openmp_rt.h", "sanitizer_rt.h"}) {
      const std::string file =
          probe(std::string("probe_") + header + ".cpp", std::string("#include <mslport/") + header + ">\n");
      for (const char* std : {"c++17", "gnu++17"}) {
        const std::set<std::string> names = macros({cxx, std::string("-std=") + std, "-fopenmp", "-march=native",
                                                    "-DMSLPORT_RUNNER_MODULE", "-dM", "-E", "-I" + include, file});
        compilers += !names.empty();
        for (const std::string& n : names)
          EXPECT_TRUE(back::openmp::is_reserved_in_cpp(n, passes::NameScope::Field))
              << n << " (" << cxx << " -std=" << std << ", " << header << ") is not in back/openmp/std_macros.inc";
      }
    }
  }
  EXPECT_GT(compilers, 0) << "no C++ compiler found";
}

TEST(CppKeywords, KernelNamesAreReservedWhereTheEmittedCodeDeclaresThem) {
  using passes::NameScope;
  // `g` is the entry's threadgroup index; `geo` the threadgroup's geometry.
  EXPECT_TRUE(back::openmp::is_reserved_in_cpp("g", NameScope::Parameter));
  EXPECT_FALSE(back::openmp::is_reserved_in_cpp("g", NameScope::Local));
  EXPECT_TRUE(back::openmp::is_reserved_in_cpp("geo", NameScope::Local));
  EXPECT_FALSE(back::openmp::is_reserved_in_cpp("geo", NameScope::Field));
  EXPECT_TRUE(back::openmp::is_reserved_in_cpp("mslport_dispatch", NameScope::Parameter));
  EXPECT_TRUE(back::openmp::is_reserved_in_cpp("class", NameScope::Kernel));
  EXPECT_FALSE(back::openmp::is_reserved_in_cpp("rms_norm", NameScope::Kernel));
}

TEST(OpenCLKeywords, EveryMacroOfOpenCLCIsReserved) {
  const std::string file = probe("probe.cl", "\n");
  int compilers = 0;
  for (const char* clang : {"clang-19", "clang"}) {
    const std::set<std::string> names =
        macros({clang, "-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header", "-dM", "-E", file});
    compilers += !names.empty();
    for (const std::string& n : names)
      EXPECT_TRUE(back::opencl::is_reserved_in_opencl(n))
          << n << " (" << clang << ") is not in back/opencl/cl_macros.inc";
  }
  if (!compilers) GTEST_SKIP() << "no clang for OpenCL C";
}
