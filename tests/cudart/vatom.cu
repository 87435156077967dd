// atomics of every width and kind: float2/float4 atomicAdd (sm_90: atom.add.v2/.v4.f32),
// __half2/__nv_bfloat162 (atom.add.noftz.f16x2), f64 add, u64 min/max
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdio>
#include "check.h"
__global__ void k(float2 *f2, float4 *f4, __half2 *h2, __nv_bfloat162 *b2, double *d, unsigned long long *u, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
#if __CUDA_ARCH__ >= 900
	atomicAdd(f2 + (i % 4), make_float2(1.0f, 2.0f));
	atomicAdd(f4 + (i % 2), make_float4(1.0f, 0.5f, 0.25f, 2.0f));
#else
	atomicAdd(&f2[i % 4].x, 1.0f); atomicAdd(&f2[i % 4].y, 2.0f);
	atomicAdd(&f4[i % 2].x, 1.0f); atomicAdd(&f4[i % 2].y, 0.5f); atomicAdd(&f4[i % 2].z, 0.25f); atomicAdd(&f4[i % 2].w, 2.0f);
#endif
	atomicAdd(h2 + (i % 3), __floats2half2_rn(1.0f, 0.5f));
	atomicAdd(b2 + (i % 3), __floats2bfloat162_rn(1.0f, 0.25f));
	atomicAdd(d + (i % 5), 0.125);
	atomicMax(u + (i % 2), (unsigned long long)i * 1000000007ull);
	atomicMin(u + 2 + (i % 2), (unsigned long long)(n - i) * 3ull);
}
int main()
{
	const int n = 384;
	Mirror<float2> f2(4);
	Mirror<float4> f4(2);
	Mirror<__half2> h2(3);
	Mirror<__nv_bfloat162> b2(3);
	Mirror<double> d(5);
	Mirror<unsigned long long> u(4);
	u[2] = u[3] = ~0ull;
	u.up();
	k<<<3, 128>>>(f2.d, f4.d, h2.d, b2.d, d.d, u.d, n);
	f2.down(), f4.down(), h2.down(), b2.down(), d.down(), u.down();
	for (int j = 0; j < 4; j++) EXPECT(f2[j].x == 96 && f2[j].y == 192, "f2 %d: %f %f", j, f2[j].x, f2[j].y);
	for (int j = 0; j < 2; j++) EXPECT(f4[j].x == 192 && f4[j].y == 96 && f4[j].z == 48 && f4[j].w == 384, "f4 %d: %f %f %f %f", j, f4[j].x, f4[j].y, f4[j].z, f4[j].w);
	for (int j = 0; j < 3; j++) EXPECT(__low2float(h2[j]) == 128 && __high2float(h2[j]) == 64, "h2 %d: %f %f", j, __low2float(h2[j]), __high2float(h2[j]));
	for (int j = 0; j < 3; j++) EXPECT(__low2float(b2[j]) == 128 && __high2float(b2[j]) == 32, "b2 %d: %f %f", j, __low2float(b2[j]), __high2float(b2[j]));
	for (int j = 0; j < 5; j++) { int c = 0; for (int i = 0; i < n; i++) c += i % 5 == j; EXPECT(d[j] == c * 0.125, "d %d", j); }
	EXPECT(u[0] == 382ull * 1000000007ull && u[1] == 383ull * 1000000007ull, "max %llu %llu", u[0], u[1]);
	EXPECT(u[2] == 6 && u[3] == 3, "min %llu %llu", u[2], u[3]);
	printf("PASS\n");
}
