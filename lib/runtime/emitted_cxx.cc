#include "runtime/emitted_cxx.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "support/install_paths.h"

#ifndef MSLPORT_CXX_COMPILER
#define MSLPORT_CXX_COMPILER "c++"
#endif

namespace mslport::runtime {

namespace fs = std::filesystem;

bool emitted_cxx(EmittedCxx* out, std::string* error) {
  const char* cxx = std::getenv("MSLPORT_CXX");
  out->compiler = cxx && *cxx ? cxx : MSLPORT_CXX_COMPILER;
  out->include_dir = install_paths().include;
  std::error_code ec;
  if (out->include_dir.empty() || !fs::is_regular_file(fs::path(out->include_dir) / "mslport" / "kernel_abi.h", ec)) {
    *error = "mslport/kernel_abi.h not found under '" + out->include_dir +
             "' (mslport's runtime headers belong in include/ beside the bin/ directory of the program; set "
             "MSLPORT_INCLUDE_DIR to the directory that holds mslport/kernel_abi.h)";
    return false;
  }
  // -fno-math-errno: Metal's math never sets errno, and errno keeps sqrt/exp
  // out of vectorised work-item loops. -fassociative-math (with the
  // -fno-signed-zeros -fno-trapping-math it needs): Metal compiles with fast
  // math by default, which lets a per-thread sum (`dot += a[d] * w[d]`) be
  // reassociated and so vectorised; the golden tolerances already allow
  // for it. Not -ffast-math: kernels compare against INFINITY and NaN.
  out->flags = {
      "-std=c++17",         "-O2",     "-march=native", "-fno-math-errno", "-fassociative-math", "-fno-signed-zeros",
      "-fno-trapping-math", "-fopenmp"};
#if defined(__x86_64__)
  // 256-bit vectors even where the CPU has 512-bit ones. What LLVM already
  // does on Intel's AVX-512 cores; on AMD Zen 4 it vectorises 512 bits wide,
  // and there streaming stores of 512-bit vectors are slower. Measured on the
  // 2-core EPYC VM (three alternating runs, median): residual_add 1.35x,
  // weighted_sum_stacked_f32 1.11x, rms_norm_apply 1.06x, swiglu / silu /
  // bf16 mat-vec / fused_norm_add 0.98-1.01x, moe_combine_residual 0.95x;
  // a triad 23-25 -> 31-34 GB/s.
  out->flags.push_back("-mprefer-vector-width=256");
#endif
  // Clang: let the vectoriser use interleaved (shuffled) loads under a mask.
  // A work-item loop reads `x[8 * col + j]` for j = 0..7 under the kernel's
  // guards; without this LLVM turns each of them into a gather (measured:
  // the 4-bit mat-vec 2x slower). Off by default in LLVM for X86 only for
  // cost-model reasons; AVX-512 has the masked loads it needs.
  if (fs::path(out->compiler).filename().string().find("clang") != std::string::npos) {
    out->flags.push_back("-mllvm");
    out->flags.push_back("-enable-masked-interleaved-mem-accesses");
  }
  out->flags.push_back("-I");
  out->flags.push_back(out->include_dir);
  return true;
}

std::vector<std::string> runner_module_flags() { return {"-shared", "-fPIC", "-DMSLPORT_RUNNER_MODULE"}; }

}  // namespace mslport::runtime
