/*
 * cxxfeatures.cu -- C++ in device code: class templates with member
 * functions and operators, structs passed to and returned from __device__
 * functions by value, a local array indexed by a run-time value (local
 * memory), a recursive __device__ function, calls through a table of
 * function pointers and through virtual functions of objects built on the
 * device.  Each result is compared with the same code run on the host.
 */
#include <cuda_runtime.h>

#include "check.h"

template <typename T, int N>
struct Vec {
	T v[N];
	__host__ __device__ T dot(const Vec &o) const
	{
		T s = 0;
		for (int i = 0; i < N; i++) s += v[i] * o.v[i];
		return s;
	}
	__host__ __device__ Vec operator+(const Vec &o) const
	{
		Vec r;
		for (int i = 0; i < N; i++) r.v[i] = v[i] + o.v[i];
		return r;
	}
};

struct Pair {
	int a;
	double b;
	char c;
};

__host__ __device__ __noinline__ Pair mix(Pair p, Pair q)
{
	Pair r = {p.a * 3 + q.a, p.b - q.b * 0.5, (char)(p.c ^ q.c)};
	return r;
}

__host__ __device__ __noinline__ int ackermann_ish(int n, int depth)
{
	if (n <= 1 || depth > 20) return n + depth;
	if (n & 1) return ackermann_ish(3 * n + 1, depth + 1) + 1;
	return ackermann_ish(n / 2, depth + 1) + 2;
}

__host__ __device__ __noinline__ unsigned fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

typedef int (*BinOp)(int, int);
__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_sub(int a, int b) { return a - b; }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ int op_xor(int a, int b) { return a ^ b; }
__device__ BinOp ops_table[4] = {op_add, op_sub, op_mul, op_xor};

static int h_add(int a, int b) { return a + b; }
static int h_sub(int a, int b) { return a - b; }
static int h_mul(int a, int b) { return a * b; }
static int h_xor(int a, int b) { return a ^ b; }

struct Shape {
	__device__ virtual float area() const = 0;
	__device__ virtual int sides() const { return 0; }
	__device__ virtual ~Shape() {}
};
struct Square : Shape {
	float s;
	__device__ Square(float x) : s(x) {}
	__device__ float area() const override { return s * s; }
	__device__ int sides() const override { return 4; }
};
struct Tri : Shape {
	float b, h;
	__device__ Tri(float x, float y) : b(x), h(y) {}
	__device__ float area() const override { return 0.5f * b * h; }
	__device__ int sides() const override { return 3; }
};
struct Circle : Shape {
	float r;
	__device__ Circle(float x) : r(x) {}
	__device__ float area() const override { return 3.0f * r * r; }
};

struct Out {
	float dot;
	float sum0;
	int pa;
	double pb;
	int pc;
	int local;
	int rec;
	unsigned fib;
	int fp;
	float area;
	int sides;
};

__host__ __device__ int local_array(int i, int n)
{
	int buf[40];
	for (int k = 0; k < 40; k++) buf[k] = k * k + i;
	int s = 0;
	for (int k = 0; k < n; k++) s += buf[(i * 7 + k * 13) % 40];
	buf[(i * 3) % 40] = -s;
	return s + buf[(n * 5 + i) % 40];
}

__global__ void kern(Out *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	Vec<float, 4> a = {{(float)i, 1.5f, -2.0f, 0.25f * i}};
	Vec<float, 4> b = {{2.0f, (float)(i % 7), 3.0f, 1.0f}};
	Vec<float, 4> c = a + b;
	Out o;
	o.dot = a.dot(b);
	o.sum0 = c.v[0] + c.v[3];
	Pair p = {i, 1.25 * i, (char)(i & 0x7f)};
	Pair q = {-i / 2, 0.5, 0x15};
	Pair r = mix(p, q);
	o.pa = r.a;
	o.pb = r.b;
	o.pc = r.c;
	o.local = local_array(i, 5 + i % 30);
	o.rec = ackermann_ish(i + 1, 0);
	o.fib = fib(i % 12);
	BinOp f = ops_table[i % 4];
	o.fp = f(i, 7 + i % 5);
	Shape *s;
	switch (i % 3) {
	case 0: s = new Square(0.5f * i); break;
	case 1: s = new Tri(i, 2.0f); break;
	default: s = new Circle(0.25f * i); break;
	}
	o.area = s ? s->area() : -1;
	o.sides = s ? s->sides() : -1;
	delete s;
	out[i] = o;
}

int main()
{
	const int n = 200;
	Out *d;
	CHECK(cudaMalloc(&d, n * sizeof(Out)));
	kern<<<(n + 63) / 64, 64>>>(d, n);
	CHECK(cudaGetLastError());
	Out *h = new Out[n];
	CHECK(cudaMemcpy(h, d, n * sizeof(Out), cudaMemcpyDeviceToHost));
	BinOp hops[4] = {h_add, h_sub, h_mul, h_xor};
	for (int i = 0; i < n; i++) {
		Vec<float, 4> a = {{(float)i, 1.5f, -2.0f, 0.25f * i}};
		Vec<float, 4> b = {{2.0f, (float)(i % 7), 3.0f, 1.0f}};
		Vec<float, 4> c = a + b;
		EXPECT(h[i].dot == a.dot(b), "dot[%d] = %g, want %g", i, h[i].dot, a.dot(b));
		EXPECT(h[i].sum0 == c.v[0] + c.v[3], "sum0[%d] = %g", i, h[i].sum0);
		Pair p = {i, 1.25 * i, (char)(i & 0x7f)};
		Pair q = {-i / 2, 0.5, 0x15};
		Pair r = mix(p, q);
		EXPECT(h[i].pa == r.a && h[i].pb == r.b && h[i].pc == r.c,
		       "pair[%d] = (%d %g %d), want (%d %g %d)", i, h[i].pa, h[i].pb, h[i].pc,
		       r.a, r.b, r.c);
		int la = local_array(i, 5 + i % 30);
		EXPECT(h[i].local == la, "local[%d] = %d, want %d", i, h[i].local, la);
		int rec = ackermann_ish(i + 1, 0);
		EXPECT(h[i].rec == rec, "rec[%d] = %d, want %d", i, h[i].rec, rec);
		EXPECT(h[i].fib == fib(i % 12), "fib[%d] = %u, want %u", i, h[i].fib, fib(i % 12));
		int fp = hops[i % 4](i, 7 + i % 5);
		EXPECT(h[i].fp == fp, "fp[%d] = %d, want %d", i, h[i].fp, fp);
		float area = i % 3 == 0 ? 0.5f * i * 0.5f * i
		           : i % 3 == 1 ? 0.5f * i * 2.0f : 3.0f * (0.25f * i) * (0.25f * i);
		int sides = i % 3 == 0 ? 4 : i % 3 == 1 ? 3 : 0;
		EXPECT(h[i].area == area && h[i].sides == sides, "shape[%d] = %g/%d, want %g/%d",
		       i, h[i].area, h[i].sides, area, sides);
	}
	CHECK(cudaFree(d));
	delete[] h;
	std::printf("PASS\n");
	return 0;
}
