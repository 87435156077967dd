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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "api/api.h"
#include "api/report.h"
#include "rt.h"

void stats_kernel_line(void)
{
	int n;
	const KernelStats *ks = api_kernel_log(&n);
	if (!n || rt_quiet()) return;
	const KernelStats *k = &ks[n - 1];
	char shmem[16] = "";         /* the dynamic shared memory, as <<< >>> spells it */
	if (k->dyn_shmem) snprintf(shmem, sizeof shmem, ",%u", k->dyn_shmem);
	fprintf(stderr, "rfsim: %s<<<(%u,%u,%u),(%u,%u,%u)%s>>> %d regs: %llu warp insts, "
	        "%llu thread insts, %.3f s\n", k->name, k->grid.x, k->grid.y, k->grid.z,
	        k->block.x, k->block.y, k->block.z, shmem, k->regs_per_thread,
	        (unsigned long long)k->warp_insts, (unsigned long long)k->thread_insts,
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
