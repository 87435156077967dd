/*
 * prog.c -- what the host asks of a loaded program (prog.h): its kernels by
 * index and name, a kernel's attributes (cuFuncGetAttribute), and the
 * addresses of its module-scope variables.  Loading it is gpu.c's.
 */
#include "func/prog.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "func/decode.h"

int prog_nkernels(const Program *p) { return p->nkernel; }

const char *prog_kernel_name(const Program *p, int k)
{
	const Module *m = p->m;
	return ir_str(m, m->syms[m->funcs[p->kernels[k]].sym].name);
}

int prog_find_kernel(const Program *p, const char *name)
{
	for (int k = 0; k < p->nkernel; k++)
		if (!strcmp(prog_kernel_name(p, k), name)) return k;
	return -1;
}

void prog_kernel_attr(const Program *p, int k, KernelAttr *a)
{
	const Image *img = p->img[k];
	const Func *f = &p->m->funcs[p->kernels[k]];
	memset(a, 0, sizeof *a);
	a->regs_per_thread = img->regs_per_thread;
	a->shared_bytes = img->shared_static;
	a->local_bytes = (uint32_t)img->max_local;
	a->const_bytes = p->cbank_bytes;
	a->param_bytes = img->param_bytes;
	a->max_threads = 1024;
	const char *t = strstr(ir_str(p->m, p->m->target), "sm_");
	a->ptx_arch = t ? atoi(t + 3) : 0;
	int32_t mt = f->maxntid[0] ? f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) *
	                             (f->maxntid[2] ? f->maxntid[2] : 1) : 0;
	int32_t rt = f->reqntid[0] ? f->reqntid[0] * (f->reqntid[1] ? f->reqntid[1] : 1) *
	                             (f->reqntid[2] ? f->reqntid[2] : 1) : 0;
	if (mt && mt < a->max_threads) a->max_threads = mt;
	if (rt && rt < a->max_threads) a->max_threads = rt;
	for (int i = 0; i < 3; i++)
		a->cluster[i] = f->reqnctapercluster[0] > 0 ? (f->reqnctapercluster[i] > 0
		                                                ? f->reqnctapercluster[i] : 1) : 0;
	a->explicit_cluster = (f->attr & ATTR_EXPLICIT_CLUSTER) != 0;
	a->nparam = img->nparam;
	a->params = img->params;
}

int prog_find_global(const Program *p, const char *name, uint64_t *dptr, uint64_t *bytes)
{
	int32_t id = ir_find_sym(p->m, name);
	if (id < 0 || p->addr[id] < 0) return RF_EINPUT;
	const Sym *s = &p->m->syms[id];
	if (s->space != SP_GLOBAL && s->space != SP_CONST) return RF_EINPUT;
	*dptr = (uint64_t)p->addr[id] + (s->space == SP_CONST ? p->cbank_dptr : 0);
	*bytes = (uint64_t)sym_size(s);
	return RF_OK;
}
