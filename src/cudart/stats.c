/*
 * stats.c -- what a CUDA program run on rfsim tells its user: a line per
 * kernel on stderr, and with RFSIM_STATS=FILE the statistics file of the
 * whole run, written when the program exits.
 *
 * The file is the one `rfsim run --stats` writes (src/api/report.c), with
 * the program's name as "workload", "size" null and "check" "none": the
 * program checks its own results, and its verdict is its exit status.  It
 * holds every kernel launched through the runtime, across cudaDeviceReset.
 * Written from a destructor of this library, which runs after the
 * program's own exit handlers (so after every launch); a program that
 * dies by a signal or _exit leaves no file.
 *
 * The per-kernel line goes to stderr so it never mixes with the program's
 * output on stdout; RFSIM_QUIET=1 turns it off.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/report.h"
#include "timing/tstats.h"
#include "cudart/rt.h"

/* The kernel's C++ name without its return type and parameter list ("transpose<32>" for
 * _Z9transposeILi32EEvPfPKfii) into buf, or its PTX name where it is not
 * mangled or the program has no C++ runtime to demangle it: the runtime's
 * __cxa_demangle is looked up in the process (nvcc links every CUDA program
 * with libstdc++), so this library itself needs no C++. */
static const char *kernel_name(const char *mangled, char *buf, size_t size)
{
	RtState *rs = rt_state();
	if (!rs->demangle_looked) {
		rs->demangle_looked = 1;
		*(void **)&rs->demangle = dlsym(RTLD_DEFAULT, "__cxa_demangle");
	}
	if (!rs->demangle || mangled[0] != '_' || mangled[1] != 'Z') return mangled;
	int status = -1;
	char *full = rs->demangle(mangled, NULL, NULL, &status);
	if (status || !full) return mangled;
	/* the parameter list is the last top-level '(' ... ')' */
	size_t n = strlen(full), depth = 0, cut = n;
	for (size_t i = n; i-- > 0;) {
		if (full[i] == ')') depth++;
		else if (full[i] == '(' && --depth == 0) {
			cut = i;
			break;
		}
	}
	/* a template's return type comes first ("void transpose<32>"): from the
	 * last space outside <> */
	size_t from = 0, angle = 0;
	for (size_t i = 0; i < cut; i++) {
		if (full[i] == '<') angle++;
		else if (full[i] == '>' && angle) angle--;
		else if (full[i] == ' ' && !angle) from = i + 1;
	}
	/* a long template instance (Thrust's, CUB's) keeps its template's name */
	size_t lt = from;
	while (lt < cut && full[lt] != '<') lt++;
	int elide = cut - from > 72 && lt < cut && lt - from + 6 <= size;
	if (elide) cut = lt;
	if (cut - from + 1 > size) cut = from + size - 1;
	memcpy(buf, full + from, cut - from);
	strcpy(buf + (cut - from), elide ? "<...>" : "");
	free(full);
	return buf;
}

void stats_kernel_line(int i)
{
	int n;
	const KernelStats *ks = api_kernel_log(&n);
	if (i < 0 || i >= n || rt_quiet()) return;
	const KernelStats *k = &ks[i];
	char shmem[16] = "";         /* the dynamic shared memory, as <<< >>> spells it */
	if (k->dyn_shmem) snprintf(shmem, sizeof shmem, ",%u", k->dyn_shmem);
	char timing[64] = "";        /* cycles and IPC where the timing model ran it */
	if (k->timed && k->ts.cycles)
		snprintf(timing, sizeof timing, ", %llu cycles, IPC %.2f",
		         (unsigned long long)k->ts.cycles,
		         tstats_derived(&k->ts, k->warp_insts, TD_ipc));
	char name[128];
	fprintf(stderr, "rfsim: %s<<<(%u,%u,%u),(%u,%u,%u)%s>>> %d regs: %llu warp insts, "
	        "%llu thread insts%s, %.3f s\n", kernel_name(k->name, name, sizeof name), k->grid.x, k->grid.y, k->grid.z,
	        k->block.x, k->block.y, k->block.z, shmem, k->regs_per_thread,
	        (unsigned long long)k->warp_insts, (unsigned long long)k->thread_insts, timing,
	        k->sim_seconds);
}

__attribute__((destructor)) static void stats_at_exit(void)
{
	const char *path = getenv("RFSIM_STATS");
	if (!path || !*path) return;
	int n;
	const KernelStats *ks = api_kernel_log(&n);
	Report r = {.workload = program_invocation_short_name, .size = NULL, .cfg = rt_config(),
	            .ks = ks, .nks = n, .check = "none"};
	report_json(path, &r);
}
