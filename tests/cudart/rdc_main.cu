/*
 * rdc_main.cu + rdc_lib.cu + rdc_host.cu -- relocatable device code: one
 * program from three units joined by the device link (nvcc -rdc=true, or
 * -dc and -dlink).  The kernel here calls rdc_lib.cu's extern device
 * functions (a recursive one; one that calls a function pointer this unit
 * passes it, and pointers rdc_lib.cu's table holds), a .weak template
 * both units instantiate, and a static helper whose name rdc_lib.cu's
 * own static helper shares; it reads rdc_lib.cu's __constant__ table
 * after rdc_host.cu's host code wrote it, and counts in rdc_lib.cu's
 * __device__ counter, which a kernel of rdc_lib.cu counts in too.
 * Checked against a CPU reference.
 */
#include <cstdio>
#include <vector>

#include "check.h"
#include "rdc.h"

static __device__ __noinline__ int helper(int x) { return 3 * x; }
__device__ __noinline__ int cube(int x) { return x * x * x; }

__global__ void rdc_kernel(int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	int v = rdc_fib(i % 12) + rdc_table[i % RDC_TABLE] + helper(i) + rdc_lib_helper(i);
	v += rdc_apply(cube, i % 7) + rdc_apply(rdc_ops[i & 1], i) + rdc_twice(i);
	out[i] = v;
	atomicAdd(&rdc_counter, 1u);
	if (i == 0) printf("rdc_main: %d threads count 1\n", n);
}

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main()
{
	const int n = 300;
	int table[RDC_TABLE];
	for (int k = 0; k < RDC_TABLE; k++) table[k] = 7 * k * k - 40;
	rdc_host_set_table(table);

	int *d;
	CHECK(cudaMalloc(&d, n * sizeof(int)));
	rdc_kernel<<<(n + 127) / 128, 128>>>(d, n);
	CHECK(cudaGetLastError());
	rdc_lib_count(n);
	CHECK(cudaGetLastError());
	std::vector<int> got(n);
	CHECK(cudaMemcpy(got.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++) {
		int c = i % 7, ptr = (i & 1) ? -i : i * i;
		int want = fib(i % 12) + table[i % RDC_TABLE] + 3 * i + (i + 1000) + c * c * c + 2 +
		           ptr + 2 + 2 * i;
		EXPECT(got[i] == want, "out[%d] = %d, want %d", i, got[i], want);
	}
	unsigned count = 0;
	CHECK(cudaMemcpyFromSymbol(&count, rdc_counter, sizeof count));
	EXPECT(count == 3u * n, "rdc_counter = %u read here, want %u", count, 3u * n);
	EXPECT(rdc_host_counter() == 3u * n, "rdc_counter = %u read by rdc_host.cu",
	       rdc_host_counter());
	int back[RDC_TABLE + 1];
	rdc_host_read_table(back);
	for (int k = 0; k < RDC_TABLE; k++)
		EXPECT(back[k] == table[k], "rdc_table[%d] = %d read by rdc_host.cu's kernel", k,
		       back[k]);
	EXPECT(back[RDC_TABLE] == 3 * n, "rdc_read saw rdc_counter = %d", back[RDC_TABLE]);
	CHECK(cudaFree(d));
	std::printf("PASS\n");
	return 0;
}
