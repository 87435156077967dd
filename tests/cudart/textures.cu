/*
 * textures.cu -- CUDA arrays, texture objects and surface objects as
 * image-processing programs use them, each result checked against a CPU
 * reference computed here:
 *
 *   tex1Dfetch over linear memory (float and int; zero outside);
 *   tex2D on a 2D float array, point and linear filtering, address modes
 *   clamp and border (unnormalized) and wrap and mirror (normalized);
 *   tex2D<float4> on a uchar4 array read as normalizedFloat, linear; half,
 *   char, short2 and ushort4 formats (normalized reads, -128 -> -1);
 *   tex3D, trilinear; a pitch2D resource; tex2Dgather; layered arrays
 *   (tex1DLayered, tex2DLayered with the layer clamped, surf2DLayeredwrite);
 *   a 3x3 box filter from a texture into a surface (surf2Dwrite), read back
 *   with surf2Dread and with cudaMemcpy2DFromArray; uchar4 surfaces with
 *   .clamp and .zero out-of-range modes;
 *   array copies (2D, the deprecated 1D forms, cudaMemcpy3D) and the
 *   descriptor checks' error codes.
 *
 * The reference filters with the CUDA Programming Guide's arithmetic
 * ("Texture Fetching"): coordinates shifted by 0.5 for linear filtering,
 * fractions in 9-bit fixed point (8 fractional bits, rounded), weights
 * multiplied per dimension and the corners summed x fastest in f32.  rfsim
 * computes exactly that, so the comparison is exact; on NVIDIA hardware,
 * whose texture unit rounds its own way, it would need a tolerance of a
 * few ulps (the weights are the same 9-bit values).
 *
 * `textures destroyed` launches a fetch through a destroyed texture
 * object: rfsim reports the kernel fault and the program exits 1.
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "check.h"

/* ---- the CPU reference ------------------------------------------------------ */

struct Ref {
	int dims, n[3], nch;
	std::vector<float> v;            /* texels as the fetch sees them, nch floats each */
	int addr[3];
	bool linear, normc;
	float border[4];
};

static long modl(long a, long n) { return ((a % n) + n) % n; }

static long address(const Ref &r, int k, long i)
{
	long n = r.n[k];
	int m = r.addr[k];
	if (!r.normc && (m == cudaAddressModeWrap || m == cudaAddressModeMirror))
		m = cudaAddressModeClamp;
	if (i >= 0 && i < n) return i;
	if (m == cudaAddressModeWrap) return modl(i, n);
	if (m == cudaAddressModeMirror) {
		long q = modl(i, 2 * n);
		return q < n ? q : 2 * n - 1 - q;
	}
	if (m == cudaAddressModeClamp) return i < 0 ? 0 : n - 1;
	return -1;
}

static void texel(const Ref &r, const long *ix, float out[4])
{
	long off = 0, mul = 1;
	for (int k = 0; k < r.dims; k++) {
		long i = address(r, k, ix[k]);
		if (i < 0) {
			for (int q = 0; q < 4; q++) out[q] = r.border[q];
			return;
		}
		off += i * mul;
		mul *= r.n[k];
	}
	for (int q = 0; q < 4; q++) out[q] = q < r.nch ? r.v[off * r.nch + q] : q == 3 ? 1.0f : 0.0f;
}

static void sample(const Ref &r, const float *c, float out[4])
{
	long i0[3] = {0, 0, 0};
	float al[3] = {0, 0, 0};
	for (int k = 0; k < r.dims; k++) {
		float x = c[k];
		if (r.normc) x *= (float)r.n[k];
		if (r.linear) x -= 0.5f;
		float fl = std::floor(x);
		i0[k] = (long)fl;
		al[k] = std::floor((x - fl) * 256.0f + 0.5f) / 256.0f;
	}
	if (!r.linear) {
		texel(r, i0, out);
		return;
	}
	for (int q = 0; q < 4; q++) out[q] = 0.0f;
	for (int corner = 0; corner < (1 << r.dims); corner++) {
		long ix[3];
		float wt = 1.0f, t[4];
		for (int k = 0; k < 3; k++) {
			int hi = corner >> k & 1;
			ix[k] = i0[k] + hi;
			if (k < r.dims) wt *= hi ? al[k] : 1.0f - al[k];
		}
		texel(r, ix, t);
		for (int q = 0; q < 4; q++) out[q] += wt * t[q];
	}
}

static int nfail;

#define EXPECT_ERR(call, code) do { \
	cudaError_t e_ = (call); \
	EXPECT(e_ == (code), "%s returned %s, not %s", #call, cudaGetErrorName(e_), #code); \
	(void)cudaGetLastError(); } while (0)


static void expect_eq(float got, float want, const char *what, int i)
{
	if (got == want || (std::isnan(got) && std::isnan(want))) return;
	if (nfail++ < 10)
		std::fprintf(stderr, "%s[%d]: got %.9g, want %.9g\n", what, i, got, want);
}

/* ---- kernels ------------------------------------------------------------- */

__global__ void fetch1d(cudaTextureObject_t tf, cudaTextureObject_t ti, float *of, int *oi,
                        int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	of[i] = tex1Dfetch<float>(tf, i - 3);
	oi[i] = tex1Dfetch<int>(ti, i - 3);
}

__global__ void sample2d(cudaTextureObject_t t, const float2 *c, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) out[i] = tex2D<float>(t, c[i].x, c[i].y);
}

__global__ void sample2d4(cudaTextureObject_t t, const float2 *c, float4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) out[i] = tex2D<float4>(t, c[i].x, c[i].y);
}

__global__ void gather2d(cudaTextureObject_t t, const float2 *c, float4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) out[i] = tex2Dgather<float4>(t, c[i].x, c[i].y, 0);
}

__global__ void sample3d(cudaTextureObject_t t, const float4 *c, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) out[i] = tex3D<float>(t, c[i].x, c[i].y, c[i].z);
}

