/* multitu_kern.cu -- the second translation unit of multitu_main.cu */
#include <cuda_runtime.h>

static __constant__ float k_scale;       /* this unit's: 10 */

namespace {
__global__ void scale_offset(float *v, int n, float offset)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) v[i] = v[i] * k_scale + offset;
}
}

cudaError_t other_unit_apply(float *d, int n, float offset, cudaStream_t s)
{
	float ten = 10.0f;
	cudaError_t e = cudaMemcpyToSymbolAsync(k_scale, &ten, sizeof ten, 0,
	                                        cudaMemcpyHostToDevice, s);
	if (e != cudaSuccess) return e;
	void *args[] = {&d, &n, &offset};
	return cudaLaunchKernel((const void *)scale_offset, dim3((n + 127) / 128), dim3(128), args,
	                        0, s);
}

float other_unit_scale()
{
	float v = -1.0f;
	cudaMemcpyFromSymbol(&v, k_scale, sizeof v);
	return v;
}
