#include "runtime/golden_case.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "runtime_test_util.h"

namespace mslport::runtime {
namespace {

using testutil::write_array;
using testutil::write_text;

// A well-formed case with one input, one output and one constant.
void write_good_case(const std::string& dir, const std::string& kernel, const std::string& name,
                     const std::string& dispatch) {
  write_array(dir + "/in.npy", make_npy<float>({1, 2, 3}));
  write_array(dir + "/out.expected.npy", make_npy<float>({2, 3, 4}));
  write_array(dir + "/n.npy", make_npy<uint32_t>({3}));
  write_text(dir + "/case.json", R"({
    "kernel": ")" + kernel + R"(", "case": ")" +
                                     name + R"(", "description": "test",
    "dispatch": )" + dispatch + R"(,
    "buffers": [
      {"index": 0, "name": "in", "access": "read", "data": "in.npy"},
      {"index": 1, "name": "out", "access": "write", "expected": "out.expected.npy",
       "atol": 1e-6, "rtol": 1e-5, "tolerance_note": "one rounding"},
      {"index": 2, "name": "n", "access": "read", "data": "n.npy"}
    ],
    "threadgroup_memory": [{"index": 0, "bytes": 1024}]
  })");
}

// Writes a case.json that differs from the good one by `buffers` / `dispatch` text.
void write_case(const std::string& dir, const std::string& body) {
  write_array(dir + "/in.npy", make_npy<float>({1, 2, 3}));
  write_array(dir + "/out.expected.npy", make_npy<float>({2, 3, 4}));
  write_text(dir + "/case.json", body);
}

const LoadError* find_error(const std::vector<LoadError>& errors, const std::string& file_part) {
  for (const auto& e : errors)
    if (e.file.find(file_part) != std::string::npos) return &e;
  return nullptr;
}

TEST(GoldenCase, LoadsThreadgroupsForm) {
  std::string root = testutil::fresh_dir("golden");
  write_good_case(root + "/k/small", "k", "small",
                  R"({"threadgroups": [2, 3], "threads_per_threadgroup": [256, 1, 1]})");
  std::vector<LoadError> errors;
  auto cases = load_golden_dir(root, &errors);
  ASSERT_TRUE(errors.empty()) << errors[0].file << ": " << errors[0].message;
  ASSERT_EQ(cases.size(), 1u);
  const GoldenCase& c = cases[0];
  EXPECT_EQ(c.kernel, "k");
  EXPECT_EQ(c.name, "small");
  EXPECT_EQ(c.description, "test");
  EXPECT_FALSE(c.dispatch.dispatch_threads);
  EXPECT_EQ(c.dispatch.threadgroups, (std::array<uint32_t, 3>{2, 3, 1}));
  EXPECT_EQ(c.dispatch.threads_per_threadgroup, (std::array<uint32_t, 3>{256, 1, 1}));
  EXPECT_EQ(c.dispatch.grid_threads, (std::array<uint32_t, 3>{512, 3, 1}));
  ASSERT_EQ(c.buffers.size(), 3u);
  EXPECT_EQ(c.buffers[1].access, Access::Write);
  EXPECT_EQ(c.buffers[1].name, "out");
  EXPECT_EQ(c.buffers[1].atol, 1e-6);
  EXPECT_EQ(c.buffers[1].rtol, 1e-5);
  EXPECT_EQ(c.buffers[1].tolerance_note, "one rounding");
  EXPECT_TRUE(c.buffers[1].data_path.empty());
  EXPECT_EQ(c.buffers[1].expected_path, root + "/k/small/out.expected.npy");
  EXPECT_EQ(c.buffers[0].data_path, root + "/k/small/in.npy");
  EXPECT_EQ(c.dir, root + "/k/small");
  ASSERT_EQ(c.threadgroup_memory.size(), 1u);
  EXPECT_EQ(c.threadgroup_memory[0].bytes, 1024u);
}

TEST(GoldenCase, LoadsThreadsFormWithPartialThreadgroups) {
  std::string root = testutil::fresh_dir("golden");
  write_good_case(root + "/k/ragged", "k", "ragged", R"({"threads": [300, 5], "threads_per_threadgroup": [256, 2]})");
  std::vector<LoadError> errors;
  auto cases = load_golden_dir(root, &errors);
  ASSERT_EQ(cases.size(), 1u);
  const DispatchSpec& d = cases[0].dispatch;
  EXPECT_TRUE(d.dispatch_threads);
  EXPECT_EQ(d.grid_threads, (std::array<uint32_t, 3>{300, 5, 1}));
  EXPECT_EQ(d.threadgroups, (std::array<uint32_t, 3>{2, 3, 1}));
  EXPECT_EQ(d.threads_per_threadgroup, (std::array<uint32_t, 3>{256, 2, 1}));
}

TEST(GoldenCase, FunctionConstantsBecomeCppLiterals) {
  std::string root = testutil::fresh_dir("golden");
  const std::string head = R"({"kernel": "k", "case": "c", "dispatch": {"threads": [3], "threads_per_threadgroup": [3]},
    "buffers": [{"index": 0, "name": "in", "access": "read", "data": "in.npy"}], "function_constants": )";
  write_case(root + "/k/c",
             head + R"({"use_bias": true, "off": false, "n": -3, "scale": 2.5, "one": 1.0, "7": 4})" + "}");
  std::vector<LoadError> errors;
  auto cases = load_golden_dir(root, &errors);
  ASSERT_TRUE(errors.empty()) << errors[0].message;
  ASSERT_EQ(cases.size(), 1u);
  std::map<std::string, std::string> want = {{"use_bias", "true"}, {"off", "false"}, {"n", "-3"},
                                             {"scale", "2.5"},     {"one", "1.0"},   {"7", "4"}};
  EXPECT_EQ(cases[0].function_constants, want);

