// cudaLimitMallocHeapSize sizes the device-side malloc heap: with the
// default 8 MiB a 12 MiB malloc in a kernel returns NULL; after
// cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 MiB) it succeeds, and
// cudaDeviceGetLimit reads the value back.  cudaDeviceReset restores the
// default.
#include <cstdio>
#include "check.h"

__global__ void grab(size_t bytes, int *ok)
{
	char *p = (char *)malloc(bytes);
	*ok = p != NULL;
	if (p) {
		p[0] = 1, p[bytes - 1] = 2;
		*ok = p[0] + p[bytes - 1] == 3;
		free(p);
	}
}

static int try_grab(size_t bytes)
{
	int *d, ok = -1;
	CHECK(cudaMalloc(&d, sizeof *d));
	grab<<<1, 1>>>(bytes, d);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(&ok, d, sizeof ok, cudaMemcpyDeviceToHost));
	CHECK(cudaFree(d));
	return ok;
}

int main()
{
	size_t v = 0;
	CHECK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
	EXPECT(v == (size_t)8 << 20, "default heap %zu bytes", v);
	EXPECT(try_grab((size_t)12 << 20) == 0, "12 MiB from the default 8 MiB heap");
	CHECK(cudaDeviceReset());
	CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)32 << 20));
	CHECK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
	EXPECT(v == (size_t)32 << 20, "heap limit reads back %zu", v);
	EXPECT(try_grab((size_t)12 << 20) == 1, "12 MiB from a 32 MiB heap");
	CHECK(cudaDeviceReset());
	CHECK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
	EXPECT(v == (size_t)8 << 20, "reset restores the default, read %zu", v);
	EXPECT(cudaDeviceSetLimit((cudaLimit)99, 1) == cudaErrorUnsupportedLimit, "bad limit");
	cudaGetLastError();
	std::printf("PASS\n");
	return 0;
}