__global__ void sample_layered(cudaTextureObject_t t2, cudaTextureObject_t t1, const float2 *c,
                               float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	int layer = i % 6 - 1;                  /* -1 .. 4: the ends are clamped */
	out[i] = tex2DLayered<float>(t2, c[i].x, c[i].y, layer);
	out[n + i] = tex1DLayered<float>(t1, c[i].x, layer);
}

/* one warp fetches texels x = lane at y: for the timing test, which counts the lines */
__global__ void row_probe(cudaTextureObject_t t, float y, float *out)
{
	out[threadIdx.x] = tex2D<float>(t, threadIdx.x + 0.5f, y);
}

/* layer L of s, pixel (x, y) = x + 10 y + 100 L + 0.5 */
__global__ void write_layered(cudaSurfaceObject_t s, int w, int h, int layers)
{
	int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
	if (x < w && y < h && l < layers)
		surf2DLayeredwrite(x + 10.0f * y + 100.0f * l + 0.5f, s, x * 4, y, l);
}

/* out(x, y) = the mean of the 3x3 texels around (x, y), clamped at the edges */
__global__ void box3(cudaTextureObject_t in, cudaSurfaceObject_t out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h) return;
	float s = 0.0f;
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) s += tex2D<float>(in, x + dx + 0.5f, y + dy + 0.5f);
	surf2Dwrite(s / 9.0f, out, x * (int)sizeof(float), y);
}

__global__ void surfread(cudaSurfaceObject_t s, float *out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < w && y < h) out[y * w + x] = surf2Dread<float>(s, x * (int)sizeof(float), y);
}

/* uchar4 surface: each thread writes its pixel twice over, once far out of range
 * (.zero: dropped), reads a clamped pixel and a zeroed one */
__global__ void surf_modes(cudaSurfaceObject_t s, uchar4 *out, int w)
{
	int x = threadIdx.x;
	surf1Dwrite(make_uchar4(x, 2 * x, 3 * x, 255), s, x * 4);
	surf1Dwrite(make_uchar4(9, 9, 9, 9), s, (x + 1000) * 4, cudaBoundaryModeZero);
	__syncthreads();
	out[2 * x] = surf1Dread<uchar4>(s, (x + w) * 4, cudaBoundaryModeClamp);
	out[2 * x + 1] = surf1Dread<uchar4>(s, -4 * (x + 1), cudaBoundaryModeZero);
}

/* ---- helpers ------------------------------------------------------------- */

static cudaTextureObject_t make_tex(cudaResourceDesc &r, int a0, int a1, int a2, bool linear,
                                    bool normc, bool normread = false, float border = 0.0f)
{
	cudaTextureDesc d;
	std::memset(&d, 0, sizeof d);
	d.addressMode[0] = (cudaTextureAddressMode)a0;
	d.addressMode[1] = (cudaTextureAddressMode)a1;
	d.addressMode[2] = (cudaTextureAddressMode)a2;
	d.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
	d.readMode = normread ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
	d.normalizedCoords = normc;
	for (int q = 0; q < 4; q++) d.borderColor[q] = border + q;
	cudaTextureObject_t t;
	CHECK(cudaCreateTextureObject(&t, &r, &d, NULL));
	return t;
}

template <class T> static T *dev(const std::vector<T> &h)
{
	T *d;
	CHECK(cudaMalloc(&d, h.size() * sizeof(T) + 1));
	CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
	return d;
}

template <class T> static std::vector<T> back(const T *d, size_t n)
{
	std::vector<T> h(n);
	CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
	return h;
}

static std::vector<float2> coords2d(int w, int h, bool normc)
{
	std::vector<float2> c;
	for (int k = 0; k < 96; k++) {           /* inside, on texel centres, and outside */
		float x = -3.0f + 0.37f * k, y = -2.0f + 0.29f * (k % 41) - 0.125f * (k / 41);
		if (normc) x /= w, y /= h;
		c.push_back(make_float2(x, y));
	}
	return c;
}

/* ---- the tests ------------------------------------------------------------- */

static void test_fetch1d()
{
	const int n = 300;
	std::vector<float> hf(n);
	std::vector<int> hi(n);
	for (int i = 0; i < n; i++) hf[i] = 0.5f * i - 7.0f, hi[i] = 3 * i - 100;
	float *df = dev(hf);
	int *di = dev(hi);
	cudaResourceDesc r;
	std::memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeLinear;
	r.res.linear.devPtr = df;
	r.res.linear.desc = cudaCreateChannelDesc<float>();
	r.res.linear.sizeInBytes = n * sizeof(float);
	cudaTextureObject_t tf = make_tex(r, 1, 1, 1, false, false);
	r.res.linear.devPtr = di;
	r.res.linear.desc = cudaCreateChannelDesc<int>();
	cudaTextureObject_t ti = make_tex(r, 1, 1, 1, false, false);
	float *of;
	int *oi;
	CHECK(cudaMalloc(&of, (n + 6) * sizeof(float)));
	CHECK(cudaMalloc(&oi, (n + 6) * sizeof(int)));
	fetch1d<<<(n + 6 + 127) / 128, 128>>>(tf, ti, of, oi, n + 6);
	CHECK(cudaGetLastError());
	std::vector<float> gf = back(of, n + 6);
	std::vector<int> gi = back(oi, n + 6);
	for (int i = 0; i < n + 6; i++) {
		int k = i - 3;
		expect_eq(gf[i], k >= 0 && k < n ? hf[k] : 0.0f, "tex1Dfetch<float>", i);
		EXPECT(gi[i] == (k >= 0 && k < n ? hi[k] : 0), "tex1Dfetch<int>[%d] = %d", i, gi[i]);
	}
	cudaResourceDesc got;
	CHECK(cudaGetTextureObjectResourceDesc(&got, ti));
	EXPECT(got.resType == cudaResourceTypeLinear && got.res.linear.devPtr == di, "resdesc");
	CHECK(cudaDestroyTextureObject(tf));
	CHECK(cudaDestroyTextureObject(ti));
	CHECK(cudaFree(df));
	CHECK(cudaFree(di));
	CHECK(cudaFree(of));
	CHECK(cudaFree(oi));
}

