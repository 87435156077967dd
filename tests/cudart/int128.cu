#include <cstdio>
#include <cstdint>
#include "check.h"
__global__ void k(const uint64_t *a, const uint64_t *b, uint64_t *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	unsigned __int128 p = (unsigned __int128)a[i] * b[i];
	__int128 s = (__int128)(int64_t)a[i] * (int64_t)b[i];
	unsigned __int128 q = p / (b[i] | 1);
	unsigned __int128 r = p % 1000000007ull;
	out[i * 6 + 0] = (uint64_t)p; out[i * 6 + 1] = (uint64_t)(p >> 64);
	out[i * 6 + 2] = (uint64_t)(s >> 64); out[i * 6 + 3] = (uint64_t)q;
	out[i * 6 + 4] = (uint64_t)r; out[i * 6 + 5] = __umul64hi(a[i], b[i]) ^ (uint64_t)__mul64hi((long long)a[i], (long long)b[i]);
}
int main()
{
	const int n = 300;
	Mirror<uint64_t> a(n), b(n), o(n * 6);
	uint64_t x = 88172645463325252ull;
	for (int i = 0; i < n; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; a[i] = x; x ^= x << 13; x ^= x >> 7; x ^= x << 17; b[i] = i % 7 ? x : x >> 40; }
	a.up(), b.up();
	k<<<3, 128>>>(a.d, b.d, o.d, n);
	o.down();
	for (int i = 0; i < n; i++) {
		unsigned __int128 p = (unsigned __int128)a[i] * b[i];
		__int128 s = (__int128)(int64_t)a[i] * (int64_t)b[i];
		unsigned __int128 q = p / (b[i] | 1), r = p % 1000000007ull;
		uint64_t w[6] = {(uint64_t)p, (uint64_t)(p >> 64), (uint64_t)(s >> 64), (uint64_t)q, (uint64_t)r, (uint64_t)(p >> 64) ^ (uint64_t)(s >> 64)};
		for (int j = 0; j < 6; j++) EXPECT(o[i * 6 + j] == w[j], "i %d j %d: %llx want %llx", i, j, (unsigned long long)o[i * 6 + j], (unsigned long long)w[j]);
	}
	std::printf("PASS\n");
	return 0;
}
