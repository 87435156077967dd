/*
 * sweep.c -- fuzz target: sweep files (src/exp/spec.c), read as `rfsim
 * sweep FILE` reads them (strict) and as `reproduce` reads its experiments
 * (lenient), then turned into their points: each point's effective config
 * built and hashed, its label and CSV columns.
 *
 * Input: the sweep file's text.  Like read_file, a NUL byte is refused
 * before the parser sees it.  Preparing a sweep's points takes time in
 * proportion to their number (up to SWEEP_MAX_POINTS, seconds); the target
 * prepares those of sweeps of at most FUZZ_POINTS points, so that each
 * input runs in milliseconds.
 */
#include "exp/exp.h"
#include "fuzz.h"

enum { FUZZ_POINTS = 2000 };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

static long long npoints(const Sweep *s)
{
	long long n = (long long)s->nconfigs * s->nsizes * s->nworkloads;
	for (int a = 0; a < s->naxes; a++) n *= s->axes[a].nvals;
	return n;
}

static void points(const Sweep *s)
{
	if (npoints(s) > FUZZ_POINTS || s->missing_axis) return;
	int n;
	Point *p = sweep_points(s, &n);
	const char *cols[64];
	int ncol = sweep_columns(s, cols, 64);
	char label[256];
	for (int i = 0; i < n; i++) {
		point_label(s, &p[i], label, sizeof label);
		for (int c = 0; c < ncol; c++)
			if (!point_column(&p[i], c)) die("point %d has no column %s", i, cols[c]);
	}
	sweep_points_free(p, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (memchr(data, 0, size)) return 0;
	char *text = xstrndup((const char *)data, size);
	for (int lenient = 0; lenient < 2; lenient++) {
		Sweep s;
		if (sweep_parse(text, "fuzz.sweep", lenient, &s) == RF_OK) {
			points(&s);
			sweep_free(&s);
		}
		err_clear();
	}
	free(text);
	return 0;
}
