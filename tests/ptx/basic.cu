// basic.cu -- simple kernels: vector add, saxpy, grid-stride loop, launch bounds.
__global__ void vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) c[i] = a[i] + b[i];
}

__global__ void __launch_bounds__(256, 4) saxpy(float a, const float *__restrict__ x,
                                                float *__restrict__ y, long n)
{
	for (long i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (long)blockDim.x * gridDim.x)
		y[i] = a * x[i] + y[i];
}

__global__ void idx3(int *out)
{
	int t = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
	int b = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
	out[b * blockDim.x * blockDim.y * blockDim.z + t] = t * 3 - b;
}

__global__ void intops(unsigned *o, const unsigned *a, int n)
{
	int i = threadIdx.x;
	unsigned x = a[i], y = a[i + 1];
	o[0] = x / y; o[1] = x % y; o[2] = (int)x / (int)y; o[3] = (int)x % (int)y;
	o[4] = x >> (y & 31); o[5] = (int)x >> (y & 31); o[6] = x << 3; o[7] = ~x ^ y;
	o[8] = __popc(x); o[9] = __clz(x); o[10] = __brev(x); o[11] = __ffs(x);
	o[12] = __byte_perm(x, y, 0x3210 + n); o[13] = __funnelshift_l(x, y, n);
	o[14] = __funnelshift_r(x, y, n); o[15] = __umulhi(x, y); o[16] = __mulhi(x, y);
	o[17] = __sad(x, y, 3); o[18] = min(x, y); o[19] = max((int)x, (int)y);
	o[20] = abs((int)x); o[21] = __dp4a(x, y, 7u); o[22] = __usad(x, y, n);
	unsigned long long w = (unsigned long long)x * y;
	o[23] = (unsigned)(w >> 32) + __popcll(w) + __clzll(w) + __ffsll(w);
	o[24] = x ? x : y;
	o[25] = (x & y) | (~x & n);
	o[26] = x - y * 3;
	o[27] = (unsigned)__mul24((int)x, (int)y) + __umul24(x, y);
}

__global__ __launch_bounds__(128) void floats(float *o, const float *a, double *d)
{
	int i = threadIdx.x;
	float x = a[i], y = a[i + 32];
	o[0] = x / y; o[1] = sqrtf(x); o[2] = rsqrtf(x); o[3] = __fdividef(x, y);
	o[4] = fmaf(x, y, 1.5f); o[5] = __fadd_rz(x, y); o[6] = __fmul_ru(x, y);
	o[7] = fminf(x, y); o[8] = fmaxf(x, y); o[9] = fabsf(x) + copysignf(x, y);
	o[10] = floorf(x) + ceilf(y) + truncf(x) + rintf(y) + roundf(x);
	o[11] = __saturatef(x); o[12] = (float)(int)x + (float)(unsigned)y;
	o[13] = isnan(x) ? 1.0f : isinf(y) ? 2.0f : 0.25f;
	o[14] = __frcp_rn(x) + __fsqrt_rd(y);
	double dx = d[i], dy = d[i + 32];
	d[0] = dx / dy; d[1] = sqrt(dx); d[2] = fma(dx, dy, 3.0); d[3] = (double)x * dy;
	d[4] = (double)(long long)dx + (double)(unsigned long long)dy; d[5] = 1.0 / dx;
	d[6] = fmin(dx, dy); o[15] = (float)dx; o[16] = __int_as_float(__float_as_int(x) ^ 1);
	d[7] = __longlong_as_double(__double_as_longlong(dx) + 1);
	o[17] = x < y ? x : -y;
	o[18] = __fmaf_rz(x, y, x);
}
