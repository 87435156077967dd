#include <cstdio>
#include "check.h"
__global__ void prod(int *a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) a[i] = i * 2;
	cudaTriggerProgrammaticLaunchCompletion();
}
__global__ void cons(const int *a, int *b, int n)
{
	cudaGridDependencySynchronize();
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) b[i] = a[n - 1 - i] + 1;
}
int main()
{
	const int n = 4096;
	int *a;
	CHECK(cudaMalloc(&a, n * 4));
	Mirror<int> b(n);
	cudaStream_t st; CHECK(cudaStreamCreate(&st));
	prod<<<n / 256, 256, 0, st>>>(a, n);
	cudaLaunchConfig_t cfg = {};
	cfg.gridDim = n / 256; cfg.blockDim = 256; cfg.stream = st;
	cudaLaunchAttribute at[1];
	at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
	at[0].val.programmaticStreamSerializationAllowed = 1;
	cfg.attrs = at; cfg.numAttrs = 1;
	CHECK(cudaLaunchKernelEx(&cfg, cons, (const int *)a, b.d, n));
	CHECK(cudaStreamSynchronize(st));
	b.down();
	for (int i = 0; i < n; i++) EXPECT(b[i] == (n - 1 - i) * 2 + 1, "%d: %d", i, b[i]);
	std::printf("PASS\n");
	return 0;
}
