/*
 * test_link.c -- the PTX linker of relocatable device code (src/ptx/link.c)
 * and the parser's joining of an .extern variable with its definition.
 *
 * Two or three hand-written units, the way nvcc -rdc writes them: the
 * linked text must parse to one module in which every extern names its
 * definition, run correctly on the timing model under the register-file
 * models (calls across units through register allocation, RegMutex, LTRF),
 * and every link error must be the exact message nvlink's rule gives.
 */
#include <stdlib.h>

#include "base/base.h"
#include "ptx/ptx.h"
#include "func/decode.h"
#include "func/prog.h"
#include "tsim.h"
#include "unit.h"

#define HEAD ".version 9.0\n.target sm_80\n.address_size 64\n"

/* kernel k(out): out[tid] = twice(tid) + tab[tid & 3] + helper(tid); counter += 1 */
static const char unit_a[] = HEAD
	".extern .func (.param .b32 r) twice(.param .b32 x);\n"
	".extern .global .align 4 .u32 counter;\n"
	".extern .const .align 4 .b8 tab[];\n"
	".extern .shared .align 4 .b8 dyn[];\n"
	".global .align 4 .u32 scratch;\n"           /* unit-local, as unit b's */
	".func (.param .b32 r) helper(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
	"ld.param.b32 %r1, [x];\nadd.s32 %r2, %r1, 100;\nst.param.b32 [r], %r2;\nret;\n}\n"
	".weak .func (.param .b32 r) w(.param .b32 x)\n{\n.reg .b32 %r<2>;\n"
	"ld.param.b32 %r1, [x];\nst.param.b32 [r], %r1;\nret;\n}\n"
	".visible .entry k(.param .u64 out)\n{\n"
	".reg .b32 %r<12>;\n.reg .b64 %rd<6>;\n"
	"ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n"
	"{\n.param .b32 p0;\n.param .b32 r0;\nst.param.b32 [p0], %r1;\n"
	"call.uni (r0), twice, (p0);\nld.param.b32 %r2, [r0];\n}\n"
	"{\n.param .b32 p0;\n.param .b32 r0;\nst.param.b32 [p0], %r1;\n"
	"call.uni (r0), helper, (p0);\nld.param.b32 %r3, [r0];\n}\n"
	"{\n.param .b32 p0;\n.param .b32 r0;\nst.param.b32 [p0], %r1;\n"
	"call.uni (r0), w, (p0);\nld.param.b32 %r9, [r0];\n}\n"
	"and.b32 %r4, %r1, 3;\nmul.wide.u32 %rd3, %r4, 4;\nmov.u64 %rd4, tab;\n"
	"add.s64 %rd4, %rd4, %rd3;\nld.const.u32 %r5, [%rd4];\n"
	"add.s32 %r6, %r2, %r3;\nadd.s32 %r7, %r6, %r5;\nadd.s32 %r7, %r7, %r9;\n"
	"mul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd5, %rd2, %rd5;\nst.global.u32 [%rd5], %r7;\n"
	"atom.global.add.u32 %r8, [counter], 1;\nst.global.u32 [scratch], %r1;\nret;\n}\n";

/* twice(x) = 2x (recursively: twice(x) = 2 + twice(x - 1)), tab = {10, 20, 30, 40},
 * its own helper, a strong w(x) = 1000 that overrides unit a's weak one */
