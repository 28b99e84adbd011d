// Where a short mat-vec launch's time goes on NVIDIA's OpenCL: per-launch events vs back-to-back
// batches, an empty kernel, and device copies of the same bytes.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s:%d %s = %d\n", __FILE__, __LINE__, #x, e_); exit(1); } } while (0)
static cl_context C; static cl_command_queue Q; static cl_device_id D;
static double ev_us(cl_event a, cl_event b) {
  cl_ulong s, e; clGetEventProfilingInfo(a, CL_PROFILING_COMMAND_START, 8, &s, 0);
  clGetEventProfilingInfo(b, CL_PROFILING_COMMAND_END, 8, &e, 0); return (e - s) / 1e3;
}
static int cmp(const void* a, const void* b) { double x = *(double*)a, y = *(double*)b; return x < y ? -1 : x > y; }
static double median(double* v, int n) { qsort(v, n, sizeof *v, cmp); return v[n / 2]; }
static cl_mem buf(size_t n) { cl_int e; cl_mem m = clCreateBuffer(C, CL_MEM_READ_WRITE, n, 0, &e); CK(e);
  unsigned char z = 0x3c; CK(clEnqueueFillBuffer(Q, m, &z, 1, 0, n, 0, 0, 0)); return m; }
int main(int argc, char** argv) {
  const char* file = argv[1];
  FILE* f = fopen(file, "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
  char* src = malloc(n + 1); fread(src, 1, n, f); src[n] = 0; fclose(f);
  cl_platform_id ps[8]; cl_uint np; clGetPlatformIDs(8, ps, &np); D = 0;
  for (cl_uint i = 0; i < np && !D; i++) if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &D, NULL)) D = 0;
  cl_int e; C = clCreateContext(0, 1, &D, 0, 0, &e); CK(e);
  Q = clCreateCommandQueue(C, D, CL_QUEUE_PROFILING_ENABLE, &e); CK(e);
  const char* s = src; cl_program p = clCreateProgramWithSource(C, 1, &s, 0, &e); CK(e);
  CK(clBuildProgram(p, 1, &D, "-cl-std=CL1.2 -DMSLPORT_NV_SHFL", 0, 0));
  const char* esrc = "__kernel void empty(__global float* o) { if (get_global_id(0) == ~0u) o[0] = 1; }";
  cl_program pe = clCreateProgramWithSource(C, 1, &esrc, 0, &e); CK(e); CK(clBuildProgram(pe, 1, &D, "", 0, 0));
  cl_kernel ke = clCreateKernel(pe, "empty", &e); CK(e);
  enum { R = 40, B = 20 };
  double t[R];
  cl_mem o1 = buf(4); CK(clSetKernelArg(ke, 0, sizeof o1, &o1));
  for (int grid = 256; grid <= 16384 * 32; grid *= 64) {
    size_t g = grid, l = 256;
    for (int r = 0; r < R; r++) { cl_event ev; CK(clEnqueueNDRangeKernel(Q, ke, 1, 0, &g, &l, 0, 0, &ev)); clWaitForEvents(1, &ev); t[r] = ev_us(ev, ev); clReleaseEvent(ev); }
    printf("empty kernel, %d work-items: %.2f us per launch (median of %d)\n", grid, median(t, R), R);
  }
  const char* names[] = {"dequant_matvec_8bit_v3", "dequant_matvec_4bit_v3"};
  for (int kn = 0; kn < 2; kn++) {
    int bits = kn == 0 ? 8 : 4;
    cl_kernel k = clCreateKernel(p, names[kn], &e); CK(e);
    for (unsigned rows = (bits == 8 ? 16384 : 32768); rows <= (bits == 8 ? 16384u : 32768u) * 4; rows *= 2) {
      unsigned in_dim = 4096, gs = 64;
      size_t wb = (size_t)rows * in_dim * bits / 8, sb = (size_t)rows * (in_dim / gs) * 2;
      enum { S = 3 };
      cl_mem W[S], Sc[S], Bi[S];
      for (int i = 0; i < S; i++) { W[i] = buf(wb); Sc[i] = buf(sb); Bi[i] = buf(sb); }
      cl_mem x = buf(in_dim * 4), out = buf(rows * 4);
      cl_int ee; cl_mem od = clCreateBuffer(C, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 4, &rows, &ee);
      cl_mem id = clCreateBuffer(C, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 4, &in_dim, &ee);
      cl_mem gsz = clCreateBuffer(C, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 4, &gs, &ee);
      size_t g = (size_t)(rows + 7) / 8 * 256, l = 256;
      cl_uint4 grid = {{(cl_uint)g, 1, 1, 0}};
      CK(clSetKernelArg(k, 3, sizeof x, &x)); CK(clSetKernelArg(k, 4, sizeof out, &out));
      CK(clSetKernelArg(k, 5, sizeof od, &od)); CK(clSetKernelArg(k, 6, sizeof id, &id)); CK(clSetKernelArg(k, 7, sizeof gsz, &gsz));
      CK(clSetKernelArg(k, 8, 8 * 256, 0)); CK(clSetKernelArg(k, 9, sizeof grid, &grid));
      double bytes = wb + 2.0 * sb + in_dim * 4 + rows * 4.0;
      #define SETS(i) do { CK(clSetKernelArg(k, 0, sizeof W[i], &W[i])); CK(clSetKernelArg(k, 1, sizeof Sc[i], &Sc[i])); CK(clSetKernelArg(k, 2, sizeof Bi[i], &Bi[i])); } while (0)
      for (int r = 0; r < R; r++) { SETS(r % S); cl_event ev; CK(clEnqueueNDRangeKernel(Q, k, 1, 0, &g, &l, 0, 0, &ev)); clWaitForEvents(1, &ev); t[r] = ev_us(ev, ev); clReleaseEvent(ev); }
      double single = median(t, R);
      double bt[8];
      for (int rep = 0; rep < 8; rep++) {
        cl_event first = 0, last = 0;
        for (int b = 0; b < B; b++) { SETS(b % S); cl_event ev; CK(clEnqueueNDRangeKernel(Q, k, 1, 0, &g, &l, 0, 0, &ev));
          if (b == 0) first = ev; else if (b == B - 1) last = ev; else clReleaseEvent(ev); }
        clWaitForEvents(1, &last); bt[rep] = ev_us(first, last) / B; clReleaseEvent(first); clReleaseEvent(last);
      }
      double batch = median(bt, 8);
      // a device copy of the same bytes
      cl_mem c0 = buf((size_t)bytes / 2), c1 = buf((size_t)bytes / 2);
      for (int r = 0; r < R; r++) { cl_event ev; CK(clEnqueueCopyBuffer(Q, r & 1 ? c0 : c1, r & 1 ? c1 : c0, 0, 0, (size_t)bytes / 2, 0, 0, &ev)); clWaitForEvents(1, &ev); t[r] = ev_us(ev, ev); clReleaseEvent(ev); }
      double copy = median(t, R);
      printf("%s rows=%u (%.1f MB): one launch %.1f us = %.0f GB/s; back-to-back %d: %.1f us = %.0f GB/s; copy of the same bytes %.1f us = %.0f GB/s\n",
             names[kn], rows, bytes / 1e6, single, bytes / single / 1e3, B, batch, bytes / batch / 1e3, copy, bytes / copy / 1e3);
      for (int i = 0; i < S; i++) { clReleaseMemObject(W[i]); clReleaseMemObject(Sc[i]); clReleaseMemObject(Bi[i]); }
      clReleaseMemObject(c0); clReleaseMemObject(c1); clReleaseMemObject(x); clReleaseMemObject(out);
      clFinish(Q);
    }
  }
  return 0;
}
