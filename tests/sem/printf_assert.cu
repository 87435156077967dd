#include <cstdio>
#include <cassert>
__global__ void k(int *x, float f, double d) {
  int i = threadIdx.x;
  printf("tid %d x=%u f=%f d=%.3e s=%s c=%c ll=%lld\n", i, x[i], f, d, "hi", 'A' + i, (long long)i << 40);
  assert(x[i] < 100);
}
