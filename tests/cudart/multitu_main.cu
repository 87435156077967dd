/*
 * multitu_main.cu + multitu_kern.cu -- one program from two translation
 * units, each with its own kernels and its own file-local __constant__
 * variable of the same name (so each unit's module must resolve its own),
 * the second unit's kernels launched through a host function it exports,
 * and a cudaDeviceReset between two rounds, after which both units' modules
 * must load again.  Host code keeps its data in std::vector.
 */
#include <cuda_runtime.h>

#include <numeric>
#include <vector>

#include "check.h"

static __constant__ float k_scale;       /* this unit's: 3 */

__global__ void scale_here(float *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) v[i] *= k_scale;
}

/* multitu_kern.cu: sets its own k_scale (10), then v[i] = v[i] * 10 + offset */
cudaError_t other_unit_apply(float *d, int n, float offset, cudaStream_t s);
float other_unit_scale();

static void round_trip(int round)
{
	const int n = 777;
	std::vector<float> h(n), back(n);
	std::iota(h.begin(), h.end(), 1.0f);
	float *d;
	CHECK(cudaMalloc(&d, n * sizeof(float)));
	CHECK(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
	float three = 3.0f;
	CHECK(cudaMemcpyToSymbol(k_scale, &three, sizeof three));
	cudaStream_t s;
	CHECK(cudaStreamCreate(&s));
	scale_here<<<(n + 255) / 256, 256, 0, s>>>(d, n);
	CHECK(cudaGetLastError());
	CHECK(other_unit_apply(d, n, 0.5f * round, s));
	CHECK(cudaStreamSynchronize(s));
	CHECK(cudaMemcpy(back.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
	float mine = 0;
	CHECK(cudaMemcpyFromSymbol(&mine, k_scale, sizeof mine));
	EXPECT(mine == 3.0f, "this unit's k_scale reads %g", mine);
	EXPECT(other_unit_scale() == 10.0f, "the other unit's k_scale reads %g",
	       other_unit_scale());
	for (int i = 0; i < n; i++) {
		float want = h[i] * 3.0f * 10.0f + 0.5f * round;
		EXPECT(back[i] == want, "round %d: v[%d] = %g, want %g", round, i, back[i], want);
	}
	CHECK(cudaStreamDestroy(s));
	/* d is not freed: the reset (or the exit) releases it */
}

int main()
{
	round_trip(0);
	CHECK(cudaDeviceReset());
	round_trip(1);
	std::printf("PASS\n");
	return 0;
}
