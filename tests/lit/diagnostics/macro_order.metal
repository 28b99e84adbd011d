// -D and -U apply in the order given, as clang applies them: undefining a
// predefined macro and defining it again redefines it, and a later -U
// undoes an earlier -D (and the other way round).
// RUN: %mslport translate %s --target openmp -o %t.cpp -D CHECK_VERSION -U __METAL_VERSION__ -D __METAL_VERSION__=310 -D GONE -U GONE 2>&1 | FileCheck %s --check-prefix=ORDER --implicit-check-not=error
// RUN: not %mslport translate %s --target openmp -o %t2.cpp -U GONE -D GONE 2>&1 | FileCheck %s --check-prefix=REDEFINED
#include <metal_stdlib>
using namespace metal;
#if defined(CHECK_VERSION) && __METAL_VERSION__ != 310
#error "__METAL_VERSION__ was not redefined to 310"
#endif
#ifdef GONE
// REDEFINED: macro_order.metal:[[@LINE+1]]:2: error: "GONE is defined"
#error "GONE is defined"
#endif
kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = float(__METAL_VERSION__); }
// ORDER: macro_order.metal: 1 kernel translated, 0 skipped
