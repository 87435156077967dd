#include <cstdio>
#include <vector>
#include <cstdint>
#include "check.h"
__global__ void fill(int *p, int n, int v) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = v + i; }
__global__ void add(const int *a, int *b, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) b[i] += a[i]; }
static int calls = 0;
static void CUDART_CB host_fn(void *p) { calls += *(int *)p; }
int main()
{
	int lo, hi;
	CHECK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
	cudaStream_t s1, s2;
	CHECK(cudaStreamCreateWithPriority(&s1, cudaStreamNonBlocking, hi));
	CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
	cudaMemPool_t pool;
	CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
	uint64_t thr = UINT64_MAX;
	CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
	const int n = 3000;
	int *a, *b, *h;
	CHECK(cudaMallocHost(&h, n * 4));
	cudaEvent_t e0, e1, ev;
	CHECK(cudaEventCreate(&e0)); CHECK(cudaEventCreate(&e1)); CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
	CHECK(cudaEventRecord(e0, s1));
	for (int it = 0; it < 3; it++) {
		CHECK(cudaMallocAsync(&a, n * 4, s1));
		CHECK(cudaMallocFromPoolAsync(&b, n * 4, pool, s2));
		fill<<<(n + 255) / 256, 256, 0, s1>>>(a, n, 10 * it);
		fill<<<(n + 255) / 256, 256, 0, s2>>>(b, n, 1);
		CHECK(cudaEventRecord(ev, s2));
		CHECK(cudaStreamWaitEvent(s1, ev, 0));
		add<<<(n + 255) / 256, 256, 0, s1>>>(a, b, n);
		CHECK(cudaMemcpyAsync(h, b, n * 4, cudaMemcpyDeviceToHost, s1));
		static int inc = 1;
		CHECK(cudaLaunchHostFunc(s1, host_fn, &inc));
		CHECK(cudaFreeAsync(a, s1));
		CHECK(cudaFreeAsync(b, s1));
		CHECK(cudaStreamSynchronize(s1));
		for (int i = 0; i < n; i++) EXPECT(h[i] == 10 * it + i + 1 + i, "it %d i %d: %d", it, i, h[i]);
	}
	CHECK(cudaEventRecord(e1, s1));
	CHECK(cudaEventSynchronize(e1));
	float ms = -1;
	CHECK(cudaEventElapsedTime(&ms, e0, e1));
	EXPECT(ms >= 0, "elapsed %f", ms);
	EXPECT(calls == 3, "host fn calls %d", calls);
	EXPECT(cudaStreamQuery(s1) == cudaSuccess, "query");
	size_t used = 1;
	CHECK(cudaMemPoolTrimTo(pool, 0));
	CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
	EXPECT(used == 0, "used %zu", used);
	// the default pool kept what was freed (threshold: everything) until trimmed
	uint64_t res = 0;
	CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &res));
	EXPECT(res == 0, "reserved after trim %llu", (unsigned long long)res);
	uint64_t uhi = 0;
	CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &uhi));
	EXPECT(uhi >= 2 * n * 4, "used high %llu", (unsigned long long)uhi);
	uint64_t zero = 0;
	CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
	CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &uhi));
	EXPECT(uhi == 0, "used high after reset %llu", (unsigned long long)uhi);
	EXPECT(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero) == cudaErrorInvalidValue, "set used");
	cudaGetLastError();

	// a pool of its own, made the device's current pool, with a release threshold
	cudaMemPoolProps props = {};
	props.allocType = cudaMemAllocationTypePinned;
	props.location.type = cudaMemLocationTypeDevice;
	props.location.id = 0;
	cudaMemPool_t mine;
	CHECK(cudaMemPoolCreate(&mine, &props));
	cudaMemAccessDesc acc = {};
	acc.location = props.location; acc.flags = cudaMemAccessFlagsProtReadWrite;
	CHECK(cudaMemPoolSetAccess(mine, &acc, 1));
	cudaMemAccessFlags fl;
	cudaMemLocation loc = props.location;
	CHECK(cudaMemPoolGetAccess(&fl, mine, &loc));
	EXPECT(fl == cudaMemAccessFlagsProtReadWrite, "access %d", (int)fl);
	uint64_t keep = 1 << 20;
	CHECK(cudaMemPoolSetAttribute(mine, cudaMemPoolAttrReleaseThreshold, &keep));
	int opp = -1;
	CHECK(cudaMemPoolGetAttribute(mine, cudaMemPoolReuseAllowOpportunistic, &opp));
	EXPECT(opp == 1, "opportunistic %d", opp);
	CHECK(cudaDeviceSetMemPool(0, mine));
	cudaMemPool_t cur;
	CHECK(cudaDeviceGetMemPool(&cur, 0));
	EXPECT(cur == mine, "current pool");
	int *c, *d;
	CHECK(cudaMallocAsync(&c, 4000, s2));                      // from the current pool
	CHECK(cudaMallocAsync(&d, 8000, mine, s2));                // the C++ overload
	fill<<<16, 256, 0, s2>>>(c, 1000, 5);
	fill<<<16, 256, 0, s2>>>(d, 2000, 7);
	add<<<4, 256, 0, s2>>>(c, d, 1000);
	CHECK(cudaMemcpyAsync(h, d, 8000, cudaMemcpyDeviceToHost, s2));
	CHECK(cudaStreamSynchronize(s2));
	for (int i = 0; i < 2000; i++) EXPECT(h[i] == 7 + i + (i < 1000 ? 5 + i : 0), "pool %d: %d", i, h[i]);
	CHECK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used));
	EXPECT(used >= 12000, "used in mine %llu", (unsigned long long)used);
	CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
	EXPECT(used == 0, "default pool used %llu", (unsigned long long)used);
	CHECK(cudaFreeAsync(c, s2));
	CHECK(cudaFree(d));                                        // cudaFree works on pool memory too
	CHECK(cudaStreamSynchronize(s2));
	CHECK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used));
	CHECK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrReservedMemCurrent, &res));
	EXPECT(used == 0 && res > 0 && res <= (1 << 20) + 4096, "kept under the threshold: used %llu reserved %llu",
	       (unsigned long long)used, (unsigned long long)res);
	CHECK(cudaMemPoolTrimTo(mine, 0));
	CHECK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrReservedMemCurrent, &res));
	EXPECT(res == 0, "trimmed %llu", (unsigned long long)res);
	CHECK(cudaMemPoolDestroy(mine));
	CHECK(cudaDeviceGetMemPool(&cur, 0));
	EXPECT(cur == pool, "current pool after destroy");
	EXPECT(cudaMemPoolDestroy(pool) == cudaErrorInvalidValue, "destroying the default pool");
	cudaGetLastError();
	CHECK(cudaStreamDestroy(s1)); CHECK(cudaStreamDestroy(s2));
	std::printf("PASS\n");
	return 0;
}
