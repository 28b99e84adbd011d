// libFuzzer harness over the golden-case parser: case.json (JSON, the
// schema, dispatch and size arithmetic), the .npy reader (header literal,
// versions, shapes, Fortran order, structured dtypes) and what every
// executor does with a loaded case before and after a launch (buffers
// filled, poisoned, guarded, compared). Any crash, hang, sanitizer report
// or uncaught exception is a bug; LoadError is the expected outcome for
// most inputs.
//
// An input is a small archive, as tests/fuzz/make_golden_seeds.py writes
// it: case.json, x.npy and y.npy as FuzzedDataProvider random-length
// strings (a backslash escapes a backslash; a backslash and any other byte
// ends the string), then out.expected.npy as the rest. A case names them
// by those file names.
//   cmake --build build-fuzz --target golden_case_fuzzer
//   /usr/bin/python3 tests/fuzz/make_golden_seeds.py golden seeds-golden/
//   build-fuzz/tests/fuzz/golden_case_fuzzer -max_total_time=600 corpus-golden/ seeds-golden/
#include <fuzzer/FuzzedDataProvider.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "runtime/case_buffers.h"
#include "runtime/golden_case.h"
#include "runtime/npy.h"

namespace fs = std::filesystem;
using namespace mslport::runtime;

namespace {

// One folder per fuzzing process (libFuzzer's -jobs run several).
const fs::path& case_dir() {
  static const fs::path dir = [] {
    const char* t = std::getenv("TMPDIR");
    fs::path d = fs::path(t && *t ? t : "/tmp") / ("mslport-golden-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

void write(const fs::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  std::string json = in.ConsumeRandomLengthString(1 << 16);
  std::string x = in.ConsumeRandomLengthString(1 << 20);
  std::string y = in.ConsumeRandomLengthString(1 << 20);
  std::string expected = in.ConsumeRemainingBytesAsString();

  // Each .npy image on its own, as the executors read them.
  for (const std::string* image : {&x, &y, &expected}) {
    NpyArray a;
    std::string err;
    if (parse_npy(*image, &a, &err)) (void)serialize_npy(a);
  }

  const fs::path& dir = case_dir();
  write(dir / "case.json", json);
  write(dir / "x.npy", x);
  write(dir / "y.npy", y);
  write(dir / "out.expected.npy", expected);
  GoldenCase c;
  LoadError error;
  if (!load_golden_case((dir / "case.json").string(), &c, &error)) return 0;

  // A case that loads: fill its buffers as a launch would, let "the kernel"
  // write the expected bytes into every output (and scribble past one end
  // when the input says so), then check them as after a launch.
  std::vector<HostBuffer> buffers;
  try {
    buffers = load_case_buffers(c);
  } catch (const std::runtime_error&) {
    return 0;  // an .npy that the header check passed but the full read refused
  }
  std::vector<std::vector<uint8_t>> memory(buffers.size());
  std::vector<const uint8_t*> contents;
  for (size_t i = 0; i < buffers.size(); ++i) {
    memory[i].resize(buffers[i].bytes + kGuardBytes);
    fill_buffer(buffers[i], memory[i].data());
    if (buffers[i].spec->access != Access::Read && !buffers[i].expected.data.empty())
      std::copy(buffers[i].expected.data.begin(), buffers[i].expected.data.end(), memory[i].begin());
    if (!json.empty() && (json.back() & 1) && i == 0) memory[i][buffers[i].bytes] ^= 1;
    contents.push_back(memory[i].data());
  }
  CaseResult r = make_result(c, "fuzz");
  check_buffers(buffers, contents, &r);
  return 0;
}
