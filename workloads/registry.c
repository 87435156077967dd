/*
 * registry.c -- the table of built-in workloads, expanded from
 * workloads.def, and lookup by name.  Adding a workload touches
 * workloads.def and its own directory, nothing here.
 */
#include <string.h>

#include "workloads.h"

const Workload workloads[] = {
#define X(name, cat, standin, desc) { #name, cat, standin, desc, wl_ptx_##name, wl_##name##_run },
#include "workloads.def"
#undef X
};

const int nworkloads = (int)(sizeof workloads / sizeof workloads[0]);

const Workload *workload_find(const char *name)
{
	for (int i = 0; i < nworkloads; i++)
		if (!strcmp(workloads[i].name, name))
			return &workloads[i];
	return NULL;
}

static const char *const size_names[] = { "small", "default", "large" };

const char *wl_size_name(WlSize s)
{
	return (unsigned)s < 3 ? size_names[s] : "?";
}

int wl_size_parse(const char *s, WlSize *out)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, size_names[i])) {
			*out = (WlSize)i;
			return 0;
		}
	return -1;
}

const char *wl_category_name(WlCategory c)
{
	return c == WL_REGLIMITED ? "register-limited" : "insensitive";
}