  for (const char* bad : {R"([1, 2])", R"({"x": "1"})", R"({"x": null})", R"({"a b": 1})", R"({"x": [1]})"}) {
    std::string dir = testutil::fresh_dir("golden");
    write_case(dir + "/k/c", head + bad + "}");
    std::vector<LoadError> errs;
    EXPECT_TRUE(load_golden_dir(dir, &errs).empty()) << bad;
    ASSERT_EQ(errs.size(), 1u) << bad;
    EXPECT_NE(errs[0].message.find("function_constants"), std::string::npos) << errs[0].message;
  }
}

TEST(GoldenCase, MalformedCasesAreReportedWithFileAndFieldWhileGoodOnesLoad) {
  std::string root = testutil::fresh_dir("golden");
  const std::string tg = R"({"threadgroups": [1], "threads_per_threadgroup": [4]})";
  write_good_case(root + "/a/good1", "a", "good1", tg);
  write_good_case(root + "/b/good2", "b", "good2", tg);
  // Missing field: no "dispatch".
  write_case(root + "/c/missing_dispatch", R"({"kernel": "c", "case": "missing_dispatch",
    "buffers": [{"index": 0, "access": "read", "data": "in.npy"}]})");
  // Wrong type: buffer index is a string.
  write_case(root + "/c/wrong_type", R"({"kernel": "c", "case": "wrong_type", "dispatch": )" + tg + R"(,
    "buffers": [{"index": "0", "access": "read", "data": "in.npy"}]})");
  // Missing .npy.
  write_case(root + "/c/missing_npy", R"({"kernel": "c", "case": "missing_npy", "dispatch": )" + tg + R"(,
    "buffers": [{"index": 0, "access": "read", "data": "in.npy"},
                {"index": 1, "access": "write", "expected": "nowhere.expected.npy"}]})");
  // Invalid JSON.
  write_text(root + "/c/bad_json/case.json", "{\"kernel\": ");
  // Bad access value and bad dispatch shape.
  write_case(root + "/c/bad_access", R"({"kernel": "c", "case": "bad_access", "dispatch": )" + tg + R"(,
    "buffers": [{"index": 0, "access": "readonly", "data": "in.npy"}]})");
  write_case(root + "/c/bad_dispatch", R"({"kernel": "c", "case": "bad_dispatch",
    "dispatch": {"threadgroups": [1, 0], "threads_per_threadgroup": [4]},
    "buffers": [{"index": 0, "access": "read", "data": "in.npy"}]})");
  // Missing kernel name; duplicate buffer index.
  write_case(root + "/c/no_kernel", R"({"case": "no_kernel", "dispatch": )" + tg + R"(, "buffers": []})");
  write_case(root + "/c/dup_index", R"({"kernel": "c", "case": "dup_index", "dispatch": )" + tg + R"(,
    "buffers": [{"index": 0, "access": "read", "data": "in.npy"}, {"index": 0, "access": "read", "data": "in.npy"}]})");
  // read_write whose data and expected sizes differ.
  write_array(root + "/c/rw_size/short.npy", make_npy<float>({1}));
  write_case(root + "/c/rw_size", R"({"kernel": "c", "case": "rw_size", "dispatch": )" + tg + R"(,
    "buffers": [{"index": 0, "access": "read_write", "data": "short.npy", "expected": "out.expected.npy"}]})");

  std::vector<LoadError> errors;
  auto cases = load_golden_dir(root, &errors);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].name, "good1");
  EXPECT_EQ(cases[1].name, "good2");
  std::string all;
  for (const auto& e : errors) all += e.file + ": " + e.message + "\n";
  EXPECT_EQ(errors.size(), 9u) << all;

  struct Want {
    const char* file_part;
    const char* message_part;
  } wants[] = {
      {"missing_dispatch/case.json", "'dispatch': missing"},
      {"wrong_type/case.json", "'buffers[0].index': expected an integer, got string"},
      {"missing_npy/nowhere.expected.npy", "'buffers[1].expected'"},
      {"bad_json/case.json", "invalid JSON"},
      {"bad_access/case.json", "'buffers[0].access'"},
      {"bad_dispatch/case.json", "'dispatch.threadgroups[1]': must be positive"},
      {"no_kernel/case.json", "'kernel': missing"},
      {"dup_index/case.json", "'buffers[1].index'"},
      {"rw_size/case.json", "'buffers[0].expected'"},
  };
  for (const auto& w : wants) {
    const LoadError* e = find_error(errors, w.file_part);
    ASSERT_NE(e, nullptr) << "no error for " << w.file_part;
    EXPECT_NE(e->message.find(w.message_part), std::string::npos) << e->file << ": " << e->message;
  }
  // The missing .npy error also names the case.json it came from.
  EXPECT_NE(find_error(errors, "nowhere")->message.find("missing_npy/case.json"), std::string::npos);
}

