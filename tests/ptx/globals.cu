// globals.cu -- module-scope variables: __constant__ arrays with
// initializers, __device__ variables with scalar/array/struct initializers,
// pointers initialised with addresses (generic(sym)+off), multi-dimensional
// arrays, static and dynamic shared memory, float/double constants.
__constant__ float coef[8] = {1.0f, 0.5f, 0.25f, -2.0f, 3.14159f, 1e-20f, 1e30f, -0.0f};
__constant__ double dcoef[3] = {1.0, 2.718281828459045, -1e300};
__constant__ int table[4][8] = {{1, 2, 3}, {4, 5}, {6}, {7, 8, 9, 10, 11, 12, 13, 14}};
__constant__ unsigned char bytes[5] = {1, 2, 3, 250, 255};
__constant__ short shorts[3] = {-1, 2, -32768};
__constant__ long long big = 0x123456789abcdefLL;
__device__ int garr[16];
__device__ int gint = 42;
__device__ float gfl = 2.5f;
__device__ int *gptr = &garr[2];
__device__ int *gptrs[3] = {&garr[0], &garr[4], &gint};
struct S { int a; float b; char c; double d; };
__device__ S gs = {1, 2.0f, 'x', 4.0};
__device__ S gsarr[2] = {{1, 2.0f, 'a', 3.0}, {5, 6.0f, 'b', 7.0}};
__device__ float2 gf2 = {1.0f, 2.0f};
__device__ float4 gf4arr[2];
__device__ double gd[2][3];

extern __shared__ float dyn[];

__global__ void useglobals(float *o, int n)
{
	__shared__ float tile[32][33];
	__shared__ int sflag;
	int t = threadIdx.x;
	if (t == 0) sflag = n;
	tile[t & 31][t >> 5] = coef[t & 7] + (float)dcoef[t % 3] + table[t & 3][t & 7];
	dyn[t] = bytes[t % 5] + shorts[t % 3] + (float)big;
	__syncthreads();
	o[t] = tile[t >> 5][t & 31] + dyn[(t + 1) % blockDim.x] + sflag + *gptr + gint + gfl;
	o[t + 1] = *gptrs[t % 3] + gs.b + gsarr[t & 1].d + gf2.y + gf4arr[t & 1].z + gd[1][t % 3];
	garr[t & 15] = t;
}

__global__ void dynonly(double *o)
{
	extern __shared__ double dd[];
	dd[threadIdx.x] = threadIdx.x * 0.5;
	__syncthreads();
	o[threadIdx.x] = dd[blockDim.x - 1 - threadIdx.x];
}

// a pointer at an unaligned offset: nvcc spells its bytes as masks,
// 0xFF(generic(sym)+4), 0xFF00(generic(sym)+4), ...
struct __attribute__((packed)) Packed { char c; int *p; short s; };
__device__ Packed gpk = {1, &garr[1], 7};
__device__ char *gcp = (char *)&garr[0] + 3;
__device__ int **gpp = &gptrs[1];

__global__ void usepacked(int *o) { o[0] = *gpk.p + gpk.s + *gcp + **gpp; }
