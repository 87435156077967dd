// irreducible-ish control flow: goto between loops, switch inside loops,
// early returns in nested loops, break/continue; __noinline__ calls and recursion
#include <cstdio>
#include "check.h"
__device__ __host__ int tangle(int a, int b)
{
	int acc = 0, i = 0, j;
	if (a & 1) goto second;
first:
	for (; i < 10 + (a & 7); i++) {
		switch ((a + i) & 3) {
		case 0: acc += i; break;
		case 1: acc ^= a * i; continue;
		case 2: if (acc > 1000) goto done; acc *= 3; break;
		default: acc -= b; if (acc < -500) goto second;
		}
		acc += b & 15;
	}
	goto done;
second:
	for (j = 0; j < (b & 15) + 2; j++) {
		if (j == 5 && (a & 2)) break;
		for (int k = 0; k < 4; k++) {
			if ((a ^ j ^ k) % 5 == 0) continue;
			acc += j * k + a;
			if (acc > 5000) return acc - j;
		}
		if (i < 3 && (b & 4)) { i++; goto first; }
	}
done:
	return acc + i;
}
__device__ __host__ __noinline__ int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }
__device__ __host__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __host__ __noinline__ int ack(int m, int n)
{
	if (m == 0) return n + 1;
	if (n == 0) return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}
__device__ __host__ __noinline__ int many(int a, int b, int c, int d, int e, int f)
{
	int x = a * b - c, y = d ^ e, z = f + a;
	for (int i = 0; i < (a & 3); i++) { x += y; y ^= z; z -= x; }
	return x + y * 3 + z * 7;
}
__global__ void control(const int *in, int *out, int n)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= n) return;
	int a = in[t], b = in[(t + 5) % n];
	int r = tangle(a, b);
	r += gcd((a & 1023) + 1, (b & 511) + 1);
	r += fib((a & 7) + 3);
	r += ack(1 + (a & 1), b & 3);
	r += many(a, b, r, a ^ b, t, r + 1);
	out[t] = r;
}
int main()
{
	const int N = 200;
	static int in[N], out[N];
	unsigned s = 5;
	for (int i = 0; i < N; i++) { s = s * 1664525u + 1013904223u; in[i] = (int)(s >> 9) - 4000000; }
	int *din, *dout;
	CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dout, sizeof out));
	CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
	control<<<(N + 63) / 64, 64>>>(din, dout, N);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
	for (int t = 0; t < N; t++) {
		int a = in[t], b = in[(t + 5) % N];
		int r = tangle(a, b);
		r += gcd((a & 1023) + 1, (b & 511) + 1);
		r += fib((a & 7) + 3);
		r += ack(1 + (a & 1), b & 3);
		r += many(a, b, r, a ^ b, t, r + 1);
		EXPECT(out[t] == r, "thread %d: %d != %d", t, out[t], r);
	}
	printf("PASS\n");
	return 0;
}
