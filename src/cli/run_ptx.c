/*
 * run_ptx.c -- `rfsim run FILE.ptx`: one kernel of any PTX file.
 *
 * This path talks to the simulator (sim/gpu.h) directly, with no host
 * program: the command line says which kernel, the launch shape and each
 * parameter (kargs.c makes device buffers and scalars from -a specs), the
 * kernel runs once, and --dump writes the buffers back out for whoever
 * wants to check them.  It is how a kernel from nvcc, or a hand-written
 * one in a test, is tried without writing host code.
 *
 * Errors keep their origin's shape: PTX errors are `file:line:col: ...`
 * (exit 2), kernel faults are compute-sanitizer-like reports naming the
 * kernel, block, thread, PTX line and address (exit 1).
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"

/* the kernel -k names, or the file's only kernel; -1 after an error */
static int pick_kernel(const Program *p, const char *path, const char *want)
{
	int n = prog_nkernels(p);
	int k = want ? prog_find_kernel(p, want) : n == 1 ? 0 : -1;
	if (k >= 0) return k;
	if (n == 0) {
		fail(RF_EINPUT, "%s has no kernels (.entry)", path);
		return -1;
	}
	if (want) fprintf(stderr, "rfsim: %s has no kernel '%s'; its kernels:", path, want);
	else fprintf(stderr, "rfsim: %s has %d kernels; choose one with -k:", path, n);
	for (int i = 0; i < n; i++) fprintf(stderr, " %s", prog_kernel_name(p, i));
	fputc('\n', stderr);
	return -1;
}

/* -g, -b and --shared; RF_OK or a usage error */
static int launch_shape(const Opts *o, Dim3 *grid, Dim3 *block, uint32_t *shared)
{
	if (!o->grid || !o->block)
		return usage_error("run FILE.ptx needs the launch shape: -g GRID and -b BLOCK");
	if (parse_dim3(o->grid, grid))
		return usage_error("bad -g '%s' (expected X[,Y[,Z]] of positive integers)", o->grid);
	if (parse_dim3(o->block, block))
		return usage_error("bad -b '%s' (expected X[,Y[,Z]] of positive integers)", o->block);
	uint64_t sh = 0;
	if (o->shared && (parse_u64(o->shared, &sh) || sh > UINT32_MAX))
		return usage_error("bad --shared '%s' (expected a byte count)", o->shared);
	*shared = (uint32_t)sh;
	return RF_OK;
}

/* after the PTX is loaded: arguments, launch, dump, report */
static int run_kernel(const Opts *o, const Config *cfg, Gpu *g, Program *p, const char *path)
{
	Dim3 grid = {1, 1, 1}, block = {1, 1, 1};
	uint32_t shared = 0;
	int rc, k = pick_kernel(p, path, o->kernel);
	if (k < 0) return RF_EINPUT;
	if ((rc = launch_shape(o, &grid, &block, &shared))) return rc;
	KernelAttr ka;
	prog_kernel_attr(p, k, &ka);
	const char *kname = prog_kernel_name(p, k);
	KArg *args = xcalloc(ka.nparam ? ka.nparam : 1, sizeof *args);
	uint8_t *params = xcalloc(ka.param_bytes ? ka.param_bytes : 1, 1);
	rc = kargs_build(g, o, &ka, kname, (uint64_t)cfg->seed, args, params);
	if (!rc) {
		rc = (o->cooperative ? gpu_launch_coop : gpu_launch)(g, p, k, grid, block, shared,
		                                                     params, ka.param_bytes);
		if (rc) fprintf(stderr, "%s%s\n", rc == RF_EINPUT ? "rfsim: " : "", err_msg());
	}
	if (!rc && o->dump) rc = kargs_dump(g, o->dump, args, ka.nparam);
	if (!rc) {
		int n;
		const KernelStats *ks = gpu_kernel_stats(g, &n);
		Report rep = {.workload = path, .size = NULL, .cfg = cfg, .ks = ks, .nks = n,
		              .check = "none"};
		report_summary(stdout, &rep);
		fflush(stdout);
		if (o->stats) rc = report_json(o->stats, &rep);
	}
	free(params);
	free(args);
	return rc;
}

int cmd_run_ptx(const Opts *o)
{
	int rc;
	Config cfg;
	if ((rc = args_allow(o, FOR_PTX, "run FILE.ptx"))) return rc;
	if (o->npos != 1) return usage_error("run takes one workload or PTX file");
	if ((rc = args_config(o, &cfg))) return rc;
	const char *path = o->pos[0];
	size_t len;
	char *text = read_file(path, FILE_PTX, &len);
	if (!text) return fail(RF_EINPUT, "%s", err_msg());

	err_clear();
	Gpu *g = gpu_new(&cfg);
	if (!g) {
		free(text);
		return fail(RF_EINPUT, "%s", err_msg());
	}
	Program *p = NULL;
	rc = gpu_load_ptx(g, text, len, path, &p);
	if (rc) {
		fprintf(stderr, "rfsim: %s\n", err_msg());     /* as analyze says it */
	} else {
		rc = run_kernel(o, &cfg, g, p, path);
		gpu_unload(g, p);
	}
	gpu_free(g);
	free(text);
	return rc;
}
