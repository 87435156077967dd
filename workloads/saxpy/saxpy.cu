/*
 * saxpy.cu -- y = a*x + y, the BLAS level-1 kernel.
 *
 * The simplest memory-bound kernel: two loads, one fused multiply-add and
 * one store per element, with a grid-stride loop so that any grid covers
 * any n (the host sizes the grid for a few elements per thread).  The
 * loop gives the register allocator a small loop-carried live range (the
 * index) beside the loop-invariant a, n, x, y and stride.
 */

extern "C" __global__ void saxpy(int n, float a, const float *__restrict__ x,
                                 float *__restrict__ y)
{
	int stride = gridDim.x * blockDim.x;

	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		y[i] = a * x[i] + y[i];
}