/* a w x h float array through every address mode and both filters */
static void test_2d_float()
{
	const int w = 13, h = 9;
	Ref ref;
	ref.dims = 2, ref.n[0] = w, ref.n[1] = h, ref.n[2] = 1, ref.nch = 1;
	for (int i = 0; i < w * h; i++) ref.v.push_back(std::sin(0.7f * i) * 10.0f + i);
	cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
	cudaArray_t a;
	CHECK(cudaMallocArray(&a, &ch, w, h, cudaArrayTextureGather));
	CHECK(cudaMemcpy2DToArray(a, 0, 0, ref.v.data(), w * sizeof(float), w * sizeof(float), h,
	                          cudaMemcpyHostToDevice));
	cudaExtent e;
	unsigned flags;
	cudaChannelFormatDesc gotch;
	CHECK(cudaArrayGetInfo(&gotch, &e, &flags, a));
	EXPECT(e.width == (size_t)w && e.height == (size_t)h && e.depth == 0 && gotch.x == 32 &&
	       gotch.f == cudaChannelFormatKindFloat, "array info %zu %zu %zu", e.width, e.height,
	       e.depth);
	cudaResourceDesc r;
	std::memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeArray;
	r.res.array.array = a;
	const int n = 96;
	float *out;
	CHECK(cudaMalloc(&out, n * sizeof(float)));
	static const int modes[][2] = {{cudaAddressModeClamp, cudaAddressModeClamp},
	                               {cudaAddressModeBorder, cudaAddressModeBorder},
	                               {cudaAddressModeWrap, cudaAddressModeMirror},
	                               {cudaAddressModeMirror, cudaAddressModeWrap},
	                               {cudaAddressModeBorder, cudaAddressModeClamp}};
	for (int m = 0; m < 5; m++)
		for (int lin = 0; lin < 2; lin++) {
			bool normc = m == 2 || m == 3;
			ref.addr[0] = modes[m][0], ref.addr[1] = modes[m][1], ref.addr[2] = 1;
			ref.linear = lin, ref.normc = normc;
			for (int q = 0; q < 4; q++) ref.border[q] = -5.5f + q;
			cudaTextureObject_t t = make_tex(r, modes[m][0], modes[m][1], 1, lin, normc, false,
			                                 -5.5f);
			std::vector<float2> c = coords2d(w, h, normc);
			float2 *dc = dev(c);
			sample2d<<<1, n>>>(t, dc, out, n);
			CHECK(cudaGetLastError());
			std::vector<float> g = back(out, n);
			for (int i = 0; i < n; i++) {
				float cc[2] = {c[i].x, c[i].y}, want[4];
				sample(ref, cc, want);
				char what[64];
				std::snprintf(what, sizeof what, "tex2D mode %d linear %d", m, lin);
				expect_eq(g[i], want[0], what, i);
			}
			CHECK(cudaDestroyTextureObject(t));
			CHECK(cudaFree(dc));
		}
	/* the same texels back out, a sub-rectangle and the whole */
	std::vector<float> sub(4 * 3);
	CHECK(cudaMemcpy2DFromArray(sub.data(), 4 * sizeof(float), a, 5 * sizeof(float), 2,
	                            4 * sizeof(float), 3, cudaMemcpyDeviceToHost));
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 4; x++) expect_eq(sub[y * 4 + x], ref.v[(y + 2) * w + x + 5],
		                                      "2D sub-rectangle", y * 4 + x);
	std::vector<float> all(w * h);
	CHECK(cudaMemcpyFromArray(all.data(), a, 0, 0, w * h * sizeof(float),
	                          cudaMemcpyDeviceToHost));
	for (int i = 0; i < w * h; i++) expect_eq(all[i], ref.v[i], "cudaMemcpyFromArray", i);
	/* array to array: a 2D block, then the whole as one span */
	cudaArray_t c2;
	CHECK(cudaMallocArray(&c2, &ch, w, h));
	CHECK(cudaMemcpy2DArrayToArray(c2, 0, 0, a, 3 * sizeof(float), 1, 4 * sizeof(float), 5,
	                               cudaMemcpyDeviceToDevice));
	CHECK(cudaMemcpy2DFromArray(sub.data(), 4 * sizeof(float), c2, 0, 0, 4 * sizeof(float), 3,
	                            cudaMemcpyDeviceToHost));
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 4; x++) expect_eq(sub[y * 4 + x], ref.v[(y + 1) * w + x + 3],
		                                      "cudaMemcpy2DArrayToArray", y * 4 + x);
	CHECK(cudaMemcpyArrayToArray(c2, 0, 0, a, 0, 0, w * h * sizeof(float),
	                             cudaMemcpyDeviceToDevice));
	CHECK(cudaMemcpyFromArrayAsync(all.data(), c2, 0, 0, w * h * sizeof(float),
	                               cudaMemcpyDeviceToHost, 0));
	for (int i = 0; i < w * h; i++) expect_eq(all[i], ref.v[i], "cudaMemcpyArrayToArray", i);
	EXPECT_ERR(cudaMemcpy2DArrayToArray(c2, 4, 0, a, 0, 0, w * sizeof(float), 1,
	                                    cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);
	CHECK(cudaFreeArray(c2));
	/* tex2Dgather: component x of the 2x2 footprint */
	float4 *o4;
	CHECK(cudaMalloc(&o4, n * sizeof(float4)));
	cudaTextureObject_t t = make_tex(r, 1, 1, 1, false, false);
	std::vector<float2> c = coords2d(w, h, false);
	float2 *dc = dev(c);
	gather2d<<<1, n>>>(t, dc, o4, n);
	CHECK(cudaGetLastError());
	std::vector<float4> g4 = back(o4, n);
	ref.addr[0] = ref.addr[1] = cudaAddressModeClamp, ref.normc = false;
	for (int i = 0; i < n; i++) {
		long i0 = (long)std::floor(c[i].x - 0.5f), j0 = (long)std::floor(c[i].y - 0.5f);
		long ix[4][3] = {{i0, j0 + 1, 0}, {i0 + 1, j0 + 1, 0}, {i0 + 1, j0, 0}, {i0, j0, 0}};
		float want[4][4];
		for (int q = 0; q < 4; q++) texel(ref, ix[q], want[q]);
		expect_eq(g4[i].x, want[0][0], "tex2Dgather.x", i);
		expect_eq(g4[i].y, want[1][0], "tex2Dgather.y", i);
		expect_eq(g4[i].z, want[2][0], "tex2Dgather.z", i);
		expect_eq(g4[i].w, want[3][0], "tex2Dgather.w", i);
	}
	CHECK(cudaDestroyTextureObject(t));
	CHECK(cudaFree(dc));
	CHECK(cudaFree(o4));
	CHECK(cudaFree(out));
	CHECK(cudaFreeArray(a));
}

