/* rdc_host.cu -- the third unit of the rdc program: host code that writes
 * rdc_lib.cu's __constant__ table and reads its counter through extern
 * declarations, and a kernel of its own that reads both */
#include "rdc.h"
#include "check.h"

__global__ void rdc_read(int *out)
{
	int i = threadIdx.x;
	if (i < RDC_TABLE) out[i] = rdc_table[i];
	if (i == RDC_TABLE) out[i] = (int)rdc_counter;
}

void rdc_host_set_table(const int *values)
{
	CHECK(cudaMemcpyToSymbol(rdc_table, values, RDC_TABLE * sizeof(int)));
}

unsigned rdc_host_counter()
{
	unsigned v = 0;
	CHECK(cudaMemcpyFromSymbol(&v, rdc_counter, sizeof v));
	return v;
}

void rdc_host_read_table(int *out)
{
	int *d;
	CHECK(cudaMalloc(&d, (RDC_TABLE + 1) * sizeof(int)));
	rdc_read<<<1, 32>>>(d);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(out, d, (RDC_TABLE + 1) * sizeof(int), cudaMemcpyDeviceToHost));
	CHECK(cudaFree(d));
}
