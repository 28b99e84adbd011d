// Build an OpenCL C file on the first GPU device; print the build log; write the binary (PTX on NVIDIA).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
  if (argc < 4) { fprintf(stderr, "usage: cldump file.cl options out.bin\n"); return 2; }
  FILE* f = fopen(argv[1], "rb"); if (!f) { perror(argv[1]); return 1; }
  fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
  char* src = malloc(n + 1); fread(src, 1, n, f); src[n] = 0; fclose(f);
  cl_platform_id ps[8]; cl_uint np; clGetPlatformIDs(8, ps, &np);
  cl_device_id d = 0;
  for (cl_uint i = 0; i < np && !d; i++) if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL) != CL_SUCCESS) d = 0;
  if (!d) { fprintf(stderr, "no GPU\n"); return 1; }
  cl_int e; cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  const char* s = src; cl_program p = clCreateProgramWithSource(c, 1, &s, NULL, &e);
  e = clBuildProgram(p, 1, &d, argv[2], NULL, NULL);
  size_t ls; clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, NULL, &ls);
  char* log = malloc(ls + 1); clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, ls, log, NULL); log[ls] = 0;
  fprintf(stderr, "build rc=%d\n%s\n", e, log);
  if (e) return 1;
  size_t bs; clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bs, &bs, NULL);
  unsigned char* b = malloc(bs); clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof b, &b, NULL);
  FILE* o = fopen(argv[3], "wb"); fwrite(b, 1, bs, o); fclose(o);
  return 0;
}