/* uchar4 pixels read as normalized floats, bilinear, border */
static void test_2d_uchar4()
{
	const int w = 10, h = 7, n = 96;
	std::vector<uchar4> px(w * h);
	Ref ref;
	ref.dims = 2, ref.n[0] = w, ref.n[1] = h, ref.n[2] = 1, ref.nch = 4;
	for (int i = 0; i < w * h; i++) {
		px[i] = make_uchar4(i * 37 % 256, 255 - i * 11 % 256, i * 5, (i * 91) & 255);
		const unsigned char *b = &px[i].x;
		for (int q = 0; q < 4; q++) ref.v.push_back((float)b[q] / 255.0f);
	}
	cudaChannelFormatDesc ch = cudaCreateChannelDesc<uchar4>();
	cudaArray_t a;
	CHECK(cudaMallocArray(&a, &ch, w, h));
	CHECK(cudaMemcpyToArray(a, 0, 0, px.data(), w * h * sizeof(uchar4),
	                        cudaMemcpyHostToDevice));
	cudaResourceDesc r;
	std::memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeArray;
	r.res.array.array = a;
	cudaTextureObject_t t = make_tex(r, cudaAddressModeBorder, cudaAddressModeBorder, 1, true,
	                                 false, true, 0.25f);
	ref.addr[0] = ref.addr[1] = cudaAddressModeBorder, ref.addr[2] = 1;
	ref.linear = true, ref.normc = false;
	for (int q = 0; q < 4; q++) ref.border[q] = 0.25f + q;
	std::vector<float2> c = coords2d(w, h, false);
	float2 *dc = dev(c);
	float4 *o4;
	CHECK(cudaMalloc(&o4, n * sizeof(float4)));
	sample2d4<<<2, n / 2>>>(t, dc, o4, n);
	CHECK(cudaGetLastError());
	std::vector<float4> g = back(o4, n);
	for (int i = 0; i < n; i++) {
		float cc[2] = {c[i].x, c[i].y}, want[4];
		sample(ref, cc, want);
		expect_eq(g[i].x, want[0], "uchar4 .x", i);
		expect_eq(g[i].y, want[1], "uchar4 .y", i);
		expect_eq(g[i].z, want[2], "uchar4 .z", i);
		expect_eq(g[i].w, want[3], "uchar4 .w", i);
	}
	CHECK(cudaDestroyTextureObject(t));
	CHECK(cudaFree(dc));
	CHECK(cudaFree(o4));
	CHECK(cudaFreeArray(a));
}

/* one format: w x h texels of `bytes` each from `raw`, ref.v their floats; the
 * present channels of tex2D<float4> at coords2d compared */
static void check_format(const char *what, cudaChannelFormatDesc ch, const void *raw,
                         size_t bytes, Ref &ref, bool linear, bool normread)
{
	const int w = ref.n[0], h = ref.n[1], n = 96;
	cudaArray_t a;
	CHECK(cudaMallocArray(&a, &ch, w, h));
	CHECK(cudaMemcpy2DToArray(a, 0, 0, raw, w * bytes, w * bytes, h, cudaMemcpyHostToDevice));
	cudaResourceDesc r;
	std::memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeArray;
	r.res.array.array = a;
	cudaTextureObject_t t = make_tex(r, 1, 1, 1, linear, false, normread);
	ref.addr[0] = ref.addr[1] = ref.addr[2] = cudaAddressModeClamp;
	ref.linear = linear, ref.normc = false;
	std::vector<float2> c = coords2d(w, h, false);
	float2 *dc = dev(c);
	float4 *o4;
	CHECK(cudaMalloc(&o4, n * sizeof(float4)));
	sample2d4<<<1, n>>>(t, dc, o4, n);
	CHECK(cudaGetLastError());
	std::vector<float4> g = back(o4, n);
	for (int i = 0; i < n; i++) {
		float cc[2] = {c[i].x, c[i].y}, want[4];
		sample(ref, cc, want);
		const float *got = &g[i].x;
		for (int q = 0; q < ref.nch; q++) expect_eq(got[q], want[q], what, 4 * i + q);
	}
	cudaTextureDesc td;
	CHECK(cudaGetTextureObjectTextureDesc(&td, t));
	EXPECT(td.filterMode == (linear ? cudaFilterModeLinear : cudaFilterModePoint) &&
	       td.readMode == (normread ? cudaReadModeNormalizedFloat : cudaReadModeElementType),
	       "%s: texture desc", what);
	CHECK(cudaDestroyTextureObject(t));
	CHECK(cudaFree(dc));
	CHECK(cudaFree(o4));
	CHECK(cudaFreeArray(a));
}

static Ref format_ref(int w, int h, int nch)
{
	Ref ref;
	ref.dims = 2, ref.n[0] = w, ref.n[1] = h, ref.n[2] = 1, ref.nch = nch;
	return ref;
}

