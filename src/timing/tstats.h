/*
 * tstats.h -- counters of the timing model (rows in tstats.def).
 *
 * A TStats is a plain struct of uint64_t counters: each SM and the memory
 * system keep their own and bump fields on the hot path; timing.c sums
 * them into the kernel's KernelStats when the kernel ends.  Derived
 * figures (IPC, occupancy, hit rates; the TD rows of tstats.def) are
 * computed only when reported, by tstats_derived.
 */
#ifndef RFSIM_TIMING_TSTATS_H
#define RFSIM_TIMING_TSTATS_H

#include <stdint.h>

#include "func/kernel.h"

typedef struct TStats {
#define TS(f, h) uint64_t f;
#include "timing/tstats.def"
#undef TS
} TStats;

/* one kernel's record: what ran, its counts, and the timing model's counters */
typedef struct KernelStats {
	char name[1024];         /* kernel's PTX name (C++ mangled names run long) */
	Dim3 grid, block;
	uint32_t dyn_shmem;      /* dynamic shared memory bytes */
	int regs_per_thread;     /* registers the kernel runs with */
	uint64_t warp_insts;     /* warp instructions issued */
	uint64_t thread_insts;   /* thread instructions (active lanes summed) */
	double sim_seconds;      /* host time spent simulating it */
	uint64_t mem_digest;     /* sim.digest: gmem_digest() after it (and its children) ran */
	int digested;            /* mem_digest is set */
	int timed;               /* ran on the timing model: ts is valid */
	TStats ts;               /* the timing model's counters (tstats.def) */
} KernelStats;

/* the derived figures, TD rows of tstats.def: TD_ipc, TD_occupancy, ... */
enum {
#define TS(f, h)
#define TD(n, json, f, u, h) TD_##n,
#include "timing/tstats.def"
#undef TD
#undef TS
	NTDERIVED
};

typedef struct TDerived {
	const char *name;        /* "ipc" */
	char json;               /* 'n' number, 'u' integer: in the JSON; 0 not */
	const char *unit;        /* "fraction", "%", "cycles", ... */
	const char *help;
} TDerived;

extern const TDerived tstats_derived_rows[NTDERIVED];

struct Json;

void tstats_add(TStats *dst, const TStats *src);
/* every counter, then the JSON's derived figures, as members of the open JSON object */
void tstats_json(struct Json *j, const TStats *t, uint64_t warp_insts);
/* derived figure `which` (TD_*) of counters t with warp_insts warp instructions */
double tstats_derived(const TStats *t, uint64_t warp_insts, int which);
int tstats_derived_find(const char *name);            /* TD_* index, or -1 */
uint64_t *tstats_counter(TStats *t, const char *name); /* the TS row `name`, or NULL */

#endif
