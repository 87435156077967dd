// funcs.cu -- device functions: __noinline__ calls, recursion, structs by
// value (parameters and return values), calls with no arguments or no
// result, function pointers (indirect calls through .callprototype), extern.
#include <cstdint>

struct Vec3 { float x, y, z; };
struct Big { double d[4]; int tag; };

__device__ __noinline__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ Vec3 cross(Vec3 a, Vec3 b)
{
	return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

__device__ __noinline__ Big scale(Big b, double s)
{
	for (int i = 0; i < 4; i++) b.d[i] *= s;
	b.tag++;
	return b;
}

__device__ int counter;

__device__ __noinline__ void bump(void) { atomicAdd(&counter, 1); }

__device__ __noinline__ int lane(void) { return threadIdx.x & 31; }

__device__ __noinline__ void store3(float *p, float a, double b, long long c)
{
	p[0] = a; p[1] = (float)b; p[2] = (float)c;
}

typedef float (*BinOp)(float, float);
__device__ __noinline__ float opadd(float a, float b) { return a + b; }
__device__ __noinline__ float opmul(float a, float b) { return a * b; }
__device__ BinOp ops[2] = {opadd, opmul};

__global__ void calls(int *out, Vec3 *v, Big *bg, float *f)
{
	int t = threadIdx.x;
	out[t] = fact(t & 7) + fib(t & 15) + lane();
	bump();
	v[t] = cross(v[t], v[t + 1]);
	bg[t] = scale(bg[t], 2.5);
	store3(f + 3 * t, 1.0f, 2.0, 3);
	f[t] = ops[t & 1](f[t], 3.0f);
}

__global__ void byval(Vec3 v, Big b, float *o)
{
	o[0] = v.x + v.y + v.z + (float)b.d[3] + b.tag;
}

extern __device__ float ext_fn(float x);   // resolved at link time (-rdc)

__global__ void useext(float *o) { o[threadIdx.x] = ext_fn(o[threadIdx.x]); }
