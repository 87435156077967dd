/*
 * dynpar_hand.c -- dynamic parallelism without nvcc: a hand-written
 * relocatable unit, registered as nvcc's link stub registers a device link
 * (see rdc_hand.c), whose kernel launches another through the two calls
 * nvcc emits for <<<>>> in device code (__cudaCDP2GetParameterBufferV2,
 * __cudaCDP2LaunchDeviceV2), so the device runtime's launch path is tested
 * on machines without the toolkit.
 *
 *   dynpar_hand   -> "PASS" and exit 0
 *
 * parent<<<1,4>>>: thread t launches child<<<1,32>>>(out + 32 t, 100 t) on
 * streams[t] and stores the launch's cudaError_t in err[t].  With the NULL
 * stream, cudaStreamTailLaunch and cudaStreamFireAndForget every child
 * runs; a unit calling device-side cudaDeviceSynchronize (removed in CUDA
 * 12) is refused at load; a launch into any other stream stops the parent
 * with a report naming the feature (a sticky error, so it comes last).
 */
#include "fatbin_build.h"

#define HEAD ".version 9.0\n.target sm_80\n.address_size 64\n"

static const char unit[] = HEAD
	".extern .func (.param .b64 r) __cudaCDP2GetParameterBufferV2(.param .b64 f, "
	".param .align 4 .b8 g[12], .param .align 4 .b8 b[12], .param .b32 s);\n"
	".extern .func (.param .b32 r) __cudaCDP2LaunchDeviceV2(.param .b64 buf, .param .b64 st);\n"
	".visible .entry child(.param .u64 out, .param .u32 base)\n{\n"
	".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [base];\ncvta.to.global.u64 %rd2, %rd1;\n"
	"mov.u32 %r2, %tid.x;\nadd.s32 %r3, %r2, %r1;\nmul.wide.u32 %rd3, %r2, 4;\n"
	"add.s64 %rd3, %rd2, %rd3;\nst.global.u32 [%rd3], %r3;\nret;\n}\n"
	".visible .entry parent(.param .u64 out, .param .u64 err, .param .u64 streams)\n{\n"
	".reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<12>;\n"
	"ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [err];\nld.param.u64 %rd9, [streams];\n"
	"mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 128;\nadd.s64 %rd4, %rd1, %rd3;\n"
	"mul.lo.u32 %r2, %r1, 100;\nmul.wide.u32 %rd10, %r1, 8;\n"
	"cvta.to.global.u64 %rd11, %rd9;\nadd.s64 %rd11, %rd11, %rd10;\nld.global.u64 %rd7, [%rd11];\n"
	"mov.u64 %rd5, child;\n"
	"{\n.param .b64 p0;\n.param .align 4 .b8 p1[12];\n.param .align 4 .b8 p2[12];\n"
	".param .b32 p3;\n.param .b64 r0;\nst.param.b64 [p0], %rd5;\n"
	"st.param.b32 [p1], 1;\nst.param.b32 [p1+4], 1;\nst.param.b32 [p1+8], 1;\n"
	"st.param.b32 [p2], 32;\nst.param.b32 [p2+4], 1;\nst.param.b32 [p2+8], 1;\n"
	"st.param.b32 [p3], 0;\n"
	"call.uni (r0), __cudaCDP2GetParameterBufferV2, (p0, p1, p2, p3);\n"
	"ld.param.b64 %rd6, [r0];\n}\n"
	"mov.u32 %r4, -1;\nsetp.eq.s64 %p1, %rd6, 0;\n@%p1 bra DONE;\n"
	"st.u64 [%rd6], %rd4;\nst.u32 [%rd6+8], %r2;\n"
	"{\n.param .b64 q0;\n.param .b64 q1;\n.param .b32 s0;\n"
	"st.param.b64 [q0], %rd6;\nst.param.b64 [q1], %rd7;\n"
	"call.uni (s0), __cudaCDP2LaunchDeviceV2, (q0, q1);\nld.param.b32 %r4, [s0];\n}\n"
	"DONE:\ncvta.to.global.u64 %rd8, %rd2;\nmul.wide.u32 %rd3, %r1, 4;\n"
	"add.s64 %rd8, %rd8, %rd3;\nst.global.u32 [%rd8], %r4;\nret;\n}\n";

