/*
 * rdc_hand.c -- relocatable device code without nvcc: device links built by
 * hand the way nvcc's link stub (crt/link.stub) registers them -- one
 * version-2 wrapper whose fourth field lists the units' fatbin containers,
 * then every unit's kernels and variables under its one handle -- so the
 * rdc path of the fatbin reader and the linker's load-time errors are
 * tested on machines without the toolkit.
 *
 *   rdc_hand   -> "PASS" and exit 0
 *
 * Link 1 joins units a and b: a's kernel calls b's function and counts in
 * b's variable.  Link 2 has unit a alone (an unresolved extern), link 3 a
 * unit with link-time-optimization IR only (nvcc -dlto): their kernels
 * fail to launch, with the reasons on stderr.
 */
#include "fatbin_build.h"

#define HEAD ".version 9.0\n.target sm_80\n.address_size 64\n"

static const char unit_a[] = HEAD
	".extern .func (.param .b32 r) twice(.param .b32 x);\n"
	".extern .global .align 4 .u32 counter;\n"
	".visible .entry ka(.param .u64 out)\n{\n"
	".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n"
	"{\n.param .b32 p0;\n.param .b32 r0;\nst.param.b32 [p0], %r1;\n"
	"call.uni (r0), twice, (p0);\nld.param.b32 %r2, [r0];\n}\n"
	"mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd3, %rd2, %rd3;\nst.global.u32 [%rd3], %r2;\n"
	"atom.global.add.u32 %r3, [counter], 1;\nret;\n}\n";

static const char unit_b[] = HEAD
	".visible .global .align 4 .u32 counter = 5;\n"
	".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
	"ld.param.b32 %r1, [x];\nadd.s32 %r2, %r1, %r1;\nst.param.b32 [r], %r2;\nret;\n}\n";

typedef struct Link {            /* one device link: its units and its own wrapper */
	Fatbin unit[2];
	Fatbin image;                /* nvlink's output: empty for PTX-only builds */
	const void *list[3];         /* the units' containers, NULL-terminated */
} Link;

static void unit_ptx(Fatbin *f, const char *ptx)
{
	container_begin(f);
	entry(f, 1, 80, ptx, strlen(ptx) + 1, ZSTD);
}

/* register link l (n units) with kernel ka under stub and, if var, counter */
static void **link_register(Link *l, int n, const void *stub, const void *var)
{
	for (int i = 0; i < n; i++) {
		uint64_t len = l->unit[i].len - 16;
		memcpy(l->unit[i].bytes + 8, &len, 8);
		l->list[i] = l->unit[i].bytes;
	}
	l->list[n] = NULL;
	container_begin(&l->image);
	l->image.wrapper.magic = 0x466243b1;
	l->image.wrapper.version = 2;
	l->image.wrapper.data = l->image.bytes;
	l->image.wrapper.unused = l->list;
	void **h = __cudaRegisterFatBinary(&l->image.wrapper);
	__cudaRegisterFunction(h, stub, "ka", "ka", -1, NULL, NULL, NULL, NULL, NULL);
	if (var) __cudaRegisterVar(h, (char *)var, "counter", "counter", 0, 4, 0, 0);
	__cudaRegisterFatBinaryEnd(h);
	return h;
}

static cudaError_t launch(const void *stub, unsigned *out)
{
	unsigned *d;
	CHECK(cudaMalloc((void **)&d, 32 * sizeof *d));
	void *args[] = {&d};
	cudaError_t e = cudaLaunchKernel(stub, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, NULL);
	if (!e) CHECK(cudaMemcpy(out, d, 32 * sizeof *d, cudaMemcpyDeviceToHost));
	CHECK(cudaFree(d));
	return e;
}

int main(void)
{
	static const char stubs[3] = {0};
	static unsigned counter_shadow;      /* the host shadow nvcc would make */
	static Link l[3];
	unit_ptx(&l[0].unit[0], unit_a);
	unit_ptx(&l[0].unit[1], unit_b);
	link_register(&l[0], 2, &stubs[0], &counter_shadow);
	unit_ptx(&l[1].unit[0], unit_a);
	link_register(&l[1], 1, &stubs[1], NULL);
	container_begin(&l[2].unit[0]);      /* kind 8: NVVM IR for link-time optimization */
	entry(&l[2].unit[0], 8, 80, "not PTX", 8, PLAIN);
	link_register(&l[2], 1, &stubs[2], NULL);

	unsigned out[32], count = 0;
	CHECK(launch(&stubs[0], out));
	for (unsigned i = 0; i < 32; i++)
		if (out[i] != 2 * i) return fprintf(stderr, "out[%u] = %u\n", i, out[i]), 1;
	CHECK(cudaMemcpyFromSymbol(&count, &counter_shadow, sizeof count, 0,
	                           cudaMemcpyDeviceToHost));
	if (count != 5 + 32) return fprintf(stderr, "counter = %u\n", count), 1;
	cudaError_t e1 = launch(&stubs[1], out), e2 = launch(&stubs[2], out);
	if (e1 != cudaErrorInvalidPtx || e2 != cudaErrorNoKernelImageForDevice)
		return fprintf(stderr, "refusals: %s, %s\n", cudaGetErrorName(e1),
		               cudaGetErrorName(e2)), 1;
	printf("PASS\n");
	return 0;
}
