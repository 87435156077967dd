/* unit_main.c -- runs the registered unit tests; see unit.h. */
#include "unit.h"

#include <stdarg.h>
#include <stdlib.h>

typedef struct { const char *name; UnitFn fn; } Unit;
static Unit *units;
static int nunit, capunit;
int unit_failed_checks;

void unit_register(const char *name, UnitFn fn)
{
	if (nunit == capunit) {
		capunit = capunit ? capunit * 2 : 64;
		units = realloc(units, capunit * sizeof *units);
		if (!units) abort();
	}
	units[nunit++] = (Unit){name, fn};
}

void unit_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	unit_failed_checks++;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(((const Unit *)a)->name, ((const Unit *)b)->name);
}

int main(int argc, char **argv)
{
	int pass = 0, fail = 0;
	qsort(units, nunit, sizeof *units, cmp);
	for (int i = 0; i < nunit; i++) {
		if (argc > 1 && !strstr(units[i].name, argv[1])) continue;
		int before = unit_failed_checks;
		units[i].fn();
		if (unit_failed_checks == before) {
			pass++;
		} else {
			fail++;
			fprintf(stderr, "FAIL %s\n", units[i].name);
		}
	}
	printf("unit: %d passed, %d failed\n", pass, fail);
	return fail ? 1 : 0;
}