static void test_formats()
{
	const int w = 9, h = 4;
	std::vector<__half> hv(w * h);             /* half, bilinear */
	Ref rh = format_ref(w, h, 1);
	for (int i = 0; i < w * h; i++) {
		hv[i] = __float2half(0.3f * i - 2.0f);
		rh.v.push_back(__half2float(hv[i]));
	}
	check_format("half", cudaCreateChannelDescHalf(), hv.data(), 2, rh, true, false);
	std::vector<signed char> cv(w * h);        /* signed 8-bit, normalized, bilinear */
	Ref rc = format_ref(w, h, 1);
	for (int i = 0; i < w * h; i++) {
		cv[i] = (signed char)(i == 0 ? -128 : i * 29 - 128);
		rc.v.push_back(std::max((float)cv[i] / 127.0f, -1.0f));
	}
	check_format("char normalized", cudaCreateChannelDesc<signed char>(), cv.data(), 1, rc,
	             true, true);
	std::vector<short2> sv(w * h);             /* signed 16-bit pairs, normalized, point */
	Ref rs = format_ref(w, h, 2);
	for (int i = 0; i < w * h; i++) {
		sv[i] = make_short2((short)(i * 1999 - 32768), (short)(32767 - i * 977));
		rs.v.push_back(std::max((float)sv[i].x / 32767.0f, -1.0f));
		rs.v.push_back(std::max((float)sv[i].y / 32767.0f, -1.0f));
	}
	check_format("short2 normalized", cudaCreateChannelDesc<short2>(), sv.data(), 4, rs, false,
	             true);
	std::vector<ushort4> uv(w * h);            /* unsigned 16-bit quads, normalized, bilinear */
	Ref ru = format_ref(w, h, 4);
	for (int i = 0; i < w * h; i++) {
		uv[i] = make_ushort4(i * 1800, 65535 - i * 33, i * i * 50, 65535);
		const unsigned short *p = &uv[i].x;
		for (int q = 0; q < 4; q++) ru.v.push_back((float)p[q] / 65535.0f);
	}
	check_format("ushort4 normalized", cudaCreateChannelDesc<ushort4>(), uv.data(), 8, ru, true,
	             true);
}

static void test_3d()
{
	const int w = 6, h = 5, d = 4, n = 64;
	Ref ref;
	ref.dims = 3, ref.n[0] = w, ref.n[1] = h, ref.n[2] = d, ref.nch = 1;
	for (int i = 0; i < w * h * d; i++) ref.v.push_back((float)((i * 7919) % 113) * 0.5f);
	cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
	cudaArray_t a;
	cudaExtent e = make_cudaExtent(w, h, d);
	CHECK(cudaMalloc3DArray(&a, &ch, e));
	cudaMemcpy3DParms p;
	std::memset(&p, 0, sizeof p);
	p.srcPtr = make_cudaPitchedPtr(ref.v.data(), w * sizeof(float), w, h);
	p.dstArray = a;
	p.extent = e;
	p.kind = cudaMemcpyHostToDevice;
	CHECK(cudaMemcpy3D(&p));
	std::vector<float> round(w * h * d, -1.0f);      /* and back, through cudaMemcpy3D */
	std::memset(&p, 0, sizeof p);
	p.srcArray = a;
	p.dstPtr = make_cudaPitchedPtr(round.data(), w * sizeof(float), w, h);
	p.extent = e;
	p.kind = cudaMemcpyDeviceToHost;
	CHECK(cudaMemcpy3D(&p));
	for (int i = 0; i < w * h * d; i++) expect_eq(round[i], ref.v[i], "3D round trip", i);
	cudaResourceDesc r;
	std::memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeArray;
	r.res.array.array = a;
	cudaTextureObject_t t = make_tex(r, 1, 1, 1, true, false);
	ref.addr[0] = ref.addr[1] = ref.addr[2] = cudaAddressModeClamp;
	ref.linear = true, ref.normc = false;
	std::vector<float4> c;
	for (int k = 0; k < n; k++)
		c.push_back(make_float4(-0.5f + 0.23f * k, 0.1f * k - 0.7f, 0.061f * k, 0));
	float4 *dc = dev(c);
	float *out;
	CHECK(cudaMalloc(&out, n * sizeof(float)));
	sample3d<<<1, n>>>(t, dc, out, n);
	CHECK(cudaGetLastError());
	std::vector<float> g = back(out, n);
	for (int i = 0; i < n; i++) {
		float cc[3] = {c[i].x, c[i].y, c[i].z}, want[4];
		sample(ref, cc, want);
		expect_eq(g[i], want[0], "tex3D", i);
	}
	CHECK(cudaDestroyTextureObject(t));
	CHECK(cudaFree(dc));
	CHECK(cudaFree(out));
	CHECK(cudaFreeArray(a));
}

static void test_pitch2d()
{
	const int w = 19, h = 6, n = 96;
	Ref ref;
	ref.dims = 2, ref.n[0] = w, ref.n[1] = h, ref.n[2] = 1, ref.nch = 1;
	for (int i = 0; i < w * h; i++) ref.v.push_back(1.0f / (1 + i));
	float *p;
	size_t pitch;
	CHECK(cudaMallocPitch((void **)&p, &pitch, w * sizeof(float), h));
	CHECK(cudaMemcpy2D(p, pitch, ref.v.data(), w * sizeof(float), w * sizeof(float), h,
	                   cudaMemcpyHostToDevice));
	cudaResourceDesc r;
	std::memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypePitch2D;
	r.res.pitch2D.devPtr = p;
	r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
	r.res.pitch2D.width = w;
	r.res.pitch2D.height = h;
	r.res.pitch2D.pitchInBytes = pitch;
	float *out;
	CHECK(cudaMalloc(&out, n * sizeof(float)));
	for (int lin = 0; lin < 2; lin++) {
		cudaTextureObject_t t = make_tex(r, 1, 1, 1, lin, true);
		ref.addr[0] = ref.addr[1] = cudaAddressModeClamp, ref.linear = lin, ref.normc = true;
		std::vector<float2> c = coords2d(w, h, true);
		float2 *dc = dev(c);
		sample2d<<<1, n>>>(t, dc, out, n);
		CHECK(cudaGetLastError());
		std::vector<float> g = back(out, n);
		for (int i = 0; i < n; i++) {
			float cc[2] = {c[i].x, c[i].y}, want[4];
			sample(ref, cc, want);
			expect_eq(g[i], want[0], lin ? "pitch2D linear" : "pitch2D point", i);
		}
		CHECK(cudaDestroyTextureObject(t));
		CHECK(cudaFree(dc));
	}
	CHECK(cudaFree(out));
	CHECK(cudaFree(p));
}

