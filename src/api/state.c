/*
 * state.c -- the process's one Runtime and its handle registry (state.h).
 *
 * The Runtime is a static object, so it exists before any call and needs
 * no creation that two threads could race on: its lock is initialised
 * statically (recursive, since a libcudart call may make others), and
 * every other field starts as zero, which means "nothing yet" (no config
 * chosen, cuInit not called, no context, no libcudart state).
 */
#include <stdlib.h>
#include <string.h>

#include "api/state.h"
#include "base/base.h"

static Runtime the_runtime = {.lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP};

Runtime *runtime(void) { return &the_runtime; }

/* the index of live handle key of that kind, or the number of handles */
static size_t find(const Registry *r, HandleKind kind, uint64_t key)
{
	size_t i = 0;
	while (i < r->nh && (r->h[i].kind != kind || r->h[i].key != key)) i++;
	return i;
}

void handle_add(HandleKind kind, uint64_t key, void *obj)
{
	Registry *r = &the_runtime.reg;
	VEC_RESERVE(r->h, r->caph, r->nh + 1);
	r->h[r->nh++] = (Handle){kind, key, obj};
}

void *handle_find(HandleKind kind, uint64_t key)
{
	const Registry *r = &the_runtime.reg;
	size_t i = find(r, kind, key);
	return i < r->nh ? r->h[i].obj : NULL;
}

void *handle_drop(HandleKind kind, uint64_t key)
{
	Registry *r = &the_runtime.reg;
	size_t i = find(r, kind, key);
	if (i == r->nh) return NULL;
	void *obj = r->h[i].obj;
	memmove(&r->h[i], &r->h[i + 1], (r->nh - i - 1) * sizeof *r->h);
	r->nh--;
	return obj;
}

void *handle_next(HandleKind kind, size_t *i)
{
	const Registry *r = &the_runtime.reg;
	while (*i < r->nh && r->h[*i].kind != kind) ++*i;
	return *i < r->nh ? r->h[(*i)++].obj : NULL;
}

void *handle_last(HandleKind kind)
{
	const Registry *r = &the_runtime.reg;
	for (size_t i = r->nh; i-- > 0;)
		if (r->h[i].kind == kind) return r->h[i].obj;
	return NULL;
}

void handle_drop_kind(HandleKind kind)
{
	Registry *r = &the_runtime.reg;
	size_t k = 0;
	for (size_t i = 0; i < r->nh; i++)
		if (r->h[i].kind != kind) r->h[k++] = r->h[i];
	r->nh = k;
}

void handle_free_kind(HandleKind kind)
{
	void *obj;
	for (size_t i = 0; (obj = handle_next(kind, &i));) free(obj);
	handle_drop_kind(kind);
}
