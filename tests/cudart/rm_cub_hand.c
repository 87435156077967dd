/*
 * rm_cub_hand.c -- CUB's DeviceReduceSingleTileKernel as thrust::count_if
 * instantiates it (tests/ptx/rm_cub_reduce.ptx: IsOdd over int, summed as
 * long), launched from C through libcudart without the CUDA toolkit, as
 * fatbin_hand.c launches saxpy.  The kernel takes its input iterator by
 * value (a 16-byte .b8 parameter, the pointer first), which `rfsim run
 * FILE.ptx -a ...` cannot pass.  The RegMutex pass once stopped on this
 * kernel with an internal error (rm_plan.c); whatever it does to it, the
 * kernel must count what it counts untransformed.
 *
 *   rm_cub_hand RM_CUB_REDUCE.ptx   -> "PASS" and exit 0
 *
 * One CTA of 256 threads (its .maxntid) reduces n items, its tile being
 * 256 x 8: n = 0 (the init value alone), a short tile, exactly one tile,
 * and several tiles with a remainder, each through its own code path.
 */
#include "fatbin_build.h"

#define KERNEL "_ZN3cub17CUB_300001_SM_8006detail6reduce28DeviceReduceSingleTileKernel" \
	"INS2_10policy_hubIljN4cuda3std3__44plusIlEEE10Policy1000EN6thrust23THRUST_300001_" \
	"SM_800_NS18transform_iteratorI5IsOddNSD_6detail15normal_iteratorINSD_10device_ptr" \
	"IiEEEEllEEPljS9_llNS7_10__identityEEEvT0_T1_T2_T3_T4_T6_"

static const char stub;      /* the kernel's "host stub" */

/* init + the odd items among x[0..n), by the kernel */
static long long count_odd(const int *dx, unsigned n, long long init)
{
	struct { const int *p; char is_odd; } in = {dx, 0};   /* transform_iterator */
	char plus = 0, identity = 0;
	long long *dout, out = -1;
	CHECK(cudaMalloc((void **)&dout, sizeof out));
	CHECK(cudaMemcpy(dout, &out, sizeof out, cudaMemcpyHostToDevice));
	void *args[] = {&in, &dout, &n, &plus, &init, &identity};
	CHECK(cudaLaunchKernel(&stub, (dim3){1, 1, 1}, (dim3){256, 1, 1}, args, 0, NULL));
	CHECK(cudaMemcpy(&out, dout, sizeof out, cudaMemcpyDeviceToHost));
	CHECK(cudaFree(dout));
	return out;
}

int main(int argc, char **argv)
{
	enum { N = 5000 };
	static const unsigned sizes[] = {0, 1000, 2048, N};
	static int x[N];
	if (argc != 2) return fprintf(stderr, "usage: rm_cub_hand RM_CUB_REDUCE.ptx\n"), 2;
	size_t len;
	char *ptx = slurp(argv[1], &len);
	Fatbin f;
	container_begin(&f);
	entry(&f, 1, 80, ptx, len + 1, PLAIN);
	container_register(&f, &stub, KERNEL);
	for (int i = 0; i < N; i++) x[i] = (int)((i * 2654435761u) % 10007u) - 5000;
	int *dx;
	CHECK(cudaMalloc((void **)&dx, sizeof x));
	CHECK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		long long want = 7;
		for (unsigned i = 0; i < sizes[k]; i++) want += x[i] & 1;
		long long got = count_odd(dx, sizes[k], 7);
		if (got != want) {
			fprintf(stderr, "n = %u: %lld, want %lld\n", sizes[k], got, want);
			return 1;
		}
		printf("n = %u: %lld\n", sizes[k], got);
	}
	CHECK(cudaFree(dx));
	free(ptx);
	free(f.bytes);
	printf("PASS\n");
	return 0;
}
