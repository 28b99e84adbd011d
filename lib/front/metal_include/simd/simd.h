// Parse-only <simd/simd.h> for mslport's front end: the header Metal code
// shares with host code for vector types (SPIR-V Cross emits it in every
// file). In a Metal file its types are Metal's.
#pragma once
#include <metal_stdlib>

#define MSLPORT_SIMD_ALIASES(T)                 \
  typedef T simd_##T;                           \
  typedef T##2 simd_##T##2;                     \
  typedef T##3 simd_##T##3;                     \
  typedef T##4 simd_##T##4;
MSLPORT_SIMD_ALIASES(float)
MSLPORT_SIMD_ALIASES(half)
MSLPORT_SIMD_ALIASES(int)
MSLPORT_SIMD_ALIASES(uint)
MSLPORT_SIMD_ALIASES(short)
MSLPORT_SIMD_ALIASES(ushort)
MSLPORT_SIMD_ALIASES(char)
MSLPORT_SIMD_ALIASES(uchar)
#undef MSLPORT_SIMD_ALIASES
