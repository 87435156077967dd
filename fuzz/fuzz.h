/*
 * fuzz.h -- what the libFuzzer targets in fuzz/ (`make fuzz`) share.
 *
 * Each target feeds one input to one of rfsim's readers the way the
 * command line does, and returns.  An input error (err_set, RF_EINPUT) is
 * the expected answer to most inputs and is not a finding; an internal
 * error (die(), assert, abort), a sanitizer report, a leak, or an input
 * that runs past libFuzzer's -timeout is.
 *
 * The readers that take a path (config_load, `rfsim analyze`) get the input
 * written to a file in a directory of this process's own (fuzz_file), the
 * way a user's file reaches them.  stdin reads /dev/null (an input naming
 * /dev/stdin must not wait for a terminal) and stdout goes to /dev/null
 * (analyze's report); stderr, where every input error is printed, is the
 * runner's business (fuzz/run closes it with -close_fd_mask=2: libFuzzer
 * and the sanitizers write their reports to a copy of it).
 */
#ifndef RFSIM_FUZZ_H
#define RFSIM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "base/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static char fuzz_tmp[256];   /* this process's directory for input files */

/* remove the directory and what was written there: the targets' files and
 * analyze's --json */
static inline void fuzz_cleanup(void)
{
	static const char *const names[] = {"in.ptx", "out.json", "fuzz.cfg"};
	char path[512];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", fuzz_tmp, names[i]);
		unlink(path);
	}
	rmdir(fuzz_tmp);
}

/* stdin and stdout to /dev/null, a private directory for files, and the
 * repository's configs/ (FUZZ_ROOT, set by the Makefile; through RFSIM_CONFIG_PATH)
 * for names like `include = hopper-h100` wherever the binary is run from */
static inline void fuzz_init(void)
{
	if (!freopen("/dev/null", "r", stdin) || !freopen("/dev/null", "w", stdout))
		die("cannot open /dev/null");
	const char *t = getenv("TMPDIR");
	snprintf(fuzz_tmp, sizeof fuzz_tmp, "%s/rfsim-fuzz.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(fuzz_tmp)) die("cannot make a directory %s", fuzz_tmp);
	atexit(fuzz_cleanup);
#ifdef FUZZ_ROOT
	setenv("RFSIM_CONFIG_PATH", FUZZ_ROOT "/configs", 0);
#endif
}

/* data as the file NAME in the private directory; its path (static) */
static inline const char *fuzz_file(const char *name, const void *data, size_t size)
{
	static char path[512];
	snprintf(path, sizeof path, "%s/%s", fuzz_tmp, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f)) die("cannot write %s", path);
	return path;
}

#endif
