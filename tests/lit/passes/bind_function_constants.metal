// A required function constant given no value is set by the host at
// dispatch: the front end gives each kernel that reads it (here through a
// helper and a constant computed from it) a function_constant parameter, and
// bind_function_constants, right after inline_functions, makes the reads
// parameter reads and the computed constant its expression. An optional one
// (is_function_constant_defined names it) stays undefined.
// RUN: %mslport ir %s | FileCheck --check-prefix=FRONT %s
// RUN: %mslport ir %s --target openmp --print-after=bind_function_constants --verify-each | FileCheck %s
#include <metal_stdlib>
using namespace metal;

#define BASE 40
constant uint rows [[function_constant(BASE + 2)]];
constant bool flip [[function_constant(3)]];
constant float opt [[function_constant(4)]];
constant uint twice = rows * 2;

static uint last_row() { return rows - 1; }

kernel void fc(device uint* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  uint v = is_function_constant_defined(opt) ? 1 : twice + last_row();
  o[i] = flip ? v : i;
}

kernel void none(device uint* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = i; }

// FRONT: constant rows: uint = function_constant(42), set by the host
// FRONT: constant flip: bool = function_constant(3), set by the host
// FRONT-NOT: constant opt
// FRONT: constant twice: uint = rows * 2u
// FRONT-LABEL: kernel fc
// FRONT: param 2 function_constant(3) flip: bool
// FRONT-NEXT: param 3 function_constant(42) rows: uint
// FRONT-LABEL: kernel none
// FRONT-NOT: function_constant

// CHECK-LABEL: IR after bind_function_constants
// CHECK-NOT: constant rows
// CHECK-NOT: constant twice
// CHECK: kernel fc
// CHECK: param 3 function_constant(42) rows: uint
// CHECK: %v: uint = (rows * 2u) + (rows - 1u)
// CHECK: o[i] = flip ? v : i
