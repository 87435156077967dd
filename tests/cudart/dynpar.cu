/*
 * dynpar.cu -- dynamic parallelism (CDP2) at work, checked against the CPU:
 *   - a recursive quicksort: each segment's kernel partitions it and
 *     launches one child per side, down to a selection sort for small
 *     segments or deep levels (as CUDA's cdpSimpleQuicksort sample);
 *   - a chain of tail launches (cudaStreamTailLaunch): each step records
 *     its number and launches the next, which starts only after the work
 *     its parent launched afterwards into cudaStreamFireAndForget;
 *   - one grid of 3000 threads each launching a child through the explicit
 *     API (cudaGetParameterBufferV2, cudaLaunchDeviceV2): a launch either
 *     succeeds and its child writes, or fails with
 *     cudaErrorLaunchPendingCountExceeded and nothing is written;
 *   - a kernel launching itself ever deeper until the launch fails with
 *     cudaErrorLaunchMaxDepthExceeded.
 * It prints how many of the 3000 launches went through, under the default
 * limit and under cudaLimitDevRuntimePendingLaunchCount = 100, and the
 * deepest level (rfsim: 2048, 100, 24; a GPU may drain launches as they come).
 */
#include <cstdio>
#include <cstdlib>

#include "check.h"

enum { N = 1024, SELECT = 16, MAX_SORT_DEPTH = 12, NTAIL = 10, NMANY = 3000, DEEPEST = 40 };

__device__ void selection_sort(int *a, int lo, int hi)
{
	for (int i = lo; i <= hi; i++) {
		int m = i;
		for (int j = i + 1; j <= hi; j++)
			if (a[j] < a[m]) m = j;
		int t = a[i]; a[i] = a[m]; a[m] = t;
	}
}

__global__ void quicksort(int *a, int lo, int hi, int depth)
{
	if (hi - lo < SELECT || depth >= MAX_SORT_DEPTH) {
		selection_sort(a, lo, hi);
		return;
	}
	int pivot = a[(lo + hi) / 2], l = lo, r = hi;
	while (l <= r) {
		while (a[l] < pivot) l++;
		while (a[r] > pivot) r--;
		if (l <= r) {
			int t = a[l]; a[l] = a[r]; a[r] = t;
			l++, r--;
		}
	}
	if (lo < r) quicksort<<<1, 1, 0, cudaStreamFireAndForget>>>(a, lo, r, depth + 1);
	if (l < hi) quicksort<<<1, 1>>>(a, l, hi, depth + 1);
}

__global__ void set_flag(int *flag)
{
	*flag = 1;
}

/* count[0] steps so far, count[1] the flag: step 0 tail-launches step 1 before
 * it launches set_flag, yet step 1 must see the flag set */
__global__ void tail_step(int *log, int *count, int step)
{
	log[count[0]] = step + 100 * count[1];
	count[0] += 1;
	if (step + 1 < NTAIL) tail_step<<<1, 1, 0, cudaStreamTailLaunch>>>(log, count, step + 1);
	if (step == 0) set_flag<<<1, 1, 0, cudaStreamFireAndForget>>>(count + 1);
}

__global__ void one(int *out, int i)
{
	out[i] = i + 1;
}

__global__ void many(int *out, int *err)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= NMANY) return;
	void *buf = cudaGetParameterBufferV2((void *)one, dim3(1), dim3(1), 0);
	if (!buf) {
		err[i] = -1;
		return;
	}
	*(int **)buf = out;
	*(int *)((char *)buf + 8) = i;
	err[i] = (int)cudaLaunchDeviceV2(buf, 0);
}

__global__ void deep(int *ran, int *err, int level)
{
	ran[level] = 1;
	if (level + 1 >= DEEPEST) return;
	void *buf = cudaGetParameterBufferV2((void *)deep, dim3(1), dim3(1), 0);
	if (!buf) {
		err[level] = -1;
		return;
	}
	((int **)buf)[0] = ran;
	((int **)buf)[1] = err;
	*(int *)((char *)buf + 16) = level + 1;
	err[level] = (int)cudaLaunchDeviceV2(buf, cudaStreamTailLaunch);
}

