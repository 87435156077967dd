/* rdc_lib.cu -- the device library of the rdc program (see rdc_main.cu) */
#include <cstdio>

#include "rdc.h"

__device__ unsigned int rdc_counter;
__constant__ int rdc_table[RDC_TABLE];

__device__ int rdc_fib(int n) { return n < 2 ? n : rdc_fib(n - 1) + rdc_fib(n - 2); }

static __device__ __noinline__ int square(int x) { return x * x; }
static __device__ __noinline__ int negate(int x) { return -x; }
__device__ rdc_op_t rdc_ops[2] = {square, negate};

__device__ __noinline__ int rdc_apply(rdc_op_t op, int x) { return op(x) + rdc_twice(1); }

/* rdc_main.cu has a static helper of the same name: each unit calls its own */
static __device__ __noinline__ int helper(int x) { return x + 1000; }
__device__ int rdc_lib_helper(int x) { return helper(x); }

__global__ void rdc_count_lib(int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) atomicAdd(&rdc_counter, 2u);
	if (i == 0) printf("rdc_lib: %d threads count 2\n", n);   /* $str in two units */
}

void rdc_lib_count(int n) { rdc_count_lib<<<(n + 63) / 64, 64>>>(n); }
