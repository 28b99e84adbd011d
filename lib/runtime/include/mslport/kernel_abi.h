/* The C ABI between emitted C++/OpenMP kernels and whoever launches them
 * (mslport's runner, or a user's own host code). Plain C so any host
 * language can bind it. */
#ifndef MSLPORT_KERNEL_ABI_H
#define MSLPORT_KERNEL_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MSLPORT_MAX_BINDINGS 31 /* Metal's buffer argument table size */

typedef struct mslport_dispatch {
  uint32_t threadgroups[3];   /* threadgroups per grid, x y z */
  uint32_t threads_per_tg[3]; /* threads per (full) threadgroup */
  uint32_t grid_threads[3];   /* threads per grid; smaller than
                                 threadgroups*threads_per_tg only for Metal's
                                 dispatchThreads (partial edge threadgroups) */
} mslport_dispatch;

/* The value the host sets for a function constant
 * (`constant T name [[function_constant(index)]];`) that the kernel was
 * translated without: Metal's MTLFunctionConstantValues, given at dispatch. */
typedef struct mslport_function_constant_value {
  uint32_t index;    /* the [[function_constant(index)]] */
  const void* value; /* a T (bool: one byte, 0 or 1) */
} mslport_function_constant_value;

typedef struct mslport_args {
  /* By Metal [[buffer(n)]] index: the buffer's contents (for `constant T&`
   * parameters, a pointer to the T). */
  void* buffers[MSLPORT_MAX_BINDINGS];
  uint64_t buffer_bytes[MSLPORT_MAX_BINDINGS];
  /* By [[threadgroup(n)]] index: dynamic threadgroup memory size in bytes. */
  uint32_t threadgroup_bytes[MSLPORT_MAX_BINDINGS];
  /* The function constants the host sets, in any order (a kernel that reads
   * none ignores them). */
  const mslport_function_constant_value* function_constants;
  uint32_t function_constant_count;
} mslport_args;

/* Returns 0 on success; otherwise writes a message into err. */
typedef int (*mslport_entry_fn)(const mslport_args* args, const mslport_dispatch* dispatch, char* err, size_t err_len);

/* A function constant a kernel reads that the host sets. */
typedef struct mslport_function_constant_info {
  const char* name;
  uint32_t index;   /* [[function_constant(index)]] */
  const char* type; /* Metal's scalar type: "bool", "short", "float", ... */
} mslport_function_constant_info;

typedef struct mslport_kernel_info {
  const char* name;
  mslport_entry_fn entry;
  /* The function constants it reads that the host sets (none: null, 0). */
  const mslport_function_constant_info* function_constants;
  int function_constant_count;
} mslport_kernel_info;

/* Defined by an emitted .cpp compiled with -DMSLPORT_RUNNER_MODULE. */
typedef const mslport_kernel_info* (*mslport_module_kernels_fn)(int* count);
#define MSLPORT_MODULE_KERNELS_SYMBOL "mslport_module_kernels"

#ifdef __cplusplus
}
#endif
#endif