static const char unit_b[] = HEAD
	".visible .global .align 4 .u32 counter = 7;\n"
	".visible .const .align 4 .b8 tab[16] = {10, 0, 0, 0, 20, 0, 0, 0, 30, 0, 0, 0, 40};\n"
	".extern .shared .align 4 .b8 dyn[];\n"
	".global .align 4 .u32 scratch;\n"
	".func (.param .b32 r) helper(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
	"ld.param.b32 %r1, [x];\nadd.s32 %r2, %r1, 999;\nst.param.b32 [r], %r2;\nret;\n}\n"
	".visible .func (.param .b32 r) w(.param .b32 x)\n{\n.reg .b32 %r<2>;\n"
	"mov.b32 %r1, 1000;\nst.param.b32 [r], %r1;\nret;\n}\n"
	".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n"
	".reg .b32 %r<5>;\n.reg .pred %p<2>;\n"
	"ld.param.b32 %r1, [x];\nsetp.eq.s32 %p1, %r1, 0;\nmov.b32 %r4, 0;\n@%p1 bra DONE;\n"
	"add.s32 %r2, %r1, -1;\n"
	"{\n.param .b32 p0;\n.param .b32 r0;\nst.param.b32 [p0], %r2;\n"
	"call.uni (r0), twice, (p0);\nld.param.b32 %r3, [r0];\n}\n"
	"add.s32 %r4, %r3, 2;\nDONE:\nst.param.b32 [r], %r4;\nret;\n}\n";

static char *link2(const char *a, const char *b, int (*provided)(const char *))
{
	PtxUnit u[2] = {{a, strlen(a), "a.ptx"}, {b, b ? strlen(b) : 0, "b.ptx"}};
	size_t n;
	return ptx_link(u, b ? 2 : 1, provided, &n);
}

TEST(link_resolves_externs_into_one_definition_each)
{
	char *t = link2(unit_a, unit_b, NULL);
	CHECK(t);
	if (!t) return;
	Module *m = ptx_parse(t, strlen(t), "linked.ptx");
	CHECK(m);
	if (m) {
		int32_t tw = ir_find_func(m, "twice");
		CHECK(tw >= 0 && m->funcs[tw].has_body);
		int32_t c = ir_find_sym(m, "counter");
		CHECK(c >= 0 && !(m->syms[c].attr & ATTR_EXTERN) && m->syms[c].init &&
		      m->syms[c].init[0] == 7);
		int32_t tab = ir_find_sym(m, "tab");
		CHECK(tab >= 0 && sym_size(&m->syms[tab]) == 16);
		/* unit-local names both units use: each unit keeps its own */
		CHECK(ir_find_func(m, "helper$rdc1") >= 0 && ir_find_func(m, "helper$rdc2") >= 0);
		CHECK(ir_find_sym(m, "scratch$rdc1") >= 0 && ir_find_sym(m, "scratch$rdc2") >= 0);
		CHECK(ir_find_func(m, "helper") < 0);
		int32_t w = ir_find_func(m, "w");          /* the strong definition won */
		CHECK(w >= 0 && m->funcs[w].has_body && (m->funcs[w].attr & ATTR_VISIBLE));
		ir_free(m);
	}
	free(t);
}

/* out[tid] = 2 tid + tab[tid & 3] + (tid + 100) + 1000, counter 7 + threads */
static void run_linked(const char *set)
{
	char *t = link2(unit_a, unit_b, NULL);
	if (!t) {
		unit_fail(__FILE__, __LINE__, "link: %s", err_msg());
		return;
	}
	Config c = tsim_config();
	if (set && config_set_kv(&c, set)) unit_fail(__FILE__, __LINE__, "%s", err_msg());
	Gpu *g = gpu_new(&c);
	Program *p = NULL;
	if (gpu_load_ptx(g, t, strlen(t), "linked.ptx", &p)) {
		unit_fail(__FILE__, __LINE__, "%s: load: %s", set, err_msg());
		gpu_free(g);
		free(t);
		return;
	}
	uint64_t buf, cnt, n;
	CHECK_EQ(gpu_mem_alloc(g, 4096, &buf), RF_OK);
	CHECK_EQ(gpu_launch(g, p, prog_find_kernel(p, "k"), (Dim3){1, 1, 1}, (Dim3){64, 1, 1}, 0,
	                    &buf, 8), RF_OK);
	const uint32_t *out = gpu_mem_host(g, buf, 256);
	static const uint32_t tab[4] = {10, 20, 30, 40};
	for (uint32_t i = 0; out && i < 64; i++)
		if (out[i] != 2 * i + tab[i & 3] + i + 100 + 1000)
			unit_fail(__FILE__, __LINE__, "%s: out[%u] = %u", set, i, out[i]);
	CHECK_EQ(prog_find_global(p, "counter", &cnt, &n), RF_OK);
	const uint32_t *cv = gpu_mem_host(g, cnt, 4);
	CHECK(cv && *cv == 7 + 64);
	gpu_unload(g, p);
	gpu_free(g);
	free(t);
}