static const char unit_sync[] = HEAD
	".extern .func (.param .b32 r) cudaDeviceSynchronize();\n"
	".visible .entry parent(.param .u64 out, .param .u64 err, .param .u64 streams)\n{\n"
	".reg .b32 %r<2>;\n{\n.param .b32 r0;\ncall.uni (r0), cudaDeviceSynchronize, ();\n"
	"ld.param.b32 %r1, [r0];\n}\nret;\n}\n";

typedef struct Link {            /* one device link of one unit, and its own wrapper */
	Fatbin unit, image;
	const void *list[2];
} Link;

static void link_register(Link *l, const char *ptx, const void *stub)
{
	container_begin(&l->unit);
	entry(&l->unit, 1, 80, ptx, strlen(ptx) + 1, ZSTD);
	uint64_t len = l->unit.len - 16;
	memcpy(l->unit.bytes + 8, &len, 8);
	l->list[0] = l->unit.bytes;
	l->list[1] = NULL;
	container_begin(&l->image);
	l->image.wrapper.magic = 0x466243b1;
	l->image.wrapper.version = 2;
	l->image.wrapper.data = l->image.bytes;
	l->image.wrapper.unused = l->list;
	void **h = __cudaRegisterFatBinary(&l->image.wrapper);
	__cudaRegisterFunction(h, stub, "parent", "parent", -1, NULL, NULL, NULL, NULL, NULL);
	__cudaRegisterFatBinaryEnd(h);
}

/* parent<<<1,4>>> with these streams; out[128] and err[4] come back */
static cudaError_t launch(const void *stub, const uint64_t streams[4], unsigned *out, int *err)
{
	unsigned *d;
	CHECK(cudaMalloc((void **)&d, 128 * 4 + 4 * 4 + 4 * 8));
	CHECK(cudaMemset(d, 0, 128 * 4 + 4 * 4));
	int *e = (int *)(d + 128);
	uint64_t *s = (uint64_t *)(d + 132);
	CHECK(cudaMemcpy(s, streams, 4 * 8, cudaMemcpyHostToDevice));
	void *args[] = {&d, &e, &s};
	cudaError_t r = cudaLaunchKernel(stub, (dim3){1, 1, 1}, (dim3){4, 1, 1}, args, 0, NULL);
	if (r) return r;
	CHECK(cudaMemcpy(out, d, 128 * 4, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(err, e, 4 * 4, cudaMemcpyDeviceToHost));
	CHECK(cudaFree(d));
	return r;
}

int main(void)
{
	static const char stubs[2] = {0};
	static Link l[2];
	link_register(&l[0], unit, &stubs[0]);
	link_register(&l[1], unit_sync, &stubs[1]);

	const uint64_t good[4] = {0, 0, 3, 4}, bad[4] = {0, 0, 0, 5};
	unsigned out[128];
	int err[4];
	CHECK(launch(&stubs[0], good, out, err));
	for (unsigned t = 0; t < 4; t++) {
		if (err[t]) return fprintf(stderr, "launch %u returned %d\n", t, err[t]), 1;
		for (unsigned i = 0; i < 32; i++)
			if (out[32 * t + i] != 100 * t + i)
				return fprintf(stderr, "out[%u] = %u\n", 32 * t + i, out[32 * t + i]), 1;
	}
	cudaError_t e1 = launch(&stubs[1], good, out, err), e2 = launch(&stubs[0], bad, out, err);
	if (e1 != cudaErrorInvalidPtx || e2 != cudaErrorLaunchFailure)
		return fprintf(stderr, "refusals: %s, %s\n", cudaGetErrorName(e1),
		               cudaGetErrorName(e2)), 1;
	printf("PASS\n");
	return 0;
}
