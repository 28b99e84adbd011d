// The host's CPU speed, apart from memory: each of T threads runs the same
// chain of dependent integer multiply-adds (the latency of one core's ALU,
// which moves with its clock and with what shares the physical core), and
// the wall time of the slowest is the sample. Prints one line per thread
// count: the median of 7 samples and the lowest and highest, in ms.
// Build: cc -O2 -pthread -static -o cpuprobe h100-cpuprobe.c
// Use: cpuprobe [LABEL]   (h100-run.sh runs it before and after a bench run)
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static volatile uint64_t sink;

static void* chain(void* arg) {
  uint64_t x = (uint64_t)(uintptr_t)arg | 1, n = 200000000ull;
  for (uint64_t i = 0; i < n; ++i) x = x * 6364136223846793005ull + 1442695040888963407ull;
  sink += x;
  return NULL;
}

static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  const int counts[] = {1, 16};
  for (int c = 0; c < 2; ++c) {
    int t = counts[c];
    double ms[7];
    for (int s = 0; s < 7; ++s) {
      pthread_t th[64];
      double t0 = now();
      for (int i = 0; i < t; ++i) pthread_create(&th[i], NULL, chain, (void*)(uintptr_t)(i + 1));
      for (int i = 0; i < t; ++i) pthread_join(th[i], NULL);
      ms[s] = (now() - t0) * 1e3;
    }
    qsort(ms, 7, sizeof ms[0], cmp);
    printf("cpuprobe %s threads=%d median_ms=%.1f min_ms=%.1f max_ms=%.1f\n", argc > 1 ? argv[1] : "-", t, ms[3], ms[0],
           ms[6]);
  }
  return 0;
}