static void test_layered()
{
	const int w = 7, h = 5, nl = 3, n = 96;
	std::vector<float> v(w * h * nl), v1(w * nl);
	for (int i = 0; i < w * h * nl; i++) v[i] = (float)((i * 37) % 101) - 20.0f;
	for (int i = 0; i < w * nl; i++) v1[i] = 3.0f * i + 1.0f;
	cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
	cudaArray_t a2, a1, as;
	CHECK(cudaMalloc3DArray(&a2, &ch, make_cudaExtent(w, h, nl), cudaArrayLayered));
	CHECK(cudaMalloc3DArray(&a1, &ch, make_cudaExtent(w, 0, nl), cudaArrayLayered));
	CHECK(cudaMalloc3DArray(&as, &ch, make_cudaExtent(w, h, nl),
	                        cudaArrayLayered | cudaArraySurfaceLoadStore));
	cudaExtent e;
	unsigned flags;
	CHECK(cudaArrayGetInfo(NULL, &e, &flags, a1));
	EXPECT(e.width == (size_t)w && e.height == 0 && e.depth == (size_t)nl &&
	       flags == cudaArrayLayered, "layered 1D info %zu %zu %zu %u", e.width, e.height,
	       e.depth, flags);
	cudaMemcpy3DParms p;
	std::memset(&p, 0, sizeof p);
	p.srcPtr = make_cudaPitchedPtr(v.data(), w * sizeof(float), w, h);
	p.dstArray = a2;
	p.extent = make_cudaExtent(w, h, nl);
	p.kind = cudaMemcpyHostToDevice;
	CHECK(cudaMemcpy3D(&p));
	p.srcPtr = make_cudaPitchedPtr(v1.data(), w * sizeof(float), w, 1);
	p.dstArray = a1;
	p.extent = make_cudaExtent(w, 1, nl);
	CHECK(cudaMemcpy3D(&p));
	cudaResourceDesc r;
	std::memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeArray;
	r.res.array.array = a2;
	cudaTextureObject_t t2 = make_tex(r, 1, 1, 1, true, false);
	r.res.array.array = a1;
	cudaTextureObject_t t1 = make_tex(r, 3, 1, 1, false, false, false, 7.0f);
	std::vector<float2> c = coords2d(w, h, false);
	float2 *dc = dev(c);
	float *out;
	CHECK(cudaMalloc(&out, 2 * n * sizeof(float)));
	sample_layered<<<1, n>>>(t2, t1, dc, out, n);
	CHECK(cudaGetLastError());
	std::vector<float> g = back(out, 2 * n);
	for (int i = 0; i < n; i++) {
		int layer = std::min(std::max(i % 6 - 1, 0), nl - 1);
		Ref ref;
		ref.dims = 2, ref.n[0] = w, ref.n[1] = h, ref.n[2] = 1, ref.nch = 1;
		ref.v.assign(v.begin() + layer * w * h, v.begin() + (layer + 1) * w * h);
		ref.addr[0] = ref.addr[1] = ref.addr[2] = cudaAddressModeClamp;
		ref.linear = true, ref.normc = false;
		float cc[2] = {c[i].x, c[i].y}, want[4];
		sample(ref, cc, want);
		expect_eq(g[i], want[0], "tex2DLayered", i);
		Ref r1 = ref;
		r1.dims = 1, r1.n[1] = 1, r1.linear = false, r1.addr[0] = cudaAddressModeBorder;
		for (int q = 0; q < 4; q++) r1.border[q] = 7.0f + q;
		r1.v.assign(v1.begin() + layer * w, v1.begin() + (layer + 1) * w);
		sample(r1, cc, want);
		expect_eq(g[n + i], want[0], "tex1DLayered", i);
	}
	r.res.array.array = as;
	cudaSurfaceObject_t s;
	CHECK(cudaCreateSurfaceObject(&s, &r));
	write_layered<<<nl, dim3(8, 8)>>>(s, w, h, nl);
	CHECK(cudaGetLastError());
	std::vector<float> got(w * h * nl, -1.0f);
	std::memset(&p, 0, sizeof p);
	p.srcArray = as;
	p.dstPtr = make_cudaPitchedPtr(got.data(), w * sizeof(float), w, h);
	p.extent = make_cudaExtent(w, h, nl);
	p.kind = cudaMemcpyDeviceToHost;
	CHECK(cudaMemcpy3D(&p));
	for (int l = 0; l < nl; l++)
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++)
				expect_eq(got[(l * h + y) * w + x], x + 10.0f * y + 100.0f * l + 0.5f,
				          "surf2DLayeredwrite", (l * h + y) * w + x);
	CHECK(cudaDestroySurfaceObject(s));
	CHECK(cudaDestroyTextureObject(t1));
	CHECK(cudaDestroyTextureObject(t2));
	CHECK(cudaFree(dc));
	CHECK(cudaFree(out));
	CHECK(cudaFreeArray(a1));
	CHECK(cudaFreeArray(a2));
	CHECK(cudaFreeArray(as));
}

