/*
 * dynshared.cu -- dynamic shared memory (extern __shared__, sized by the
 * launch): a block-wide tree reduction whose scratch is the launch's
 * third <<< >>> argument, run at several block sizes, plus a templated
 * double-precision variant that needs the dynamic area 8-byte aligned.
 * Also the shared-memory kernel attributes and the occupancy queries.
 */
#include <cuda_runtime.h>

#include "check.h"

__global__ void block_sums(const int *in, int n, int *out)
{
	extern __shared__ int scratch[];
	int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
	scratch[t] = i < n ? in[i] : 0;
	__syncthreads();
	for (int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (t < s) scratch[t] += scratch[t + s];
		__syncthreads();
	}
	if (t == 0) out[blockIdx.x] = scratch[0];
}

template <typename T>
__global__ void reverse(T *v, int n)
{
	extern __shared__ __align__(sizeof(T)) unsigned char raw[];
	T *s = reinterpret_cast<T *>(raw);
	int t = threadIdx.x;
	if (t < n) s[t] = v[t];
	__syncthreads();
	if (t < n) v[t] = s[n - 1 - t] * 2;
}

int main()
{
	const int n = 5000;
	int in[n], *din, *dout, out[n];
	for (int i = 0; i < n; i++) in[i] = (i * 7) % 13 - 6;
	CHECK(cudaMalloc(&din, sizeof in));
	CHECK(cudaMalloc(&dout, sizeof out));
	CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
	const int blocks[] = {32, 64, 128, 512};
	for (int b : blocks) {
		int nb = (n + b - 1) / b;
		block_sums<<<nb, b, b * sizeof(int)>>>(din, n, dout);
		CHECK(cudaGetLastError());
		CHECK(cudaMemcpy(out, dout, nb * sizeof(int), cudaMemcpyDeviceToHost));
		for (int k = 0; k < nb; k++) {
			int want = 0;
			for (int i = k * b; i < (k + 1) * b && i < n; i++) want += in[i];
			EXPECT(out[k] == want, "block %d of %d: %d, want %d", k, b, out[k], want);
		}
	}

	double v[100], *dv;
	for (int i = 0; i < 100; i++) v[i] = i + 0.5;
	CHECK(cudaMalloc(&dv, sizeof v));
	CHECK(cudaMemcpy(dv, v, sizeof v, cudaMemcpyHostToDevice));
	reverse<double><<<1, 128, 100 * sizeof(double)>>>(dv, 100);
	CHECK(cudaMemcpy(v, dv, sizeof v, cudaMemcpyDeviceToHost));
	for (int i = 0; i < 100; i++)
		EXPECT(v[i] == 2 * (99 - i + 0.5), "v[%d] = %g", i, v[i]);

	cudaFuncAttributes fa;
	CHECK(cudaFuncGetAttributes(&fa, block_sums));
	EXPECT(fa.sharedSizeBytes == 0 && fa.maxDynamicSharedSizeBytes > 0, "shared %zu/%d",
	       fa.sharedSizeBytes, fa.maxDynamicSharedSizeBytes);
	CHECK(cudaFuncSetAttribute(block_sums, cudaFuncAttributeMaxDynamicSharedMemorySize, 16384));
	CHECK(cudaFuncGetAttributes(&fa, block_sums));
	EXPECT(fa.maxDynamicSharedSizeBytes == 16384, "max dynamic %d", fa.maxDynamicSharedSizeBytes);
	int per_sm = 0;
	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, block_sums, 256, 1024));
	EXPECT(per_sm > 0, "%d blocks per SM", per_sm);
	size_t avail = 0;
	CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, block_sums, 2, 256));
	EXPECT(avail >= 1024, "%zu bytes available", avail);
	CHECK(cudaFree(din));
	CHECK(cudaFree(dout));
	CHECK(cudaFree(dv));
	std::printf("PASS\n");
	return 0;
}
