// Recursion that does not become a loop is refused at the call, each kernel
// on its own; a function that calls itself last (a tail call) translates.
// RUN: %mslport translate %s --target openmp -o %t.cpp 2>&1 | FileCheck %s
// RUN: grep -q "mslport_entry_uses_countdown" %t.cpp
// RUN: not grep -q "mslport_entry_uses_fact" %t.cpp
#include <metal_stdlib>
using namespace metal;

int fact(int n) {
  if (n <= 1) return 1;
  // CHECK-DAG: tail_recursion.metal:[[@LINE+1]]:14: warning: recursive call to 'fact' that is not a tail call (its last act, outside its loops): this recursion is not supported yet [kernel 'uses_fact' skipped]
  return n * fact(n - 1);
}

int ping(int n);
int pong(int n) {
  if (n <= 0) return 0;
  // CHECK-DAG: tail_recursion.metal:[[@LINE+1]]:10: warning: recursive call to 'ping' through other functions: this recursion is not supported yet [kernel 'uses_ping' skipped]
  return ping(n - 1);
}
int ping(int n) {
  if (n <= 0) return 1;
  return pong(n - 1);
}

void swap_bump(thread int& a, thread int& b, int n) {
  if (n == 0) return;
  a += 1;
  // CHECK-DAG: tail_recursion.metal:[[@LINE+1]]:3: warning: tail call to 'swap_bump' with another object for the reference parameter 'a': only a call on the same object becomes a loop [kernel 'uses_swap_bump' skipped]
  swap_bump(b, a, n - 1);
}

int countdown(int n, int acc) {
  if (n <= 0) return acc;
  return countdown(n - 1, acc + n);
}

kernel void uses_fact(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = fact(int(i)); }
kernel void uses_ping(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = ping(int(i)); }
kernel void uses_swap_bump(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  int a = 0, b = 0;
  swap_bump(a, b, int(i));
  out[i] = a - b;
}
// CHECK: tail_recursion.metal: 1 kernel translated, 3 skipped
kernel void uses_countdown(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  out[i] = countdown(int(i), 0);
}
