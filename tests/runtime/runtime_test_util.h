// Helpers for the runtime tests: scratch directories and golden-case fixtures.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "runtime/npy.h"
#include "runtime/runner.h"

namespace mslport::runtime::testutil {

// A fresh, empty directory under the build tree, unique to this process and test.
inline std::string fresh_dir(const std::string& name) {
  namespace fs = std::filesystem;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string test = info ? std::string(info->test_suite_name()) + "." + info->name() : "global";
  fs::path dir = fs::path(MSLPORT_BINARY_DIR) / "test_tmp" / "runtime" / std::to_string(getpid()) / test / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

inline std::string write_text(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

inline void write_array(const std::string& path, const NpyArray& a) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::string err;
  ASSERT_TRUE(write_npy(path, a, &err)) << err;
}

// Where the OpenMP executor may cache compiled modules across test runs.
inline std::string module_cache_dir() {
  return (std::filesystem::path(MSLPORT_BINARY_DIR) / "test_tmp" / "runtime" / "module_cache").string();
}

// Writes <root>/<kernel>/<name>/case.json from its parts (JSON text).
inline void write_case_json(const std::string& root, const std::string& kernel, const std::string& name,
                            const std::string& dispatch, const std::string& buffers,
                            const std::string& threadgroup_memory = "[]") {
  write_text(root + "/" + kernel + "/" + name + "/case.json",
             "{\"kernel\": \"" + kernel + "\", \"case\": \"" + name + "\", \"dispatch\": " + dispatch +
                 ", \"buffers\": " + buffers + ", \"threadgroup_memory\": " + threadgroup_memory + "}");
}

// The "add one" case for `kernel`: in = [0, 1, 2, 3, -1], n = 5, expected
// out = [1, 2, 3, 4, 0], dispatched as 5 threads in threadgroups of 2 (the
// last one partial). The last expected element is 0 on purpose: a kernel that
// never writes it would pass if outputs started zeroed; poisoning catches it.
inline void write_add_one_case(const std::string& root, const std::string& kernel, const std::string& name = "small") {
  std::string dir = root + "/" + kernel + "/" + name;
  write_array(dir + "/in.npy", make_npy<float>({0, 1, 2, 3, -1}));
  write_array(dir + "/n.npy", make_npy<uint32_t>({5}, {1}));
  write_array(dir + "/out.expected.npy", make_npy<float>({1, 2, 3, 4, 0}));
  write_case_json(root, kernel, name, R"({"threads": [5], "threads_per_threadgroup": [2]})",
                  R"([{"index": 0, "name": "in", "access": "read", "data": "in.npy"},
                      {"index": 1, "name": "out", "access": "write", "expected": "out.expected.npy",
                       "atol": 0, "rtol": 1e-6},
                      {"index": 2, "name": "n", "access": "read", "data": "n.npy"}])");
}

inline const CaseResult* find_result(const std::vector<CaseResult>& rs, const std::string& kernel,
                                     const std::string& target) {
  for (const auto& r : rs)
    if (r.kernel == kernel && r.target == target) return &r;
  return nullptr;
}

}  // namespace mslport::runtime::testutil
