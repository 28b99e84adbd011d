// Metal names that the emitted C++ reserves (a keyword, a macro of the C
// library, a name of the runtime or of the emitted code itself) are renamed,
// and the translation compiles.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mslport translate %s --target openmp -o %t/names.cpp
// RUN: %cxx -std=c++17 -fopenmp -fsyntax-only -I %runtime-include %t/names.cpp
// RUN: FileCheck --check-prefix=HEADER %s < %t/names.h
// RUN: FileCheck --check-prefix=TABLE %s < %t/names.cpp
#include <metal_stdlib>
using namespace metal;

// HEADER: struct Params {
// HEADER-NEXT: uint32_t errno_;
// HEADER-NEXT: float M_PI_;
struct Params {
  uint errno;
  float M_PI;
};

// Program-scope constants are the kernels' own, in the .cpp.
// TABLE: static constexpr uint32_t EOF_ = 3u;
constant uint EOF = 3;

// (`errno_` is the field's new name: a name is given once in a module.)
// HEADER: void errno__(float* NULL_, const Params& p, float* m_mslport_dispatch, const uint32_t& g_, float* geo_, float* int8_t_, const mslport_dispatch& dispatch);
// The runner finds the kernel by its Metal name.
// TABLE: {"errno", &mslport_kernels::mslport_entry_errno__},
kernel void errno(device float* NULL [[buffer(0)]], constant Params& p [[buffer(1)]],
                  device float* mslport_dispatch [[buffer(2)]], constant uint& g [[buffer(3)]],
                  device float* geo [[buffer(4)]], device float* int8_t [[buffer(5)]],
                  uint tid [[thread_position_in_grid]]) {
  float scaled = p.M_PI * float(p.errno + EOF);
  NULL[tid] = scaled;
  mslport_dispatch[tid] = float(g);
  geo[tid] = 1.0f;
  int8_t[tid] = 2.0f;
}
