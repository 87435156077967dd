// texture.cu -- texture and surface objects: every tex geometry and result type
// nvcc emits, tex2Dgather (tld4), surface loads and stores in each
// out-of-range mode, vector and sink destinations.
#include <cuda_runtime.h>
__global__ void tex_all(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3,
                        float *out, int *oi, uint4 *ou)
{
	int i = threadIdx.x;
	float x = i * 0.5f;
	out[i] = tex1Dfetch<float>(t1, i) + tex2D<float>(t2, x, x + 1) +
	         tex3D<float>(t3, x, x, x) + tex1D<float>(t2, x);
	float4 f = tex2D<float4>(t2, x, x);
	out[i + 64] = f.x + f.w;
	oi[i] = tex1Dfetch<int>(t1, i);
	float4 g = tex2Dgather<float4>(t2, x, x, 1);
	out[i + 128] = g.y + tex2Dgather<float4>(t2, x, x, 3).w;
	uchar4 u = tex2D<uchar4>(t1, x, x);
	ou[i] = make_uint4(u.x, u.y, u.z, u.w);
	out[i + 192] = tex2DLayered<float>(t2, x, x, 1);
}
__global__ void surf_all(cudaSurfaceObject_t s, uchar4 *o4, float *of)
{
	int i = threadIdx.x;
	float v;
	surf2Dread(&v, s, i * 4, 1);
	surf2Dwrite(v + 1.0f, s, i * 4, 2);
	uchar4 u = surf2Dread<uchar4>(s, i * 4, 3, cudaBoundaryModeClamp);
	surf2Dwrite(u, s, i * 4, 2, cudaBoundaryModeClamp);
	surf1Dwrite(v, s, i * 4, cudaBoundaryModeZero);
	surf3Dwrite(make_float2(v, v), s, i * 8, 1, 2);
	float2 d2 = surf1Dread<float2>(s, i * 8);
	o4[i] = surf1Dread<uchar4>(s, i * 4, cudaBoundaryModeZero);
	of[i] = surf3Dread<float>(s, i * 4, 1, 2) + d2.y;
}