/* a 3x3 box filter: texture in, surface out */
static void test_surface()
{
	const int w = 21, h = 11;
	std::vector<float> img(w * h);
	for (int i = 0; i < w * h; i++) img[i] = (float)((i * 29) % 64);
	cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
	cudaArray_t ain, aout;
	CHECK(cudaMallocArray(&ain, &ch, w, h));
	CHECK(cudaMallocArray(&aout, &ch, w, h, cudaArraySurfaceLoadStore));
	CHECK(cudaMemcpy2DToArray(ain, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h,
	                          cudaMemcpyHostToDevice));
	cudaResourceDesc r;
	std::memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeArray;
	r.res.array.array = ain;
	cudaTextureObject_t t = make_tex(r, 1, 1, 1, false, false);
	r.res.array.array = aout;
	cudaSurfaceObject_t s;
	CHECK(cudaCreateSurfaceObject(&s, &r));
	dim3 b(8, 4), g((w + 7) / 8, (h + 3) / 4);
	box3<<<g, b>>>(t, s, w, h);
	CHECK(cudaGetLastError());
	float *lin;
	CHECK(cudaMalloc(&lin, w * h * sizeof(float)));
	surfread<<<g, b>>>(s, lin, w, h);
	CHECK(cudaGetLastError());
	std::vector<float> viasurf = back(lin, w * h), viacopy(w * h);
	CHECK(cudaMemcpy2DFromArray(viacopy.data(), w * sizeof(float), aout, 0, 0,
	                            w * sizeof(float), h, cudaMemcpyDeviceToHost));
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			float sum = 0.0f;
			for (int dy = -1; dy <= 1; dy++)
				for (int dx = -1; dx <= 1; dx++) {
					int xx = std::min(std::max(x + dx, 0), w - 1);
					int yy = std::min(std::max(y + dy, 0), h - 1);
					sum += img[yy * w + xx];
				}
			expect_eq(viacopy[y * w + x], sum / 9.0f, "box filter", y * w + x);
			expect_eq(viasurf[y * w + x], sum / 9.0f, "surf2Dread", y * w + x);
		}
	CHECK(cudaDestroySurfaceObject(s));
	CHECK(cudaDestroyTextureObject(t));
	CHECK(cudaFree(lin));
	CHECK(cudaFreeArray(ain));
	CHECK(cudaFreeArray(aout));
	/* uchar4 surface: .zero drops, .clamp reads the last pixel */
	const int n = 32;
	cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
	cudaArray_t a4;
	CHECK(cudaMallocArray(&a4, &c4, n, 0, cudaArraySurfaceLoadStore));
	r.res.array.array = a4;
	CHECK(cudaCreateSurfaceObject(&s, &r));
	uchar4 *o;
	CHECK(cudaMalloc(&o, 2 * n * sizeof(uchar4)));
	surf_modes<<<1, n>>>(s, o, n);
	CHECK(cudaGetLastError());
	std::vector<uchar4> got = back(o, 2 * n), raw(n);
	CHECK(cudaMemcpyFromArray(raw.data(), a4, 0, 0, n * sizeof(uchar4),
	                          cudaMemcpyDeviceToHost));
	for (int x = 0; x < n; x++) {
		EXPECT(raw[x].x == x && raw[x].y == 2 * x && raw[x].z == 3 * x && raw[x].w == 255,
		       "surf1Dwrite pixel %d: %d %d %d %d", x, raw[x].x, raw[x].y, raw[x].z, raw[x].w);
		uchar4 cl = got[2 * x], z = got[2 * x + 1];
		EXPECT(cl.x == n - 1 && cl.y == 2 * (n - 1) && cl.w == 255, "clamped read %d", x);
		EXPECT(!z.x && !z.y && !z.z && !z.w, "zeroed read %d", x);
	}
	CHECK(cudaDestroySurfaceObject(s));
	CHECK(cudaFree(o));
	CHECK(cudaFreeArray(a4));
}

