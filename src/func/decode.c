/*
 * decode.c -- builds a kernel's Image: which functions it reaches, their
 * register frames and local-memory frames, the shared-memory layout, and
 * the call sites; decode_ins.c lowers the instructions themselves.
 *
 * Frames.  Each function's registers get consecutive 32-bit slots (64-bit
 * registers two, aligned to nothing in particular: slots are not banks)
 * and its predicates consecutive predicate indices; register-allocated
 * code (Func.phys) instead names its slots, R0..R(nphys-1) and
 * P0..P(nphys_pred-1), and reports the allocator's register count.  Its
 * local frame holds, in order, its .local variables, its formal and
 * return parameters (for a .func) and the .param scratch variables of its
 * call sequences, each at its alignment.  A call places the callee's frames right above the
 * caller's; the Image records the deepest chain (max_slots, max_preds,
 * max_local) so a warp's buffers are sized once.  When the call graph has
 * a cycle the depth is unknowable: rfsim allows RECURSION_DEPTH nested
 * frames of the largest function and reports a stack overflow beyond that
 * (CUDA's default stack is 1 KiB per thread; a fixed depth is the closer
 * analogue for a simulator that has no real stack pointer).
 *
 * Shared memory: module-scope .shared variables first (placed by gpu.c at
 * load), then the .shared variables declared inside the kernel and its
 * callees, then, 16-byte aligned, the dynamic shared memory of every
 * `.extern .shared` array.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/cfg.h"
#include "base/base.h"
#include "func/decode_int.h"
#include "func/kernel.h"

enum { RECURSION_DEPTH = 64 };

static int64_t align_up(int64_t v, int64_t a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

static int64_t sym_align(const Sym *s)
{
	if (s->align) return s->align;
	int64_t e = ptxtype_size((PtxType)s->type) * (s->vec ? s->vec : 1);
	return e ? e : 1;
}

/* 1 if call instruction `in` names no function: a call through a register */
static int is_indirect(const Module *m, const Ins *in)
{
	for (int k = 0; k < in->nd + in->ns; k++)
		if (in->o[k].kind == OPK_SYM && m->syms[in->o[k].reg].kind == SYM_FUNC) return 0;
	return 1;
}

/* functions whose address is taken: a non-call operand or an initializer
 * names them; these are what an indirect call may reach */
static void address_taken(const Module *m, uint8_t *taken)
{
	for (int32_t f = 0; f < m->nfunc; f++)
		for (int32_t i = 0; i < m->funcs[f].nins; i++) {
			const Ins *in = &m->funcs[f].ins[i];
			if (in->op == OP_CALL) continue;
			for (int k = 0; k < in->nd + in->ns; k++)
				if (in->o[k].kind == OPK_SYM && m->syms[in->o[k].reg].kind == SYM_FUNC)
					taken[m->syms[in->o[k].reg].func] = 1;
		}
	for (int32_t k = 0; k < m->nglobal; k++) {
		const Sym *s = &m->syms[m->globals[k]];
		for (int32_t i = 0; s->kind == SYM_VAR && i < s->init_nsym; i++)
			if (m->syms[s->isyms[i].sym].kind == SYM_FUNC)
				taken[m->syms[s->isyms[i].sym].func] = 1;
	}
}

/* functions reachable from the kernel, kernel first; 1 if recursive.  An
 * indirect call reaches every function whose address is taken that has a
 * body (kernels excepted), and makes the call depth unknowable: such an
 * Image counts as recursive (stack_needs). */
static int reach(const Module *m, int32_t kernel, int32_t **out, int32_t *n)
{
	int32_t *list = xmalloc((size_t)m->nfunc * sizeof *list);
	int8_t *state = xcalloc((size_t)m->nfunc, 1);   /* 0 new, 1 on stack, 2 done */
	int32_t *stack = xmalloc((size_t)m->nfunc * 2 * sizeof *stack);
	int32_t sp = 0, cnt = 0;
	int rec = 0, indirect = 0;
	stack[sp++] = kernel;
	stack[sp++] = 0;
	state[kernel] = 1;
	list[cnt++] = kernel;
	for (;;) {
		while (sp) {
			int32_t f = stack[sp - 2], i = stack[sp - 1];
			const Func *fn = &m->funcs[f];
			for (; i < fn->nins; i++) {
				const Ins *in = &fn->ins[i];
				if (in->op != OP_CALL) continue;
				int32_t callee = -1;
				for (int k = 0; k < in->nd + in->ns; k++)
					if (in->o[k].kind == OPK_SYM && m->syms[in->o[k].reg].kind == SYM_FUNC)
						callee = m->syms[in->o[k].reg].func;
				if (callee < 0) {
					indirect |= is_indirect(m, in);
					continue;
				}
				if (!m->funcs[callee].has_body &&
				    builtin_lookup(ir_str(m, m->syms[m->funcs[callee].sym].name)))
					continue;                 /* provided by builtin.c */
				if (state[callee] == 1) rec = 1;
				if (state[callee]) continue;
				state[callee] = 1;
				list[cnt++] = callee;
				stack[sp - 1] = i + 1;
				stack[sp++] = callee;
				stack[sp++] = 0;
				break;
			}
			if (i >= fn->nins) {
				state[f] = 2;
				sp -= 2;
			}
		}
		if (indirect != 1) break;
		indirect = 2;                  /* add the address-taken functions once */
		uint8_t *taken = xcalloc((size_t)m->nfunc + 1, 1);
		address_taken(m, taken);
		for (int32_t f = 0; f < m->nfunc; f++) {
			if (!taken[f] || state[f] || !m->funcs[f].has_body ||
			    (m->funcs[f].attr & ATTR_ENTRY))
				continue;
			state[f] = 1;
			list[cnt++] = f;
			stack[sp++] = f;
			stack[sp++] = 0;
		}
		free(taken);
	}
	free(state);
	free(stack);
	*out = list;
	*n = cnt;
	return rec || indirect;
}

