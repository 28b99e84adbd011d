/* Runs the OpenCL C port of kernels/vector_ops.metal on the first OpenCL
 * device (PoCL on a CPU), binding each kernel's arguments as the emitted
 * vector_ops.bindings.json lists them:
 *
 *   {"kind": "buffer", "index": i}              the buffer of Metal index i (constant values too)
 *   {"kind": "threadgroup_memory", "index": i}  __local memory: the size of [[threadgroup(i)]]
 *   {"kind": "simd_scratch", "bytes_per_thread": b}  __local memory: b x threads per threadgroup
 *   {"kind": "grid"}                            a uint4 by value: the grid in threads
 *
 * The launch has a global size of threadgroups x threads per threadgroup
 * and a local size of threads per threadgroup; mslport/host.h's builders
 * give the same geometry as for the C++/OpenMP output.
 *
 * usage: host_opencl vector_ops.cl vector_ops.bindings.json */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <jansson.h>
#include <mslport/host.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

#define CHECK(call, what)                                         \
  do {                                                            \
    cl_int rc_ = (call);                                          \
    if (rc_ != CL_SUCCESS) {                                      \
      fprintf(stderr, "%s failed: OpenCL error %d\n", what, rc_); \
      return 1;                                                   \
    }                                                             \
  } while (0)

struct launch {
  const char* kernel;
  mslport_dispatch dispatch;
  cl_mem buffers[MSLPORT_MAX_BINDINGS];           /* by Metal [[buffer(i)]] index */
  size_t threadgroup_bytes[MSLPORT_MAX_BINDINGS]; /* by [[threadgroup(i)]] index */
};

/* The kernel's entry in the bindings, or NULL. */
static json_t* find_kernel(json_t* bindings, const char* name) {
  size_t i;
  json_t* k;
  json_array_foreach(json_object_get(bindings, "kernels"), i, k) {
    const char* n = json_string_value(json_object_get(k, "name"));
    if (n && strcmp(n, name) == 0) return k;
  }
  return NULL;
}

/* Sets the kernel's arguments as its bindings say, runs it, waits. */
static int run(cl_command_queue queue, cl_program program, json_t* bindings, const struct launch* l) {
  const mslport_dispatch* d = &l->dispatch;
  const size_t threads = (size_t)d->threads_per_tg[0] * d->threads_per_tg[1] * d->threads_per_tg[2];
  size_t global[3], local[3], i;
  json_t *entry = find_kernel(bindings, l->kernel), *arg;
  cl_int err;
  cl_kernel k;
  if (!entry) {
    fprintf(stderr, "the bindings have no kernel %s\n", l->kernel);
    return 1;
  }
  k = clCreateKernel(program, l->kernel, &err);
  CHECK(err, "clCreateKernel");
  json_array_foreach(json_object_get(entry, "args"), i, arg) {
    const char* kind = json_string_value(json_object_get(arg, "kind"));
    const json_int_t index = json_integer_value(json_object_get(arg, "index"));
    if (!kind) kind = "";
    if ((strcmp(kind, "buffer") == 0 || strcmp(kind, "threadgroup_memory") == 0) &&
        (index < 0 || index >= MSLPORT_MAX_BINDINGS)) {
      fprintf(stderr, "%s: argument %zu has index %lld\n", l->kernel, i, (long long)index);
      return 1;
    }
    if (strcmp(kind, "buffer") == 0) {
      if (!l->buffers[index]) {
        fprintf(stderr, "%s: no buffer(%lld) given\n", l->kernel, (long long)index);
        return 1;
      }
      CHECK(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &l->buffers[index]), "clSetKernelArg (buffer)");
    } else if (strcmp(kind, "threadgroup_memory") == 0) {
      if (l->threadgroup_bytes[index] == 0) {
        fprintf(stderr, "%s: no size for threadgroup(%lld) memory\n", l->kernel, (long long)index);
        return 1;
      }
      CHECK(clSetKernelArg(k, (cl_uint)i, l->threadgroup_bytes[index], NULL), "clSetKernelArg (threadgroup memory)");
    } else if (strcmp(kind, "simd_scratch") == 0) {
      size_t bytes = (size_t)json_integer_value(json_object_get(arg, "bytes_per_thread")) * threads;
      CHECK(clSetKernelArg(k, (cl_uint)i, bytes < 4 ? 4 : bytes, NULL), "clSetKernelArg (SIMD scratch)");
    } else if (strcmp(kind, "grid") == 0) {
      cl_uint4 grid;
      grid.s[0] = d->grid_threads[0];
      grid.s[1] = d->grid_threads[1];
      grid.s[2] = d->grid_threads[2];
      grid.s[3] = 0;
      CHECK(clSetKernelArg(k, (cl_uint)i, sizeof grid, &grid), "clSetKernelArg (grid)");
    } else {
      fprintf(stderr, "%s: argument %zu is of an unknown kind '%s'\n", l->kernel, i, kind);
      return 1;
    }
  }
  for (i = 0; i < 3; ++i) {
    local[i] = d->threads_per_tg[i];
    global[i] = (size_t)d->threadgroups[i] * d->threads_per_tg[i];
  }
  CHECK(clEnqueueNDRangeKernel(queue, k, 3, NULL, global, local, 0, NULL, NULL), "clEnqueueNDRangeKernel");
  CHECK(clFinish(queue), "clFinish");
  clReleaseKernel(k);
  return 0;
}

