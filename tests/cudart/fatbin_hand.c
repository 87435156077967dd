/*
 * fatbin_hand.c -- the registration path of libcudart without nvcc: this
 * program builds nvcc-style fatbins by hand around a PTX file and
 * registers them the way nvcc's start-up code does, then launches their
 * kernel through cudaLaunchKernel.  So the fatbin reader (plain, zstd and
 * LZ4 entries, the choice among several PTX entries, the refusal of
 * machine code only) is tested on machines without the CUDA toolkit, CI's
 * among them.  Built by tests/test_cudart.py against build/libcudart.so.13
 * and the system's libzstd and liblz4:
 *
 *   fatbin_hand SAXPY.ptx   -> "PASS" and exit 0
 *
 * The PTX must define saxpy(int n, float a, const float *x, float *y),
 * y = a*x + y (workloads/saxpy/saxpy.ptx).
 */
#include "fatbin_build.h"

/* y = 2x + y through the kernel registered under stub; 0 if right */
static cudaError_t run_saxpy(const void *stub)
{
	enum { N = 1000 };
	float x[N], y[N], *dx, *dy, a = 2.0f;
	int n = N;
	for (int i = 0; i < N; i++) x[i] = (float)i, y[i] = 1.0f;
	CHECK(cudaMalloc((void **)&dx, sizeof x));
	CHECK(cudaMalloc((void **)&dy, sizeof y));
	CHECK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice));
	void *args[] = {&n, &a, &dx, &dy};
	cudaError_t e = cudaLaunchKernel(stub, (dim3){4, 1, 1}, (dim3){128, 1, 1}, args, 0, NULL);
	if (!e) {
		CHECK(cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost));
		for (int i = 0; i < N; i++)
			if (y[i] != 2.0f * i + 1.0f) {
				fprintf(stderr, "y[%d] = %g, want %g\n", i, y[i], 2.0f * i + 1.0f);
				exit(1);
			}
	}
	CHECK(cudaFree(dx));
	CHECK(cudaFree(dy));
	return e;
}

int main(int argc, char **argv)
{
	static const char stubs[6] = {0};   /* six distinct "host stub" addresses */
	static const char bad[] = ".version 9.0\n.target sm_90\nthis is not PTX\n";
	static const char elf[] = "\177ELF machine code nobody can simulate";
	if (argc != 2) return fprintf(stderr, "usage: fatbin_hand SAXPY.ptx\n"), 2;
	size_t n;
	char *ptx = slurp(argv[1], &n);
	Fatbin f[6];
	for (int how = PLAIN; how <= LZ4; how++) {   /* one PTX entry, stored three ways */
		container_begin(&f[how]);
		entry(&f[how], 2, 80, elf, sizeof elf, ZSTD);
		entry(&f[how], 1, 80, ptx, n + 1, how);
		container_register(&f[how], &stubs[how], "saxpy");
	}
	container_begin(&f[3]);                     /* compute_70 fits the device; 90 does not */
	entry(&f[3], 1, 90, bad, sizeof bad, ZSTD);
	entry(&f[3], 1, 70, ptx, n + 1, ZSTD);
	container_register(&f[3], &stubs[3], "saxpy");
	container_begin(&f[4]);                     /* only newer PTX: taken all the same */
	entry(&f[4], 1, 120, ptx, n + 1, LZ4);
	container_register(&f[4], &stubs[4], "saxpy");
	container_begin(&f[5]);                     /* machine code only */
	entry(&f[5], 2, 90, elf, sizeof elf, PLAIN);
	container_register(&f[5], &stubs[5], "saxpy");

	for (int i = 0; i < 5; i++) CHECK(run_saxpy(&stubs[i]));
	cudaError_t e = run_saxpy(&stubs[5]);
	if (e != cudaErrorNoKernelImageForDevice) {
		fprintf(stderr, "SASS-only fatbin: %s\n", cudaGetErrorName(e));
		return 1;
	}
	printf("PASS\n");
	return 0;
}