TEST(link_linked_calls_run_under_the_register_file_models)
{
	static const char *const sets[] = {"rf.model=baseline", "rf.model=ideal",
	                                   "rf.model=regmutex", "rf.model=ltrf", "rf.model=rfc",
	                                   "rf.model=regshare", "maxrregcount=16"};
	for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) run_linked(sets[i]);
}

TEST(link_first_weak_definition_wins)
{
	static const char wk[] = HEAD
		".weak .func (.param .b32 r) w(.param .b32 x)\n{\n.reg .b32 %r<2>;\n"
		"mov.b32 %r1, 5;\nst.param.b32 [r], %r1;\nret;\n}\n"
		".weak .global .align 4 .u32 v = 3;\n";
	static const char wk2[] = HEAD
		".weak .func (.param .b32 r) w(.param .b32 x)\n{\n.reg .b32 %r<2>;\n"
		"mov.b32 %r1, 6;\nst.param.b32 [r], %r1;\nret;\n}\n"
		".weak .global .align 4 .u32 v = 4;\n";
	char *t = link2(wk, wk2, NULL);
	Module *m = t ? ptx_parse(t, strlen(t), "linked.ptx") : NULL;
	CHECK(m);
	if (m) {
		int32_t w = ir_find_func(m, "w"), v = ir_find_sym(m, "v");
		CHECK(w >= 0 && m->funcs[w].nins == 3 && m->funcs[w].ins[0].o[1].imm == 5);
		CHECK(v >= 0 && m->syms[v].init && m->syms[v].init[0] == 3);
		ir_free(m);
	}
	free(t);
}

static void link_fails(const char *a, const char *b, int (*provided)(const char *),
                       const char *msg)
{
	char *t = link2(a, b, provided);
	if (t) unit_fail(__FILE__, __LINE__, "linked, expected \"%s\"", msg);
	else if (strcmp(err_msg(), msg))
		unit_fail(__FILE__, __LINE__, "error \"%s\", expected \"%s\"", err_msg(), msg);
	free(t);
}

static int is_vprintf(const char *name) { return !strcmp(name, "vprintf"); }
static int is_builtin(const char *name) { return builtin_lookup(name) != BUILTIN_NONE; }

