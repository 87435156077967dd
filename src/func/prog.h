/*
 * prog.h -- a loaded PTX module on the simulated GPU (kernel.h's Program).
 *
 * Loading parses the PTX, places module-scope variables (.global ones in
 * device memory, .const ones in the constant bank, .shared ones at the
 * bottom of every CTA's shared memory) and decodes every kernel into an
 * Image (decode.h), so that every error a program can have before it runs
 * is reported at load time.  Each function gets an address of its own (a
 * function pointer, a vtable entry), in a device allocation that holds no
 * code: an indirect call maps the address back to the function.
 */
#ifndef RFSIM_FUNC_PROG_H
#define RFSIM_FUNC_PROG_H

#include "ptx/ir.h"
#include "func/decode.h"
#include "func/kernel.h"

struct Program {
	Module *m;
	char *src;               /* PTX text, quoted in fault reports */
	int64_t *addr;           /* per module-scope Sym: address in its space, -1 unplaced */
	uint64_t *gallocs;       /* device allocations owned by the program */
	int32_t ngalloc;
	uint8_t *cbank;          /* constant bank (host view of the allocation below) */
	uint64_t cbank_dptr;     /* the constant bank's device allocation */
	uint32_t cbank_bytes;
	uint32_t shared_module;  /* bytes of module-scope .shared variables */
	uint64_t code_dptr;      /* function addresses: Module.funcs[i] is at code_dptr +
	                            i * GPU_FUNC_STRIDE (a device allocation, never read) */
	int32_t *kernels;        /* Module.funcs index of each kernel */
	int32_t nkernel;
	Image **img;             /* per kernel */
	ParamInfo **params;      /* per kernel */
	/* RegMutex: kernels recompiled for a launch's block size and dynamic
	   shared memory (gpu.c launch_image), each from its own parse */
	struct LaunchVariant {
		int32_t k, threads;
		uint32_t dyn;
		Module *m;
		Image *img;
	} *var;
	int32_t nvar;
};

/* where loading placed p's variables and functions, for image_build */
static inline Placement prog_placement(const Program *p)
{
	return (Placement){p->m, p->addr, p->shared_module, p->code_dptr};
}

#endif
