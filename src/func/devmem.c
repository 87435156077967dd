/* devmem.c -- device memory allocations; see devmem.h for the design. */
#include "func/devmem.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "func/kernel.h"

enum { ALIGN = 256, GAP = 64 * 1024 };

void gmem_init(GMem *g, uint64_t capacity)
{
	*g = (GMem){0};
	g->next = GPU_GLOBAL_BASE;
	g->capacity = capacity;
	g->heap_limit = GMEM_HEAP_BYTES;
	/* one dummy entry so that a hint of 0 is always a valid index */
	g->cap = 16;
	g->a = xcalloc(g->cap, sizeof *g->a);
	g->n = 0;
}

void gmem_fini(GMem *g)
{
	for (int32_t i = 0; i < g->n; i++) free(g->a[i].host);
	free(g->a);
	*g = (GMem){0};
}

int gmem_alloc(GMem *g, uint64_t bytes, uint64_t *dptr)
{
	if (bytes == 0) bytes = 1;
	if (bytes > g->capacity - g->used) {
		err_set("out of device memory: %llu bytes requested, %llu of %llu in use "
		        "(config key gpu.global_bytes)", (unsigned long long)bytes,
		        (unsigned long long)g->used, (unsigned long long)g->capacity);
		return RF_ERUNTIME;
	}
	uint64_t size = (bytes + ALIGN - 1) & ~(uint64_t)(ALIGN - 1);
	if (g->next + size + GAP > GPU_GLOBAL_END) {
		err_set("device address space exhausted");
		return RF_ERUNTIME;
	}
	uint64_t slack = 0;
	if (g->page) {                        /* the rest of the last page, this side of the gap */
		uint64_t end = g->next + bytes, pend = (end + g->page - 1) / g->page * g->page;
		slack = (pend < g->next + size + GAP ? pend : g->next + size + GAP) - end;
	}
	uint64_t backed = bytes + slack > size ? bytes + slack : size;
	uint8_t *host = calloc(1, backed);
	if (!host) {
		err_set("out of host memory allocating %llu bytes of device memory",
		        (unsigned long long)backed);
		return RF_ERUNTIME;
	}
	VEC_RESERVE(g->a, g->cap, (size_t)g->n + 1);
	g->a[g->n++] = (Alloc){g->next, bytes, host, 1, 0, slack};
	*dptr = g->next;
	g->next += size + GAP;
	g->used += bytes;
	return RF_OK;
}

int32_t gmem_find(const GMem *g, uint64_t addr, uint64_t n)
{
	int32_t lo = 0, hi = g->n - 1;
	while (lo <= hi) {
		int32_t mid = (lo + hi) / 2;
		const Alloc *a = &g->a[mid];
		if (addr < a->base) hi = mid - 1;
		else if (addr - a->base >= a->size) lo = mid + 1;
		else return (a->live && n <= a->size - (addr - a->base)) ? mid : -1;
	}
	return -1;
}

void gmem_map_pages(GMem *g, uint64_t page) { g->page = page; }

uint8_t *gmem_slack_ptr(const GMem *g, uint64_t addr, uint64_t n)
{
	int32_t lo = 0, hi = g->n - 1, at = -1;
	while (lo <= hi) {                    /* the last allocation at or below addr */
		int32_t mid = (lo + hi) / 2;
		if (g->a[mid].base <= addr) at = mid, lo = mid + 1;
		else hi = mid - 1;
	}
	if (at < 0) return NULL;
	const Alloc *a = &g->a[at];
	uint64_t off = addr - a->base, span = a->size + a->slack;
	return a->live && a->slack && off < span && n <= span - off ? a->host + off : NULL;
}

int gmem_free(GMem *g, uint64_t dptr)
{
	int32_t i = gmem_find(g, dptr, 1);
	if (i < 0 || g->a[i].base != dptr || g->a[i].heap) {
		err_set("invalid device pointer 0x%llx: not the start of a live allocation%s",
		        (unsigned long long)dptr, i >= 0 && g->a[i].heap ?
		        " (device-side malloc's memory is freed by device-side free)" : "");
		return RF_EINPUT;
	}
	g->a[i].live = 0;
	g->used -= g->a[i].size;
	free(g->a[i].host);
	g->a[i].host = NULL;
	return RF_OK;
}

uint64_t gmem_digest(const GMem *g)
{
	uint64_t h = 0xcbf29ce484222325u;                 /* FNV-1a, a word at a time */
	for (int32_t i = 0; i < g->n; i++) {
		const Alloc *a = &g->a[i];
		if (!a->live) continue;
		h = (h ^ a->base) * 0x100000001b3u;
		h = (h ^ a->size) * 0x100000001b3u;
		uint64_t k = 0, w;
		for (; k + 8 <= a->size; k += 8) {
			memcpy(&w, a->host + k, 8);
			h = (h ^ w) * 0x100000001b3u;
		}
		for (; k < a->size; k++) h = (h ^ a->host[k]) * 0x100000001b3u;
	}
	return h;
}

int gmem_heap_alloc(GMem *g, uint64_t bytes, uint64_t *dptr)
{
	*dptr = 0;
	if (bytes == 0 || g->heap_used > g->heap_limit || bytes > g->heap_limit - g->heap_used)
		return RF_OK;
	if (gmem_alloc(g, bytes, dptr)) {
		*dptr = 0;
		return RF_OK;
	}
	g->a[g->n - 1].heap = 1;
	g->heap_used += bytes;
	return RF_OK;
}

int gmem_heap_free(GMem *g, uint64_t dptr)
{
	if (!dptr) return RF_OK;
	int32_t i = gmem_find(g, dptr, 1);
	if (i < 0 || g->a[i].base != dptr || !g->a[i].heap) return RF_EINPUT;
	g->heap_used -= g->a[i].size;
	g->a[i].heap = 0;
	return gmem_free(g, dptr);
}
