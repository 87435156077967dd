/*
 * structarg.cu -- kernel arguments that are not pointers and ints: structs
 * passed by value with mixed member alignment (char, double, int3, float[5],
 * short, a pointer), an over-aligned struct (float4 inside), a 512-byte
 * struct, and scalars of every width between them, so the PTX parameter
 * layout (offsets and alignment) must be right for each to arrive intact.
 */
#include <cuda_runtime.h>

#include "check.h"

struct Mixed {
	char tag;
	double scale;
	int3 dims;
	float w[5];
	short s;
	float *out;
};

struct __align__(16) Wide {
	float4 v;
	char c;
};

struct Big {
	int vals[128];
};

__global__ void take(Mixed m, char c, Wide w, unsigned long long u, Big big, short s, double d)
{
	int i = threadIdx.x;
	float r = m.tag + (float)m.scale + m.dims.x + m.dims.y * 10 + m.dims.z * 100 + m.w[i % 5] +
	          m.s + c + w.v.x + w.v.y + w.v.z + w.v.w + w.c + (float)(u >> 40) + big.vals[i] +
	          s + (float)d;
	m.out[i] = r;
}

int main()
{
	Mixed m = {3, 0.5, {1, 2, 3}, {10, 20, 30, 40, 50}, -7, nullptr};
	Wide w = {{1.5f, 2.5f, 3.5f, 4.5f}, 9};
	Big big;
	for (int i = 0; i < 128; i++) big.vals[i] = i * i;
	unsigned long long u = 5ull << 40;
	CHECK(cudaMalloc(&m.out, 128 * sizeof(float)));
	take<<<1, 128>>>(m, 'A', w, u, big, (short)-300, 0.25);
	CHECK(cudaGetLastError());
	float out[128];
	CHECK(cudaMemcpy(out, m.out, sizeof out, cudaMemcpyDeviceToHost));
	for (int i = 0; i < 128; i++) {
		float want = 3 + 0.5f + 1 + 20 + 300 + m.w[i % 5] - 7 + 'A' + 1.5f + 2.5f + 3.5f +
		             4.5f + 9 + 5 + big.vals[i] - 300 + 0.25f;
		EXPECT(out[i] == want, "out[%d] = %g, want %g", i, out[i], want);
	}
	CHECK(cudaFree(m.out));
	std::printf("PASS\n");
	return 0;
}