TEST(GoldenCase, ReportsMissingRootAndAcceptsASingleFile) {
  std::vector<LoadError> errors;
  EXPECT_TRUE(load_golden_dir("/nonexistent/golden", &errors).empty());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].file, "/nonexistent/golden");

  std::string root = testutil::fresh_dir("golden");
  write_good_case(root + "/k/one", "k", "one", R"({"threadgroups": [1], "threads_per_threadgroup": [3]})");
  errors.clear();
  auto cases = load_golden_dir(root + "/k/one/case.json", &errors);
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(cases.size(), 1u);
}

TEST(GoldenCase, CompareAsIsValidated) {
  std::string root = testutil::fresh_dir("golden");
  write_array(root + "/k/bf/out.npy", make_npy<uint16_t>({0x3F80}));
  write_array(root + "/k/f4/out.npy", make_npy<float>({1}));
  const std::string tg = R"({"threadgroups": [1], "threads_per_threadgroup": [1]})";
  write_text(root + "/k/bf/case.json", R"({"kernel": "k", "case": "bf", "dispatch": )" + tg + R"(,
    "buffers": [{"index": 0, "access": "write", "expected": "out.npy", "rtol": 1e-2, "compare_as": "bfloat16"}]})");
  write_text(root + "/k/f4/case.json", R"({"kernel": "k", "case": "f4", "dispatch": )" + tg + R"(,
    "buffers": [{"index": 0, "access": "write", "expected": "out.npy", "compare_as": "bfloat16"}]})");
  std::vector<LoadError> errors;
  auto cases = load_golden_dir(root, &errors);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].buffers[0].compare_as, "bfloat16");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("'buffers[0].compare_as'"), std::string::npos) << errors[0].message;
}

