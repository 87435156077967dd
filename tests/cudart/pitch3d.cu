/*
 * pitch3d.cu -- pitched 2D and 3D device memory as textbook programs use
 * it: cudaMallocPitch + cudaMemcpy2D around a 2D kernel on a dim3 grid that
 * indexes rows by the pitch, cudaMemset2D, a sub-rectangle copy, and
 * cudaMalloc3D + cudaMemset3D + cudaMemcpy3D around a kernel on a 3D grid
 * of 3D blocks; every result is compared with a CPU reference.
 */
#include <cuda_runtime.h>

#include <cstring>
#include <vector>

#include "check.h"

/* out[y][x] = 2 * in[y][x] + y, rows `pitch` bytes apart */
__global__ void scale2d(const float *in, size_t in_pitch, float *out, size_t out_pitch,
                        int width, int height)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= width || y >= height) return;
	const float *row = (const float *)((const char *)in + y * in_pitch);
	float *orow = (float *)((char *)out + y * out_pitch);
	orow[x] = 2.0f * row[x] + (float)y;
}

/* v[z][y][x] += x + 10 y + 100 z over a pitched 3D volume */
__global__ void add3d(cudaPitchedPtr p, cudaExtent e)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	int z = blockIdx.z * blockDim.z + threadIdx.z;
	if (x >= (int)(e.width / sizeof(int)) || y >= (int)e.height || z >= (int)e.depth) return;
	char *slice = (char *)p.ptr + z * p.pitch * e.height;
	int *row = (int *)(slice + y * p.pitch);
	row[x] += x + 10 * y + 100 * z;
}

static void test_2d()
{
	const int w = 37, h = 21;           /* odd sizes: rows do not fill the pitch */
	std::vector<float> host(w * h), back(w * h, -1.0f);
	for (int i = 0; i < w * h; i++) host[i] = 0.25f * i;
	float *din, *dout;
	size_t pin, pout;
	CHECK(cudaMallocPitch((void **)&din, &pin, w * sizeof(float), h));
	CHECK(cudaMallocPitch((void **)&dout, &pout, w * sizeof(float), h));
	EXPECT(pin >= w * sizeof(float) && pin % 128 == 0, "pitch %zu", pin);
	CHECK(cudaMemset2D(dout, pout, 0xff, w * sizeof(float), h));
	CHECK(cudaMemcpy2D(din, pin, host.data(), w * sizeof(float), w * sizeof(float), h,
	                   cudaMemcpyHostToDevice));
	dim3 block(16, 8), grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
	scale2d<<<grid, block>>>(din, pin, dout, pout, w, h);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy2D(back.data(), w * sizeof(float), dout, pout, w * sizeof(float), h,
	                   cudaMemcpyDeviceToHost));
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			float want = 2.0f * host[y * w + x] + y;
			EXPECT(back[y * w + x] == want, "2D (%d,%d) = %g, want %g", x, y,
			       back[y * w + x], want);
		}
	/* a 5x4 sub-rectangle at (3,2), device to device, then back with cudaMemcpyDefault */
	float *dsub;
	size_t psub;
	CHECK(cudaMallocPitch((void **)&dsub, &psub, 5 * sizeof(float), 4));
	CHECK(cudaMemcpy2D(dsub, psub, (char *)dout + 2 * pout + 3 * sizeof(float), pout,
	                   5 * sizeof(float), 4, cudaMemcpyDeviceToDevice));
	float sub[4][5];
	CHECK(cudaMemcpy2D(sub, sizeof sub[0], dsub, psub, sizeof sub[0], 4, cudaMemcpyDefault));
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 5; x++)
			EXPECT(sub[y][x] == back[(y + 2) * w + x + 3], "sub (%d,%d)", x, y);
	/* the padding bytes past each row keep cudaMemset2D's value: not touched */
	if (pout >= (w + 1) * sizeof(float)) {
		unsigned pad;
		CHECK(cudaMemcpy(&pad, (char *)dout + w * sizeof(float), 4, cudaMemcpyDeviceToHost));
		EXPECT(pad == 0u, "padding was written: %#x (cudaMemset2D sets width bytes only)",
		       pad);
	}
	EXPECT(cudaMemcpy2D(din, 4, host.data(), 8, 8, 2, cudaMemcpyHostToDevice) ==
	       cudaErrorInvalidPitchValue, "width > pitch accepted");
	(void)cudaGetLastError();
	CHECK(cudaFree(din));
	CHECK(cudaFree(dout));
	CHECK(cudaFree(dsub));
}

static void test_3d()
{
	const int nx = 9, ny = 5, nz = 4;
	cudaExtent ext = make_cudaExtent(nx * sizeof(int), ny, nz);
	cudaPitchedPtr dp;
	CHECK(cudaMalloc3D(&dp, ext));
	EXPECT(dp.pitch >= nx * sizeof(int) && dp.xsize == nx * sizeof(int) && dp.ysize == ny,
	       "pitched ptr pitch %zu xsize %zu ysize %zu", dp.pitch, dp.xsize, dp.ysize);
	CHECK(cudaMemset3D(dp, 0, ext));
	std::vector<int> host(nx * ny * nz), back(nx * ny * nz, -1);
	for (int i = 0; i < nx * ny * nz; i++) host[i] = 1000 * i;
	cudaMemcpy3DParms up = {};
	up.srcPtr = make_cudaPitchedPtr(host.data(), nx * sizeof(int), nx, ny);
	up.dstPtr = dp;
	up.extent = ext;
	up.kind = cudaMemcpyHostToDevice;
	CHECK(cudaMemcpy3D(&up));
	dim3 block(4, 4, 2), grid((nx + 3) / 4, (ny + 3) / 4, (nz + 1) / 2);
	add3d<<<grid, block>>>(dp, ext);
	CHECK(cudaGetLastError());
	cudaMemcpy3DParms down = {};
	down.srcPtr = dp;
	down.dstPtr = make_cudaPitchedPtr(back.data(), nx * sizeof(int), nx, ny);
	down.extent = ext;
	down.kind = cudaMemcpyDeviceToHost;
	CHECK(cudaMemcpy3D(&down));
	for (int z = 0; z < nz; z++)
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++) {
				int i = (z * ny + y) * nx + x, want = host[i] + x + 10 * y + 100 * z;
				EXPECT(back[i] == want, "3D (%d,%d,%d) = %d, want %d", x, y, z, back[i], want);
			}
	/* a 2x2x2 box at (1,1,1) of the volume, with srcPos/dstPos */
	int box[2][2][2];
	cudaMemcpy3DParms part = {};
	part.srcPtr = dp;
	part.srcPos = make_cudaPos(1 * sizeof(int), 1, 1);
	part.dstPtr = make_cudaPitchedPtr(box, 2 * sizeof(int), 2, 2);
	part.extent = make_cudaExtent(2 * sizeof(int), 2, 2);
	part.kind = cudaMemcpyDeviceToHost;
	CHECK(cudaMemcpy3D(&part));
	for (int z = 0; z < 2; z++)
		for (int y = 0; y < 2; y++)
			for (int x = 0; x < 2; x++)
				EXPECT(box[z][y][x] == back[((z + 1) * ny + y + 1) * nx + x + 1],
				       "box (%d,%d,%d)", x, y, z);
	CHECK(cudaFree(dp.ptr));
}

int main()
{
	test_2d();
	test_3d();
	std::printf("PASS\n");
	return 0;
}
