/*
 * texfilter.cu -- simpleTexture and convolutionTexture as the CUDA samples
 * write them: an image in a CUDA array read through a texture object with
 * normalized coordinates, bilinear filtering and wrap addressing to rotate
 * it; a separable 5-tap convolution whose row pass fetches with
 * tex2D<float>(x + k, y) (point sampling, clamp) and writes a surface
 * (surf2Dwrite), and whose column pass reads that surface's array through
 * a second texture object; results back with cudaMemcpy2DFromArray.
 */
#include <cuda_runtime.h>

#include <cmath>
#include <vector>

#include "check.h"

__constant__ float taps[5];

__global__ void rotate(cudaTextureObject_t tex, float *out, int w, int h, float angle)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h) return;
	float u = x / (float)w - 0.5f, v = y / (float)h - 0.5f;
	float tu = u * cosf(angle) - v * sinf(angle) + 0.5f;
	float tv = v * cosf(angle) + u * sinf(angle) + 0.5f;
	out[y * w + x] = tex2D<float>(tex, tu, tv);
}

__global__ void conv_rows(cudaTextureObject_t src, cudaSurfaceObject_t dst, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h) return;
	float s = 0;
	for (int k = -2; k <= 2; k++) s += taps[k + 2] * tex2D<float>(src, x + k + 0.5f, y + 0.5f);
	surf2Dwrite(s, dst, x * (int)sizeof(float), y);
}

__global__ void conv_cols(cudaTextureObject_t src, float *out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h) return;
	float s = 0;
	for (int k = -2; k <= 2; k++) s += taps[k + 2] * tex2D<float>(src, x + 0.5f, y + k + 0.5f);
	out[y * w + x] = s;
}

static cudaTextureObject_t make_tex(cudaArray_t a, int normalized, cudaTextureFilterMode f,
                                    cudaTextureAddressMode m)
{
	cudaResourceDesc rd = {};
	rd.resType = cudaResourceTypeArray;
	rd.res.array.array = a;
	cudaTextureDesc td = {};
	td.addressMode[0] = td.addressMode[1] = m;
	td.filterMode = f;
	td.readMode = cudaReadModeElementType;
	td.normalizedCoords = normalized;
	cudaTextureObject_t t;
	CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
	return t;
}

/* the texture unit's bilinear weights: 8-bit fractions (1/256) */
static float lerp9(float a, float b, float f) { return a + (b - a) * (std::round(f * 256) / 256); }

int main()
{
	const int w = 64, h = 48;
	std::vector<float> img(w * h);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) img[y * w + x] = (float)((x * 7 + y * 13) % 31) + 0.25f * (x % 4);
	cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
	cudaArray_t a, b;
	CHECK(cudaMallocArray(&a, &cf, w, h));
	CHECK(cudaMallocArray(&b, &cf, w, h, cudaArraySurfaceLoadStore));
	CHECK(cudaMemcpy2DToArray(a, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h,
	                          cudaMemcpyHostToDevice));
	float *dout;
	CHECK(cudaMalloc(&dout, w * h * sizeof(float)));
	dim3 blk(16, 8), grd(w / 16, h / 8);

	/* rotation: normalized coordinates, bilinear, wrap */
	const float angle = 0.5f;
	cudaTextureObject_t rt = make_tex(a, 1, cudaFilterModeLinear, cudaAddressModeWrap);
	rotate<<<grd, blk>>>(rt, dout, w, h, angle);
	CHECK(cudaGetLastError());
	std::vector<float> out(w * h);
	CHECK(cudaMemcpy(out.data(), dout, w * h * sizeof(float), cudaMemcpyDeviceToHost));
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			float u = x / (float)w - 0.5f, v = y / (float)h - 0.5f;
			float tu = u * std::cos(angle) - v * std::sin(angle) + 0.5f;
			float tv = v * std::cos(angle) + u * std::sin(angle) + 0.5f;
			float fx = tu * w - 0.5f, fy = tv * h - 0.5f;
			float x0 = std::floor(fx), y0 = std::floor(fy);
			auto at = [&](int xi, int yi) {
				xi = ((xi % w) + w) % w, yi = ((yi % h) + h) % h;
				return img[yi * w + xi];
			};
			int ix = (int)x0, iy = (int)y0;
			float top = lerp9(at(ix, iy), at(ix + 1, iy), fx - x0);
			float bot = lerp9(at(ix, iy + 1), at(ix + 1, iy + 1), fx - x0);
			float ref = lerp9(top, bot, fy - y0);
			/* cosf/sinf on the device and the host differ in the last bits, which can move
			 * a coordinate across a 1/256 step: one step of the image's range (31/256) */
			EXPECT(std::fabs(out[y * w + x] - ref) <= 31.0f / 256 + 1e-3f,
			       "rotate (%d,%d): %g, want %g", x, y, out[y * w + x], ref);
		}

	/* separable convolution: texture -> surface -> texture */
	const float ht[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
	CHECK(cudaMemcpyToSymbol(taps, ht, sizeof ht));
	cudaTextureObject_t ta = make_tex(a, 0, cudaFilterModePoint, cudaAddressModeClamp);
	cudaTextureObject_t tb = make_tex(b, 0, cudaFilterModePoint, cudaAddressModeClamp);
	cudaResourceDesc sd = {};
	sd.resType = cudaResourceTypeArray;
	sd.res.array.array = b;
	cudaSurfaceObject_t sb;
	CHECK(cudaCreateSurfaceObject(&sb, &sd));
	conv_rows<<<grd, blk>>>(ta, sb, w, h);
	conv_cols<<<grd, blk>>>(tb, dout, w, h);
	CHECK(cudaGetLastError());
	std::vector<float> mid(w * h), fin(w * h);
	CHECK(cudaMemcpy2DFromArray(mid.data(), w * sizeof(float), b, 0, 0, w * sizeof(float), h,
	                            cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(fin.data(), dout, w * h * sizeof(float), cudaMemcpyDeviceToHost));
	auto cl = [](int v, int n) { return v < 0 ? 0 : v >= n ? n - 1 : v; };
	std::vector<float> rmid(w * h);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			float s = 0;
			for (int k = -2; k <= 2; k++) s += ht[k + 2] * img[y * w + cl(x + k, w)];
			rmid[y * w + x] = s;
			EXPECT(std::fabs(mid[y * w + x] - s) <= 1e-5f * (1 + std::fabs(s)),
			       "row pass (%d,%d): %g, want %g", x, y, mid[y * w + x], s);
		}
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			float s = 0;
			for (int k = -2; k <= 2; k++) s += ht[k + 2] * rmid[cl(y + k, h) * w + x];
			EXPECT(std::fabs(fin[y * w + x] - s) <= 1e-5f * (1 + std::fabs(s)),
			       "column pass (%d,%d): %g, want %g", x, y, fin[y * w + x], s);
		}
	CHECK(cudaDestroyTextureObject(rt));
	CHECK(cudaDestroyTextureObject(ta));
	CHECK(cudaDestroyTextureObject(tb));
	CHECK(cudaDestroySurfaceObject(sb));
	CHECK(cudaFreeArray(a));
	CHECK(cudaFreeArray(b));
	std::printf("PASS\n");
	return 0;
}