/* register slots and predicate indices of one function: allocated code
 * (fn->phys) names its slots, virtual registers get consecutive ones */
static void layout_regs(Image *img, ImgFunc *f, const Func *fn)
{
	f->slot_of = arena_alloc(img->arena, (size_t)(fn->nreg + 1) * sizeof *f->slot_of);
	if (fn->phys) {
		memcpy(f->slot_of, fn->phys, (size_t)fn->nreg * sizeof *f->slot_of);
		f->nslot = fn->nphys;
		f->npred = fn->nphys_pred;
		return;
	}
	for (int32_t r = 0; r < fn->nreg; r++) {
		PtxType t = (PtxType)fn->regtype[r];
		if (t == PT_PRED) {
			f->slot_of[r] = f->npred++;
			continue;
		}
		int sz = ptxtype_size(t);
		f->slot_of[r] = f->nslot;
		f->nslot += sz > 4 ? sz / 4 : 1;
	}
}

/* local frame of one function: .local vars, .func params, call-seq params;
 * frame offsets go in dc->addr for function-owned symbols */
static void layout_frame(DecodeCtx *dc, ImgFunc *f, const Func *fn, int is_kernel)
{
	const Module *m = dc->m;
	int64_t off = 0;
	for (int32_t i = 0; i < fn->nlocal; i++) {
		const Sym *s = &m->syms[fn->locals[i]];
		if (s->space != SP_LOCAL && s->space != SP_PARAM) continue;
		off = align_up(off, sym_align(s));
		dc->addr[fn->locals[i]] = off;
		off += sym_size(s);
	}
	if (!is_kernel) {
		f->nparam = fn->nparam, f->nret = fn->nret;
		int32_t *offs = arena_alloc(dc->img->arena,
		                            (size_t)(fn->nparam + fn->nret + 1) * sizeof *offs);
		f->param_off = offs, f->ret_off = offs + fn->nparam;
		for (int pass = 0; pass < 2; pass++) {
			int32_t n = pass ? fn->nret : fn->nparam;
			const int32_t *ids = pass ? fn->rets : fn->params;
			for (int32_t i = 0; i < n; i++) {
				const Sym *s = &m->syms[ids[i]];
				off = align_up(off, sym_align(s));
				dc->addr[ids[i]] = off;
				(pass ? f->ret_off : f->param_off)[i] = (int32_t)off;
				off += sym_size(s);
			}
		}
	}
	f->frame_bytes = (int32_t)align_up(off, 16);
}

/* kernel parameter buffer: offsets by the PTX alignment rules */
static void layout_kparams(DecodeCtx *dc, const Func *k)
{
	int64_t off = 0;
	Image *img = dc->img;
	img->nparam = k->nparam;
	img->params = arena_alloc(img->arena, (size_t)(k->nparam + 1) * sizeof *img->params);
	for (int32_t i = 0; i < k->nparam; i++) {
		const Sym *s = &dc->m->syms[k->params[i]];
		int64_t al = sym_align(s);
		off = align_up(off, al);
		dc->addr[k->params[i]] = off;
		img->params[i] = (ParamInfo){(uint32_t)off, (uint32_t)sym_size(s), (uint32_t)al};
		off += sym_size(s);
	}
	dc->img->param_bytes = (uint32_t)off;
}

/* .shared variables declared inside functions, then the dynamic base */
static void layout_shared(DecodeCtx *dc, const int32_t *funcs, int32_t nf)
{
	int64_t off = dc->pl->shared_module;
	for (int32_t i = 0; i < nf; i++) {
		const Func *fn = &dc->m->funcs[funcs[i]];
		for (int32_t j = 0; j < fn->nlocal; j++) {
			const Sym *s = &dc->m->syms[fn->locals[j]];
			if (s->space != SP_SHARED || s->count < 0) continue;
			off = align_up(off, sym_align(s));
			dc->addr[fn->locals[j]] = off;
			off += sym_size(s);
		}
	}
	dc->img->shared_static = (uint32_t)off;
	dc->img->dyn_base = (uint32_t)align_up(off, 16);
}

