// DPX functions (CUDA 12+): __vimax3_s32, __viaddmax_s32, ... On sm_90 they are
// add/min/max on .s16x2/.u16x2 and .relu forms; elsewhere, emulated in PTX
#include <cstdio>
#include "check.h"
__global__ void k(const int *a, const int *b, const int *c, int *o, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	int x = a[i], y = b[i], z = c[i];
	bool p = false;
	o[i * 10 + 0] = __vimax3_s32(x, y, z);
	o[i * 10 + 1] = __vimin3_s32(x, y, z);
	o[i * 10 + 2] = __viaddmax_s32(x, y, z);
	o[i * 10 + 3] = __viaddmin_s32(x, y, z);
	o[i * 10 + 4] = __vimax_s32_relu(x, y);
	o[i * 10 + 5] = __vibmax_s32(x, y, &p) + (p ? 1000000 : 0);
	o[i * 10 + 6] = (int)__vimax3_u32((unsigned)x, (unsigned)y, (unsigned)z);
	o[i * 10 + 7] = (int)__vimax3_s16x2((unsigned)x, (unsigned)y, (unsigned)z);
	o[i * 10 + 8] = (int)__viaddmax_s16x2_relu((unsigned)x, (unsigned)y, (unsigned)z);
	o[i * 10 + 9] = __vimin3_s32_relu(x, y, z);
}
static int s16(unsigned v, int h) { return (short)(v >> (16 * h)); }
int main()
{
	const int n = 256;
	Mirror<int> a(n), b(n), c(n), o(n * 10);
	unsigned s = 1;
	for (int i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; a[i] = (int)s; s = s * 1664525u + 1013904223u; b[i] = (int)s >> (i % 7); s = s * 1664525u + 1013904223u; c[i] = (int)s >> (i % 5); }
	a.up(), b.up(), c.up();
	k<<<2, 128>>>(a.d, b.d, c.d, o.d, n);
	o.down();
	for (int i = 0; i < n; i++) {
		int x = a[i], y = b[i], z = c[i];
		auto mx = [](int p, int q) { return p > q ? p : q; };
		auto mn = [](int p, int q) { return p < q ? p : q; };
		int w[10];
		w[0] = mx(mx(x, y), z); w[1] = mn(mn(x, y), z); w[2] = mx((int)((unsigned)x + (unsigned)y), z); w[3] = mn((int)((unsigned)x + (unsigned)y), z);
		w[4] = mx(mx(x, y), 0); w[5] = mx(x, y) + (x >= y ? 1000000 : 0);
		unsigned ux = x, uy = y, uz = z; unsigned um = ux > uy ? ux : uy; um = um > uz ? um : uz; w[6] = (int)um;
		unsigned r7 = 0, r8 = 0;
		for (int h = 0; h < 2; h++) {
			int m = mx(mx(s16(x, h), s16(y, h)), s16(z, h)); r7 |= (unsigned)(unsigned short)m << (16 * h);
			int ad = (short)(s16(x, h) + s16(y, h)); int m2 = mx(mx(ad, s16(z, h)), 0); r8 |= (unsigned)(unsigned short)m2 << (16 * h);
		}
		w[7] = (int)r7; w[8] = (int)r8; w[9] = mx(mn(mn(x, y), z), 0);
		for (int j = 0; j < 10; j++) EXPECT(o[i * 10 + j] == w[j], "i %d op %d: %d want %d (x %d y %d z %d)", i, j, o[i * 10 + j], w[j], x, y, z);
	}
	printf("PASS\n");
}