static void test_errors()
{
	cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>(), bad3 =
	        cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
	cudaArray_t a, b;
	EXPECT_ERR(cudaMallocArray(&b, &bad3, 4, 4), cudaErrorInvalidChannelDescriptor);
	EXPECT_ERR(cudaMalloc3DArray(&b, &ch, make_cudaExtent(4, 4, 6), cudaArrayCubemap),
	           cudaErrorNotSupported);
	EXPECT_ERR(cudaMalloc3DArray(&b, &ch, make_cudaExtent(4, 4, 0), cudaArrayLayered),
	           cudaErrorInvalidValue);
	EXPECT_ERR(cudaMallocArray(&b, &ch, 0, 4), cudaErrorInvalidValue);
	CHECK(cudaMallocArray(&a, &ch, 8, 4));
	std::vector<float> h(64, 1.0f);
	/* out of bounds: a row too wide, one row too many, an offset past the end */
	EXPECT_ERR(cudaMemcpy2DToArray(a, 4, 0, h.data(), 64, 32, 1, cudaMemcpyHostToDevice),
	           cudaErrorInvalidValue);
	EXPECT_ERR(cudaMemcpy2DToArray(a, 0, 1, h.data(), 32, 32, 4, cudaMemcpyHostToDevice),
	           cudaErrorInvalidValue);
	EXPECT_ERR(cudaMemcpyToArray(a, 0, 3, h.data(), 64, cudaMemcpyHostToDevice),
	           cudaErrorInvalidValue);
	EXPECT_ERR(cudaMemcpy2DFromArray(h.data(), 32, a, 0, 2, 32, 3, cudaMemcpyDeviceToHost),
	           cudaErrorInvalidValue);
	cudaMemcpy3DParms p;
	std::memset(&p, 0, sizeof p);
	p.srcPtr = make_cudaPitchedPtr(h.data(), 32, 8, 4);
	p.dstArray = a;
	p.dstPos = make_cudaPos(1, 0, 0);
	p.extent = make_cudaExtent(8, 4, 1);
	p.kind = cudaMemcpyHostToDevice;
	EXPECT_ERR(cudaMemcpy3D(&p), cudaErrorInvalidValue);
	/* bad descriptors */
	cudaResourceDesc r;
	std::memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeArray;
	r.res.array.array = a;
	cudaTextureDesc d;
	std::memset(&d, 0, sizeof d);
	cudaTextureObject_t t;
	d.addressMode[1] = (cudaTextureAddressMode)7;
	EXPECT_ERR(cudaCreateTextureObject(&t, &r, &d, NULL), cudaErrorInvalidValue);
	d.addressMode[1] = cudaAddressModeClamp;
	d.filterMode = (cudaTextureFilterMode)2;
	EXPECT_ERR(cudaCreateTextureObject(&t, &r, &d, NULL), cudaErrorInvalidValue);
	d.filterMode = cudaFilterModePoint;
	EXPECT_ERR(cudaCreateTextureObject(&t, &r, NULL, NULL), cudaErrorInvalidValue);
	r.flags = 1;
	EXPECT_ERR(cudaCreateTextureObject(&t, &r, &d, NULL), cudaErrorInvalidValue);
	r.flags = 0;
	r.res.array.array = (cudaArray_t)&d;        /* not an array */
	EXPECT_ERR(cudaCreateTextureObject(&t, &r, &d, NULL), cudaErrorInvalidValue);
	cudaSurfaceObject_t s;
	r.res.array.array = a;                      /* no cudaArraySurfaceLoadStore */
	EXPECT_ERR(cudaCreateSurfaceObject(&s, &r), cudaErrorInvalidValue);
	cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
	CHECK(cudaMallocArray(&b, &ci, 8, 4));
	r.res.array.array = b;
	d.filterMode = cudaFilterModeLinear;        /* on integers read as integers */
	EXPECT_ERR(cudaCreateTextureObject(&t, &r, &d, NULL), cudaErrorInvalidValue);
	d.readMode = cudaReadModeNormalizedFloat;   /* of 32-bit integers */
	EXPECT_ERR(cudaCreateTextureObject(&t, &r, &d, NULL), cudaErrorInvalidValue);
	float *dp;
	CHECK(cudaMalloc(&dp, 4096));
	std::memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeLinear;
	r.res.linear.devPtr = dp + 1;               /* not 256-byte aligned */
	r.res.linear.desc = ch;
	r.res.linear.sizeInBytes = 1024;
	d.filterMode = cudaFilterModePoint, d.readMode = cudaReadModeElementType;
	EXPECT_ERR(cudaCreateTextureObject(&t, &r, &d, NULL), cudaErrorInvalidValue);
	r.res.linear.devPtr = dp;
	r.res.linear.sizeInBytes = 8192;            /* larger than the allocation */
	EXPECT_ERR(cudaCreateTextureObject(&t, &r, &d, NULL), cudaErrorInvalidValue);
	r.res.linear.sizeInBytes = 4096;
	r.res.linear.desc = bad3;                   /* three channels */
	EXPECT_ERR(cudaCreateTextureObject(&t, &r, &d, NULL), cudaErrorInvalidChannelDescriptor);
	r.res.linear.desc = ch;
	r.resType = cudaResourceTypeMipmappedArray;
	EXPECT_ERR(cudaCreateTextureObject(&t, &r, &d, NULL), cudaErrorNotSupported);
	r.resType = cudaResourceTypeLinear;
	CHECK(cudaCreateTextureObject(&t, &r, &d, NULL));
	CHECK(cudaDestroyTextureObject(t));
	EXPECT_ERR(cudaDestroyTextureObject(t), cudaErrorInvalidValue);
	EXPECT_ERR(cudaFreeArray((cudaArray_t)&d), cudaErrorInvalidValue);
	CHECK(cudaFree(dp));
	CHECK(cudaFreeArray(a));
	CHECK(cudaFreeArray(b));
}

/* a fetch through a destroyed object: rfsim stops the kernel and reports it */
static void destroyed()
{
	float *df, *of;
	int *oi;
	CHECK(cudaMalloc(&df, 1024));
	CHECK(cudaMalloc(&of, 1024));
	CHECK(cudaMalloc(&oi, 1024));
	cudaResourceDesc r;
	std::memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeLinear;
	r.res.linear.devPtr = df;
	r.res.linear.desc = cudaCreateChannelDesc<float>();
	r.res.linear.sizeInBytes = 1024;
	cudaTextureObject_t t = make_tex(r, 1, 1, 1, false, false);
	CHECK(cudaDestroyTextureObject(t));
	fetch1d<<<1, 32>>>(t, t, of, oi, 32);
	CHECK(cudaDeviceSynchronize());
}

/* `textures rows`: a point fetch of one row, then a bilinear fetch between two rows
 * 256 bytes apart, each of 32 floats (128 bytes); tests/test_cudart.py counts lines */
static void rows()
{
	const int w = 64, h = 4;
	std::vector<float> v(w * h, 1.0f);
	cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
	cudaArray_t a;
	CHECK(cudaMallocArray(&a, &ch, w, h));
	CHECK(cudaMemcpy2DToArray(a, 0, 0, v.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
	cudaResourceDesc r;
	std::memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeArray;
	r.res.array.array = a;
	float *out;
	CHECK(cudaMalloc(&out, 32 * sizeof(float)));
	for (int lin = 0; lin < 2; lin++) {
		cudaTextureObject_t t = make_tex(r, 1, 1, 1, lin, false);
		row_probe<<<1, 32>>>(t, lin ? 2.0f : 1.5f, out);
		std::vector<float> g = back(out, 32);
		for (int i = 0; i < 32; i++) expect_eq(g[i], 1.0f, "row_probe", i);
		CHECK(cudaDestroyTextureObject(t));
	}
	CHECK(cudaFree(out));
	CHECK(cudaFreeArray(a));
	EXPECT(nfail == 0, "%d mismatches", nfail);
	std::printf("PASS\n");
}

int main(int argc, char **argv)
{
	if (argc > 1 && !std::strcmp(argv[1], "destroyed")) {
		destroyed();
		return 0;
	}
	if (argc > 1 && !std::strcmp(argv[1], "rows")) {
		rows();
		return 0;
	}
	test_fetch1d();
	test_2d_float();
	test_2d_uchar4();
	test_formats();
	test_3d();
	test_pitch2d();
	test_layered();
	test_surface();
	test_errors();
	CHECK(cudaDeviceSynchronize());
	EXPECT(nfail == 0, "%d mismatches", nfail);
	std::printf("PASS\n");
	return 0;
}