// A buffer an argument buffer points to: keyed by (index, offset), its
// offset a multiple of 8, its argument buffer given by the case.
TEST(GoldenCase, ArgumentBufferPointersAreValidated) {
  std::string root = testutil::fresh_dir("golden");
  const std::string tg = R"({"threadgroups": [1], "threads_per_threadgroup": [1]})";
  auto write = [&](const std::string& name, const std::string& buffers) {
    write_array(root + "/k/" + name + "/a.npy", make_npy<uint8_t>(std::vector<uint8_t>(16, 0)));
    write_array(root + "/k/" + name + "/x.npy", make_npy<float>({1, 2}));
    write_text(root + "/k/" + name + "/case.json", R"({"kernel": "k", "case": ")" + name + R"(", "dispatch": )" + tg +
                                                       R"(, "buffers": [)" + buffers + "]}");
  };
  write("good", R"({"index": 0, "access": "read", "data": "a.npy"},
                   {"index": 0, "argument_buffer_offset": 8, "access": "read", "data": "x.npy"})");
  write("odd", R"({"index": 0, "access": "read", "data": "a.npy"},
                  {"index": 0, "argument_buffer_offset": 4, "access": "read", "data": "x.npy"})");
  write("twice", R"({"index": 0, "access": "read", "data": "a.npy"},
                    {"index": 0, "argument_buffer_offset": 8, "access": "read", "data": "x.npy"},
                    {"index": 0, "argument_buffer_offset": 8, "access": "read", "data": "x.npy"})");
  write("orphan", R"({"index": 1, "access": "read", "data": "a.npy"},
                     {"index": 0, "argument_buffer_offset": 0, "access": "read", "data": "x.npy"})");
  std::vector<LoadError> errors;
  auto cases = load_golden_dir(root, &errors);
  ASSERT_EQ(cases.size(), 1u);
  ASSERT_EQ(cases[0].buffers.size(), 2u);
  EXPECT_EQ(cases[0].buffers[1].argument_buffer_offset, 8);
  EXPECT_EQ(buffer_key(cases[0].buffers[1]), "0@8");
  EXPECT_EQ(buffer_key(cases[0].buffers[0]), "0");
  ASSERT_EQ(errors.size(), 3u);
  std::map<std::string, std::string> by_case;
  for (const auto& e : errors)
    by_case[e.file.substr(e.file.find("/k/") + 3, e.file.rfind('/') - e.file.find("/k/") - 3)] = e.message;
  EXPECT_NE(by_case["odd"].find("multiple of 8"), std::string::npos) << by_case["odd"];
  EXPECT_NE(by_case["twice"].find("given twice"), std::string::npos) << by_case["twice"];
  EXPECT_NE(by_case["orphan"].find("no argument buffer with index 0"), std::string::npos) << by_case["orphan"];
}

}  // namespace
// A grid near 2^32 threads: the threadgroup count is computed in 64 bits
// (it wrapped to 0 threadgroups and a confusing later message).
TEST(GoldenCase, DispatchThreadsNearTwoToThe32DoNotWrap) {
  std::string root = testutil::fresh_dir("golden");
  write_good_case(root + "/k/huge", "k", "huge", R"({"threads": [4294967295], "threads_per_threadgroup": [256]})");
  std::vector<LoadError> errors;
  auto cases = load_golden_dir(root, &errors);
  ASSERT_TRUE(errors.empty()) << errors[0].message;
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].dispatch.threadgroups[0], 16777216u);
  EXPECT_EQ(cases[0].dispatch.grid_threads[0], 4294967295u);
}

// case.json is read as a regular file of bounded size: a FIFO (or
// /dev/zero) named as a single case neither blocks nor grows memory.
TEST(GoldenCase, ACaseFileThatIsNotRegularIsAnError) {
  std::string root = testutil::fresh_dir("golden");
  GoldenCase c;
  LoadError e;
  EXPECT_FALSE(load_golden_case("/dev/zero", &c, &e));
  EXPECT_NE(e.message.find("not a regular file"), std::string::npos) << e.message;
  write_text(root + "/big/case.json", std::string(kMaxCaseJsonBytes + 1, ' '));
  EXPECT_FALSE(load_golden_case(root + "/big/case.json", &c, &e));
  EXPECT_NE(e.message.find("larger than"), std::string::npos) << e.message;
}

}  // namespace mslport::runtime
