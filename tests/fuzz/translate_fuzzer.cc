// libFuzzer harness over the whole translate path: front end (libclang),
// verifier, execution-model passes and both backends. Any crash, hang or
// sanitizer report is a bug; diagnostics are the expected outcome for most
// inputs.
//   apt-get install -y libclang-rt-19-dev   # libFuzzer and the sanitizer runtimes
//   cmake -S . -B build-fuzz -DMSLPORT_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19
//   cmake --build build-fuzz --target translate_fuzzer
//   build-fuzz/tests/fuzz/translate_fuzzer -max_total_time=300 corpus-dir/ seeds...
#include <cstddef>
#include <cstdint>
#include <string>

#include "back/opencl/emit_opencl.h"
#include "back/openmp/emit_openmp.h"
#include "front/parse_metal.h"
#include "ir/verifier.h"
#include "support/large_stack.h"

// As the tool does (tool/main.cc, tool/translation.cc): libclang parses on
// the calling thread, and each input is translated on the large stack.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  mslport::front::parse_on_calling_thread();
  return 0;
}

namespace {
void translate(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  mslport::DiagEngine diags;
  auto module = mslport::front::parse_metal_source("fuzz.metal", text, diags);
  if (!module || !mslport::ir::verify_module(*module, diags)) return;
  mslport::back::openmp::EmitOptions omp;
  omp.tool_version = "fuzz";
  omp.header_name = "fuzz.h";
  mslport::back::openmp::EmitResult omp_out;
  mslport::back::openmp::emit_module(*module, omp, diags, &omp_out);
  mslport::back::opencl::EmitOptions cl;
  cl.tool_version = "fuzz";
  mslport::back::opencl::EmitResult cl_out;
  mslport::back::opencl::emit_module(*module, cl, diags, &cl_out);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mslport::run_with_stack(mslport::kTranslationStackBytes, [&] { translate(data, size); });
  return 0;
}