TEST(link_errors_name_the_symbol_and_the_unit)
{
	link_fails(unit_a, NULL, NULL,
	           "rdc link: unresolved extern variable 'counter' (needed by a.ptx)");
	static const char only_func[] = HEAD
		".extern .func (.param .b32 r) twice(.param .b32 x);\n"
		".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n";
	link_fails(only_func, HEAD, NULL,
	           "rdc link: unresolved extern function 'twice' (needed by a.ptx)");
	link_fails(unit_b, unit_b, NULL,
	           "rdc link: multiple definition of 'counter' in b.ptx, first defined in a.ptx");
	static const char as_var[] = HEAD ".visible .global .u32 twice;\n";
	link_fails(only_func, as_var, is_vprintf,
	           "rdc link: 'twice' is a function in a.ptx and a variable in b.ptx");
	static const char dp[] = HEAD        /* the header's wrapper, never called by nvcc */
		".extern .func (.param .b64 r) cudaGetParameterBufferV2(.param .b64 f);\n";
	link_fails(dp, HEAD, NULL, "rdc link: cudaGetParameterBufferV2 in a.ptx is a device-side "
	           "launch form rfsim does not provide (dynamic parallelism takes <<<>>>: "
	           "__cudaCDP2GetParameterBufferV2 and __cudaCDP2LaunchDeviceV2)");
	static const char cdp1[] = HEAD      /* cudaLaunchDevice's six-argument form */
		".extern .func (.param .b32 r) __cudaCDP2LaunchDevice(.param .b64 p);\n";
	link_fails(cdp1, HEAD, is_builtin, "rdc link: __cudaCDP2LaunchDevice in a.ptx is a "
	           "device-side launch form rfsim does not provide (dynamic parallelism takes "
	           "<<<>>>: __cudaCDP2GetParameterBufferV2 and __cudaCDP2LaunchDeviceV2)");
	static const char sync[] = HEAD      /* removed by CDP2; nvcc 13 refuses it itself */
		".extern .func (.param .b32 r) cudaDeviceSynchronize();\n";
	link_fails(sync, HEAD, is_builtin, "rdc link: cudaDeviceSynchronize in a.ptx: device-side "
	           "cudaDeviceSynchronize was removed by CUDA 12's dynamic parallelism (CDP2), "
	           "which rfsim implements");
	static const char devrt[] = HEAD
		".extern .func (.param .b32 r) cudaGetDeviceCount(.param .b64 n);\n";
	link_fails(devrt, HEAD, NULL, "rdc link: cudaGetDeviceCount in a.ptx is a device runtime "
	           "function (libcudadevrt), which rfsim does not provide");
	link_fails(HEAD "this is not PTX\n", HEAD, NULL,
	           "a.ptx:4:1: expected a directive or declaration, found 'this'");
	/* what the simulator provides stays an extern declaration */
	static const char pf[] = HEAD
		".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n";
	char *t = link2(pf, HEAD, is_vprintf);
	CHECK(t && strstr(t, ".extern .func (.param .b32 r) vprintf"));
	free(t);
	static const char cdp2[] = HEAD      /* what nvcc 12+ emits for child<<<...>>>() */
		".extern .func (.param .b32 r) __cudaCDP2LaunchDeviceV2(.param .b64 p);\n"
		".extern .func (.param .b64 r) __cudaCDP2GetParameterBufferV2(.param .b64 f);\n";
	t = link2(cdp2, HEAD, is_builtin);
	CHECK(t && strstr(t, "__cudaCDP2LaunchDeviceV2") && strstr(t, "GetParameterBufferV2"));
	free(t);
}

TEST(parse_joins_an_extern_variable_with_its_definition)
{
	static const char ok[] = HEAD
		".extern .global .align 4 .b8 x[];\n"
		".extern .global .align 4 .b8 x[];\n"
		".visible .global .align 4 .u32 x[2] = {5, 6};\n"
		".extern .global .align 4 .b8 x[8];\n";
	Module *m = ptx_parse(ok, strlen(ok), "t.ptx");
	CHECK(m);
	if (m) {
		CHECK_EQ(m->nglobal, 1);
		int32_t x = ir_find_sym(m, "x");
		CHECK(x >= 0 && m->syms[x].count == 2 && m->syms[x].init && m->syms[x].init[4] == 6);
		CHECK(x >= 0 && m->syms[x].attr == ATTR_VISIBLE);
		ir_free(m);
	}
	static const char twice[] = HEAD ".global .u32 y;\n.global .u32 y;\n";
	CHECK(!ptx_parse(twice, strlen(twice), "t.ptx"));
	CHECK_STR(err_msg(), "t.ptx:5:14: redeclaration of 'y'");
	static const char space[] = HEAD ".extern .global .u32 z;\n.const .u32 z;\n";
	CHECK(!ptx_parse(space, strlen(space), "t.ptx"));
	CHECK_STR(err_msg(), "t.ptx:5:13: redeclaration of 'z'");
}
