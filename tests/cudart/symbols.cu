/*
 * symbols.cu -- module-scope __constant__ and __device__ variables with
 * initializers (scalars, arrays, a struct, one inside a namespace), read by
 * a kernel, then read and written by the host through the symbol API
 * (cudaMemcpyToSymbol/FromSymbol with offsets, cudaGetSymbolAddress/Size).
 */
#include <cuda_runtime.h>

#include "check.h"

struct Pair {
	int a;
	float b;
};

__constant__ float coef[4] = {0.5f, 1.5f, 2.5f, 3.5f};
__constant__ int scale = 3;
__device__ int counter = 100;
__device__ float table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ double dvals[3] = {0.25, -1.5, 1e10};
__device__ Pair pair = {7, 0.25f};
namespace ns {
__device__ int nested = 42;
}

__global__ void use(float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	atomicAdd(&counter, 1);
	out[i] = coef[i % 4] * scale + table[i % 8] + (float)dvals[i % 2] + pair.a * pair.b +
	         ns::nested;
}

static float expect(int i, const float *c, const float *t)
{
	const double d[2] = {0.25, -1.5};
	return c[i % 4] * 3 + t[i % 8] + (float)d[i % 2] + 7 * 0.25f + 42;
}

int main()
{
	const int n = 100;
	float *dout, out[n];
	float c[4] = {0.5f, 1.5f, 2.5f, 3.5f}, t[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	CHECK(cudaMalloc(&dout, sizeof out));
	use<<<2, 64>>>(dout, n);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++)
		EXPECT(out[i] == expect(i, c, t), "out[%d] = %g, want %g", i, out[i], expect(i, c, t));
	int cnt = 0;
	CHECK(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt));
	EXPECT(cnt == 100 + n, "counter %d", cnt);

	/* new coefficients; table[2] and table[3] through an offset */
	float c2[4] = {10, 20, 30, 40}, two[2] = {-3, -4};
	CHECK(cudaMemcpyToSymbol(coef, c2, sizeof c2));
	CHECK(cudaMemcpyToSymbol(table, two, sizeof two, 2 * sizeof(float)));
	t[2] = -3, t[3] = -4;
	int zero = 0;
	CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero, 0, cudaMemcpyHostToDevice));
	use<<<1, 128>>>(dout, n);
	CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++)
		EXPECT(out[i] == expect(i, c2, t), "out[%d] = %g, want %g", i, out[i],
		       expect(i, c2, t));
	CHECK(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt, 0, cudaMemcpyDeviceToHost));
	EXPECT(cnt == n, "counter %d", cnt);

	/* the symbol's device address works like any device pointer */
	float *dtab = nullptr, back[8];
	size_t size = 0;
	CHECK(cudaGetSymbolAddress((void **)&dtab, table));
	CHECK(cudaGetSymbolSize(&size, table));
	EXPECT(size == sizeof back, "table is %zu bytes", size);
	CHECK(cudaMemcpy(back, dtab, sizeof back, cudaMemcpyDeviceToHost));
	for (int i = 0; i < 8; i++) EXPECT(back[i] == t[i], "table[%d] = %g", i, back[i]);
	Pair p;
	CHECK(cudaMemcpyFromSymbol(&p, pair, sizeof p));
	EXPECT(p.a == 7 && p.b == 0.25f, "pair {%d, %g}", p.a, p.b);
	double dv[3];
	CHECK(cudaMemcpyFromSymbol(dv, dvals, sizeof dv));
	EXPECT(dv[2] == 1e10, "dvals[2] = %g", dv[2]);
	EXPECT(cudaMemcpyToSymbol(table, two, sizeof two, 7 * sizeof(float)) ==
	       cudaErrorInvalidValue, "a copy past the symbol's end must fail");
	CHECK(cudaGetLastError() == cudaErrorInvalidValue ? cudaSuccess : cudaErrorUnknown);
	CHECK(cudaFree(dout));
	std::printf("PASS\n");
	return 0;
}