static char* read_text(const char* path) {
  FILE* f = fopen(path, "rb");
  char* text = NULL;
  long size;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
      (text = malloc((size_t)size + 1)) != NULL) {
    if (fread(text, 1, (size_t)size, f) != (size_t)size) {
      free(text);
      text = NULL;
    } else {
      text[size] = '\0';
    }
  }
  fclose(f);
  return text;
}

static cl_mem buffer(cl_context ctx, size_t bytes, const void* data, cl_int* err) {
  return clCreateBuffer(ctx, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), bytes, (void*)data, err);
}

enum { N = 1000, ROWS = 37, COLS = 300, THREADS = 256 };

int main(int argc, char** argv) {
  static float x[N], y[N], sx[ROWS * COLS], sout[ROWS * COLS];
  static double want[ROWS * COLS];
  const float a = 2.5f;
  const uint32_t n = N, params[2] = {ROWS, COLS}; /* SoftmaxParams: rows, cols */
  char* source;
  char name[256], err_text[512];
  json_t* bindings;
  json_error_t jerr;
  cl_platform_id platforms[16];
  cl_uint nplatforms = 0, p;
  cl_device_id device = NULL;
  cl_context ctx;
  cl_command_queue queue;
  cl_program program;
  cl_int err;
  struct launch l;
  int failures = 0;

  if (argc != 3) {
    fprintf(stderr, "usage: %s NAME.cl NAME.bindings.json\n", argv[0]);
    return 2;
  }
  if (!(source = read_text(argv[1]))) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  if (!(bindings = json_load_file(argv[2], 0, &jerr))) {
    fprintf(stderr, "%s:%d:%d: %s\n", argv[2], jerr.line, jerr.column, jerr.text);
    return 1;
  }

  CHECK(clGetPlatformIDs(16, platforms, &nplatforms), "clGetPlatformIDs");
  for (p = 0; p < nplatforms && !device; ++p)
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) device = NULL;
  if (!device) {
    fprintf(stderr, "no OpenCL device\n");
    return 1;
  }
  CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL), "clGetDeviceInfo");
  printf("OpenCL device: %s\n", name);
  ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err, "clCreateContext");
  queue = clCreateCommandQueue(ctx, device, 0, &err);
  CHECK(err, "clCreateCommandQueue");
  program = clCreateProgramWithSource(ctx, 1, (const char**)&source, NULL, &err);
  CHECK(err, "clCreateProgramWithSource");
  /* Strict OpenCL C 1.2, as mslport check builds it. */
  if (clBuildProgram(program, 1, &device, "-cl-std=CL1.2", NULL, NULL) != CL_SUCCESS) {
    static char log[65536];
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "building %s failed:\n%s\n", argv[1], log);
    return 1;
  }

  /* saxpy over a grid of n threads (dispatchThreads). */
  fill_inputs(x, N, 1);
  fill_inputs(y, N, 2);
  saxpy_reference(x, y, a, N, want);
  memset(&l, 0, sizeof l);
  l.kernel = "saxpy";
  if (mslport_dispatch_threads(&l.dispatch, n, 1, 1, THREADS, 1, 1, err_text, sizeof err_text) != 0) {
    fprintf(stderr, "saxpy: %s\n", err_text);
    return 1;
  }
  l.buffers[0] = buffer(ctx, sizeof x, x, &err);
  CHECK(err, "clCreateBuffer");
  l.buffers[1] = buffer(ctx, sizeof y, y, &err);
  CHECK(err, "clCreateBuffer");
  l.buffers[2] = buffer(ctx, sizeof a, &a, &err);
  CHECK(err, "clCreateBuffer");
  l.buffers[3] = buffer(ctx, sizeof n, &n, &err);
  CHECK(err, "clCreateBuffer");
  if (run(queue, program, bindings, &l) != 0) return 1;
  CHECK(clEnqueueReadBuffer(queue, l.buffers[1], CL_TRUE, 0, sizeof y, y, 0, NULL, NULL), "clEnqueueReadBuffer");
  failures += compare("saxpy (OpenCL)", y, want, N, SAXPY_ATOL, SAXPY_RTOL);

  /* row_softmax: one threadgroup per row (dispatchThreadgroups), one float
   * of threadgroup memory per SIMD group. */
  fill_inputs(sx, ROWS * COLS, 3);
  softmax_reference(sx, ROWS, COLS, want);
  memset(&l, 0, sizeof l);
  l.kernel = "row_softmax";
  if (mslport_dispatch_threadgroups(&l.dispatch, ROWS, 1, 1, THREADS, 1, 1, err_text, sizeof err_text) != 0) {
    fprintf(stderr, "row_softmax: %s\n", err_text);
    return 1;
  }
  l.buffers[0] = buffer(ctx, sizeof sx, sx, &err);
  CHECK(err, "clCreateBuffer");
  l.buffers[1] = buffer(ctx, sizeof sout, NULL, &err);
  CHECK(err, "clCreateBuffer");
  l.buffers[2] = buffer(ctx, sizeof params, params, &err);
  CHECK(err, "clCreateBuffer");
  l.threadgroup_bytes[0] = THREADS / 32 * sizeof(float);
  if (run(queue, program, bindings, &l) != 0) return 1;
  CHECK(clEnqueueReadBuffer(queue, l.buffers[1], CL_TRUE, 0, sizeof sout, sout, 0, NULL, NULL), "clEnqueueReadBuffer");
  failures += compare("row_softmax (OpenCL)", sout, want, ROWS * COLS, SOFTMAX_ATOL, SOFTMAX_RTOL);
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
