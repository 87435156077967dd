// misc.cu -- local arrays (stack frames), switch statements, printf (vprintf
// is an .extern .func), volatile, __ldg and cache-hint intrinsics, inline PTX
// with cache hints, templates, unrolled loops and 64-bit integer math.
#include <cstdio>

__device__ __noinline__ int pick(int *arr, int i) { return arr[i & 15]; }

__global__ void localarr(int *o, int n)
{
	int buf[16];
	for (int i = 0; i < 16; i++) buf[i] = o[i] * n;
	o[threadIdx.x] = pick(buf, n + threadIdx.x);
}

__global__ void sw(int *o, int k)
{
	int r;
	switch (k + threadIdx.x) {
	case 0: r = 10; break;
	case 1: r = o[3]; break;
	case 2: r = o[7] * 3; break;
	case 3: r = 99; break;
	case 4: r = o[1] - 5; break;
	case 5: r = 17; break;
	case 7: r = o[0] << 2; break;
	default: r = -1;
	}
	o[threadIdx.x] = r;
}

__global__ void hello(int x, float f)
{
	printf("hello %d %f from %d\n", x, f, threadIdx.x);
}

__global__ void hints(float4 *o, const float4 *__restrict__ a, const float *b, float *c,
                      unsigned long long pol)
{
	int t = threadIdx.x;
	float4 v = __ldg(&a[t]);
	float w = __ldcs(&b[t]) + __ldcg(&b[t + 1]) + __ldca(&b[t + 2]) + __ldlu(&b[t + 3]) +
	          __ldcv(&b[t + 4]);
	__stcg(&c[t], w);
	__stcs(&c[t + 1], w);
	__stwt(&c[t + 2], w);
	float4 u;
	asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
	             : "=f"(u.x), "=f"(u.y), "=f"(u.z), "=f"(u.w) : "l"(a + t + 1));
	float e;
	asm volatile("ld.global.L1::evict_last.f32 %0, [%1];" : "=f"(e) : "l"(b + t));
	float h;
	asm volatile("ld.global.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(h) : "l"(b + t), "l"(pol));
	asm volatile("prefetch.global.L2 [%0];" :: "l"(b + t + 64));
	asm volatile("st.global.L1::no_allocate.f32 [%0], %1;" :: "l"(c + t + 3), "f"(e + h));
	v.x += u.x; v.y += u.y; v.z += u.z; v.w += u.w;
	o[t] = v;
	volatile float *vc = c;
	vc[t + 4] = vc[t + 5] + 1.0f;
}

template <typename T, int B>
__global__ void tsum(const T *in, T *out, int n)
{
	__shared__ T s[B];
	T v = 0;
#pragma unroll 4
	for (int i = threadIdx.x; i < n; i += B) v += in[i];
	s[threadIdx.x] = v;
	__syncthreads();
	for (int k = B / 2; k > 0; k >>= 1) {
		if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
		__syncthreads();
	}
	if (threadIdx.x == 0) *out = s[0];
}
template __global__ void tsum<float, 256>(const float *, float *, int);
template __global__ void tsum<double, 128>(const double *, double *, int);
template __global__ void tsum<long long, 64>(const long long *, long long *, int);
template __global__ void tsum<short, 32>(const short *, short *, int);

__global__ void int64(unsigned long long *o, long long a, long long b)
{
	o[0] = a / b; o[1] = a % b; o[2] = (unsigned long long)a / (unsigned long long)b;
	o[3] = __umul64hi(a, b); o[4] = __mul64hi(a, b); o[5] = a * b + (a >> 7);
	o[6] = (unsigned long long)a >> (b & 63);
	unsigned long long s = (unsigned long long)a + (unsigned long long)b;
	o[7] = s + (s < (unsigned long long)a);
	__uint128_t p = (__uint128_t)a * b;
	o[8] = (unsigned long long)(p >> 64) + (unsigned long long)p;
}

struct P { int a; int *p; float f; };
__device__ int parr[8];
__device__ P gp = {1, &parr[3], 2.5f};
__device__ P gps[2] = {{1, &parr[0], 1.0f}, {2, &parr[5], 3.0f}};
__device__ const char *msg = "hi";

__global__ void ptrinit(int *o) { o[0] = *gp.p + *gps[1].p + (int)gp.f + msg[0]; }