/* deepest needs over call chains (DAG: longest path; recursion: capped) */
static void stack_needs(Image *img, const Module *m)
{
	if (img->recursive) {
		int32_t ms = 0, mp = 0, ml = 0;
		for (int32_t i = 0; i < img->nfunc; i++) {
			if (img->funcs[i].nslot > ms) ms = img->funcs[i].nslot;
			if (img->funcs[i].npred > mp) mp = img->funcs[i].npred;
			if (img->funcs[i].frame_bytes > ml) ml = img->funcs[i].frame_bytes;
		}
		img->max_slots = ms * RECURSION_DEPTH;
		img->max_preds = mp * RECURSION_DEPTH;
		img->max_local = ml * RECURSION_DEPTH;
		return;
	}
	/* funcs are in DFS discovery order; iterate to a fixed point (a DAG) */
	int32_t n = img->nfunc;
	int32_t *s = xcalloc((size_t)n * 3, sizeof *s), *p = s + n, *l = s + 2 * n;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int32_t i = n - 1; i >= 0; i--) {
			const ImgFunc *f = &img->funcs[i];
			int32_t bs = 0, bp = 0, bl = 0;
			for (int32_t pc = f->entry; pc < f->end; pc++) {
				if (img->code[pc].op != OP_CALL || (img->code[pc].flags & DF_BUILTIN)) continue;
				int32_t ce = img->calls[img->code[pc].aux].callee;
				if (ce < 0) continue;        /* indirect: the Image counts as recursive */
				if (s[ce] > bs) bs = s[ce];
				if (p[ce] > bp) bp = p[ce];
				if (l[ce] > bl) bl = l[ce];
			}
			int32_t ns = f->nslot + bs, np = f->npred + bp, nl = f->frame_bytes + bl;
			if (ns != s[i] || np != p[i] || nl != l[i]) changed = 1;
			s[i] = ns, p[i] = np, l[i] = nl;
		}
	}
	img->max_slots = s[0];
	img->max_preds = p[0];
	img->max_local = l[0];
	free(s);
	(void)m;
}

Image *image_build(const Placement *pl, const Module *m, int32_t kernel)
{
	Image *img = xcalloc(1, sizeof *img);
	img->arena = arena_new();
	img->m = m;
	img->kernel = kernel;
	int32_t *funcs, nf;
	img->recursive = reach(m, kernel, &funcs, &nf);
	DecodeCtx dc = {.m = m, .pl = pl, .img = img};
	dc.addr = xmalloc((size_t)m->nsym * sizeof *dc.addr);
	for (int32_t i = 0; i < m->nsym; i++) dc.addr[i] = i < pl->m->nsym ? pl->addr[i] : -1;
	dc.img_of_func = xmalloc((size_t)m->nfunc * sizeof *dc.img_of_func);
	for (int32_t i = 0; i < m->nfunc; i++) dc.img_of_func[i] = -1;
	img->nfunc = nf;
	img->funcs = arena_alloc(img->arena, (size_t)nf * sizeof *img->funcs);
	for (int32_t i = 0; i < nf; i++) {
		const Func *fn = &m->funcs[funcs[i]];
		img->funcs[i].ir_func = funcs[i];
		dc.img_of_func[funcs[i]] = i;
		if (!fn->has_body) {
			err_set("%s:%u:%u: function '%s' is called but has no body in this module",
			        m->filename, fn->line, fn->col, ir_str(m, m->syms[fn->sym].name));
			goto fail;
		}
		layout_regs(img, &img->funcs[i], fn);
		layout_frame(&dc, &img->funcs[i], fn, i == 0);
	}
	img->code_base = pl->code_dptr;
	img->nmfunc = m->nfunc;
	img->img_of_mfunc = arena_alloc(img->arena, (size_t)(m->nfunc + 1) * sizeof(int32_t));
	memcpy(img->img_of_mfunc, dc.img_of_func, (size_t)m->nfunc * sizeof(int32_t));
	layout_kparams(&dc, &m->funcs[kernel]);
	layout_shared(&dc, funcs, nf);
	for (int32_t i = 0; i < nf; i++)
		if (decode_func(&dc, i)) goto fail;
	if (decode_finish(&dc)) goto fail;
	stack_needs(img, m);
	img->regs_per_thread = m->funcs[kernel].phys ? m->funcs[kernel].regs_per_thread
	                                             : img->funcs[0].nslot;
	img->rm_bs = m->funcs[kernel].rm_bs;
	img->rm_es = m->funcs[kernel].rm_es;
	free(funcs);
	decode_ctx_free(&dc);
	return img;
fail:
	free(funcs);
	decode_ctx_free(&dc);
	image_free(img);
	return NULL;
}

void image_free(Image *img)
{
	if (!img) return;
	free(img->code);
	free(img->imm);
	free(img->calls);
	free(img->mma);
	arena_free(img->arena);
	free(img);
}