static int cmp(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;
	return (a > b) - (a < b);
}

static void check_sort(void)
{
	static int h[N], ref[N];
	srand(7);
	for (int i = 0; i < N; i++) h[i] = ref[i] = rand() % 5000;
	qsort(ref, N, sizeof *ref, cmp);
	int *d;
	CHECK(cudaMalloc(&d, sizeof h));
	CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
	quicksort<<<1, 1>>>(d, 0, N - 1, 0);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	for (int i = 0; i < N; i++) EXPECT(h[i] == ref[i], "sorted[%d] = %d, not %d", i, h[i], ref[i]);
	CHECK(cudaFree(d));
}

static void check_tail(void)
{
	int *d, h[NTAIL + 2];
	CHECK(cudaMalloc(&d, sizeof h));
	CHECK(cudaMemset(d, 0, sizeof h));
	tail_step<<<1, 1>>>(d + 2, d, 0);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	EXPECT(h[0] == NTAIL && h[1] == 1, "%d tail steps ran, flag %d", h[0], h[1]);
	for (int i = 0; i < NTAIL; i++)
		EXPECT(h[2 + i] == i + (i ? 100 : 0), "step %d logged %d", i, h[2 + i]);
	CHECK(cudaFree(d));
}

static void check_many(size_t limit)
{
	static int out[NMANY], err[NMANY];
	int *d;
	CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, limit));
	size_t got = 0;
	CHECK(cudaDeviceGetLimit(&got, cudaLimitDevRuntimePendingLaunchCount));
	EXPECT(got == limit, "pending launch limit %zu, not %zu", got, limit);
	CHECK(cudaMalloc(&d, 2 * sizeof out));
	CHECK(cudaMemset(d, 0, 2 * sizeof out));
	many<<<(NMANY + 255) / 256, 256>>>(d, d + NMANY);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(err, d + NMANY, sizeof err, cudaMemcpyDeviceToHost));
	int ok = 0;
	for (int i = 0; i < NMANY; i++) {
		EXPECT(err[i] == cudaSuccess || err[i] == cudaErrorLaunchPendingCountExceeded,
		       "launch %d returned %d", i, err[i]);
		EXPECT(out[i] == (err[i] == cudaSuccess ? i + 1 : 0), "out[%d] = %d after %d", i,
		       out[i], err[i]);
		ok += err[i] == cudaSuccess;
	}
	std::printf("launched %d of %d (limit %zu)\n", ok, NMANY, limit);
	CHECK(cudaFree(d));
}

static void check_deep(void)
{
	int ran[DEEPEST], err[DEEPEST], *d;
	CHECK(cudaMalloc(&d, sizeof ran + sizeof err));
	CHECK(cudaMemset(d, 0, sizeof ran + sizeof err));
	deep<<<1, 1>>>(d, d + DEEPEST, 0);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(ran, d, sizeof ran, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(err, d + DEEPEST, sizeof err, cudaMemcpyDeviceToHost));
	int last = 0;
	while (last + 1 < DEEPEST && ran[last + 1]) last++;
	for (int i = 0; i < last; i++) EXPECT(err[i] == cudaSuccess, "level %d: %d", i, err[i]);
	EXPECT(last + 1 < DEEPEST && err[last] == cudaErrorLaunchMaxDepthExceeded,
	       "the launch from level %d returned %d", last, err[last]);
	for (int i = last + 1; i < DEEPEST; i++) EXPECT(!ran[i], "level %d ran", i);
	std::printf("depth %d\n", last);
	CHECK(cudaFree(d));
}

int main()
{
	check_sort();
	check_tail();
	check_many(2048);
	check_many(100);
	check_deep();
	std::printf("PASS\n");
	return 0;
}
