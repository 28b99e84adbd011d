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

typedef struct mslport_args {
  /* By Metal [[buffer(n)]] index: the buffer's contents (for `constant T&`
   * parameters, a pointer to the T). */
  void* buffers[MSLPORT_MAX_BINDINGS];
  uint64_t buffer_bytes[MSLPORT_MAX_BINDINGS];
  /* By [[threadgroup(n)]] index: dynamic threadgroup memory size in bytes. */
  uint32_t threadgroup_bytes[MSLPORT_MAX_BINDINGS];
} mslport_args;

/* Returns 0 on success; otherwise writes a message into err. */
typedef int (*mslport_entry_fn)(const mslport_args* args, const mslport_dispatch* dispatch, char* err, size_t err_len);

typedef struct mslport_kernel_info {
  const char* name;
  mslport_entry_fn entry;
} mslport_kernel_info;

/* Defined by an emitted .cpp compiled with -DMSLPORT_RUNNER_MODULE. */
typedef const mslport_kernel_info* (*mslport_module_kernels_fn)(int* count);
#define MSLPORT_MODULE_KERNELS_SYMBOL "mslport_module_kernels"

#ifdef __cplusplus
}
#endif
#endif
