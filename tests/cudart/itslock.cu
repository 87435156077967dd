/*
 * itslock.cu -- code that needs independent thread scheduling (sm_70 and
 * later): the kernels of itslock_kernels.cuh, in which lanes of one warp wait
 * in a loop for other lanes of the same warp.  On a pre-Volta SIMT stack each
 * of them hangs; on a GPU since Volta, and on rfsim, each finishes with the
 * result the CPU computes.
 */
#include "check.h"
#include "itslock_kernels.cuh"

static void histogram_case(int which)
{
	const int n = which == 2 ? 600 : 3000, nb = which == 0 ? 5 : 3;
	int *h = (int *)malloc(n * sizeof(int)), ref[8] = {0}, out[8];
	for (int i = 0; i < n; i++) {
		h[i] = (int)((i * 2654435761u) >> 9) & 0xffff;
		ref[h[i] % nb] += which == 0 ? h[i] : 1;
	}
	int *din, *dl, *db, *dt;
	CHECK(cudaMalloc(&din, n * 4));
	CHECK(cudaMalloc(&dl, nb * 4));
	CHECK(cudaMalloc(&db, nb * 4));
	CHECK(cudaMalloc(&dt, n * 4));
	CHECK(cudaMemcpy(din, h, n * 4, cudaMemcpyHostToDevice));
	CHECK(cudaMemset(dl, 0, nb * 4));
	CHECK(cudaMemset(db, 0, nb * 4));
	if (which == 0) hist_lock<<<(n + 95) / 96, 96>>>(din, n, dl, db, nb);
	if (which == 1) hist_sleep<<<(n + 127) / 128, 128>>>(din, n, dl, db, nb);
	if (which == 2) hist_count<<<(n + 63) / 64, 64>>>(din, n, dl, db, nb, dt);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(out, db, nb * 4, cudaMemcpyDeviceToHost));
	for (int b = 0; b < nb; b++)
		EXPECT(out[b] == ref[b], "kernel %d bin %d: %d, expected %d", which, b, out[b], ref[b]);
	int locks[8];
	CHECK(cudaMemcpy(locks, dl, nb * 4, cudaMemcpyDeviceToHost));
	for (int b = 0; b < nb; b++) EXPECT(locks[b] == 0, "kernel %d lock %d left held", which, b);
	if (which == 2) {
		int *t = (int *)malloc(n * 4), waited = 0;
		CHECK(cudaMemcpy(t, dt, n * 4, cudaMemcpyDeviceToHost));
		for (int i = 0; i < n; i++) {
			EXPECT(t[i] >= 0, "thread %d counted %d tries", i, t[i]);
			waited += t[i] > 0;
		}
		EXPECT(waited > 0, "no thread ever waited for a lock");
		free(t);
	}
	CHECK(cudaFree(din));
	CHECK(cudaFree(dl));
	CHECK(cudaFree(db));
	CHECK(cudaFree(dt));
	free(h);
}

int main()
{
	for (int k = 0; k < 3; k++) histogram_case(k);

	const int warps = 8;
	int *flag, *data, *out;
	CHECK(cudaMalloc(&flag, warps * 4));
	CHECK(cudaMalloc(&data, warps * 4));
	CHECK(cudaMalloc(&out, warps * 32 * 4));
	CHECK(cudaMemset(flag, 0, warps * 4));
	CHECK(cudaMemset(out, 0xff, warps * 32 * 4));
	handoff<<<2, 128>>>(flag, data, out);
	CHECK(cudaDeviceSynchronize());
	int h[warps * 32];
	CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
	for (int w = 0; w < warps; w++)
		for (int l = 2; l < 32; l++)
			EXPECT(h[w * 32 + l] == (w + 100) * 2 + l, "handoff warp %d lane %d: %d", w, l,
			       h[w * 32 + l]);

	int *turn, *order;
	CHECK(cudaMalloc(&turn, (32 * 1024 + warps) * 4));
	CHECK(cudaMalloc(&order, warps * 32 * 4));
	CHECK(cudaMemset(turn, 0, (32 * 1024 + warps) * 4));
	ring<<<2, 128>>>(turn, order);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(h, order, sizeof h, cudaMemcpyDeviceToHost));
	for (int w = 0; w < warps; w++)
		for (int l = 0; l < 32; l++)
			EXPECT(h[w * 32 + l] == l, "ring warp %d: lane %d went %dth", w, l, h[w * 32 + l]);
	sem_sum<<<warps, 96>>>(out);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(h, out, warps * 4, cudaMemcpyDeviceToHost));
	for (int b = 0; b < warps; b++)
		EXPECT(h[b] == 95 * 96 / 2, "sem_sum block %d: %d", b, h[b]);
	printf("PASS\n");
	return 0;
}
