// rm_two_kernels.cu -- two kernels of one module with different register
// needs (tests/test_regmutex_hw.py: a launch of one recompiles the module
// for its shape, which must not apply to the other)
__global__ void relax(const float *a, float *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) b[i] = 0.25f * (i > 0 ? a[i - 1] : a[i]) + 0.5f * a[i] +
	                  0.25f * (i < n - 1 ? a[i + 1] : a[i]);
}

__global__ void mix(const float *b, float *out, const float *coef, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	float acc[16];
#pragma unroll
	for (int k = 0; k < 16; k++) acc[k] = b[(i + k) % n] * coef[k];
	float s = 0.f;
#pragma unroll
	for (int k = 0; k < 16; k++) s += acc[k] * acc[15 - k];
	out[i] = b[i] * 0.9f + 0.1f * sqrtf(s);
}
