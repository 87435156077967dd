/*
 * ptx.c -- fuzz target: the PTX parser and the whole compiler half, as
 * `rfsim analyze FILE.ptx --listing --json FILE` runs them (cmd_analyze:
 * ptx_parse, pass_run_report under the config, then every per-kernel
 * analysis the report shows: occupancy, live profiles, register sharing's
 * launch, RegMutex's |Es| pick, LTRF's code size).
 *
 * Input: one settings byte, then the PTX text.  The byte chooses what the
 * pipeline does, so that mutations explore every register-file model's
 * passes (seeds: fuzz/run gives each corpus file a different byte):
 *
 *   bits 0-2  0 rf.model=baseline           4 rf.model=ltrf (intervals)
 *             1 rf.model=regmutex           5 ltrf, ltrf.partition=strand
 *             2 regmutex, regmutex.paired=1 6 ltrfplus, 4 regs per interval,
 *             3 rf.model=regshare             PREFETCH as instructions
 *                                           7 compiler.regalloc=0 (virtual)
 *   bits 3-4  -c fermi-gtx480, maxwell-ltrf, hopper-h100, gebhart-isca11
 *   bit 5     compiler.schedule=none (nvcc's order)
 *   bit 6     maxrregcount=20 (spills)
 *   bit 7     -b 1024 --shared 8192, compiler.pred_regs=4, and every
 *             compiler.dump letter (the dumps go to stderr)
 */
#include "fuzz.h"

int cmd_analyze(int argc, char **argv);   /* src/cli/analyze.c */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

static const char *const models[8][3] = {
	{"rf.model=baseline"},
	{"rf.model=regmutex"},
	{"rf.model=regmutex", "regmutex.paired=1"},
	{"rf.model=regshare"},
	{"rf.model=ltrf"},
	{"rf.model=ltrf", "ltrf.partition=strand"},
	{"rf.model=ltrfplus", "ltrf.regs_per_interval=4", "ltrf.prefetch_encoding=instruction"},
	{"rf.model=ideal", "compiler.regalloc=0"},
};
static const char *const configs[4] = {"fermi-gtx480", "maxwell-ltrf", "hopper-h100",
                                       "gebhart-isca11"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1) return 0;
	unsigned sel = data[0];
	char *argv[40];
	int argc = 0;
	char json[300];
	snprintf(json, sizeof json, "%s/out.json", fuzz_tmp);
	argv[argc++] = (char *)fuzz_file("in.ptx", data + 1, size - 1);
	argv[argc++] = "-c";
	argv[argc++] = (char *)configs[sel >> 3 & 3];
	for (int k = 0; k < 3 && models[sel & 7][k]; k++)
		argv[argc++] = "-s", argv[argc++] = (char *)models[sel & 7][k];
	if (sel & 32) argv[argc++] = "-s", argv[argc++] = "compiler.schedule=none";
	if (sel & 64) argv[argc++] = "-s", argv[argc++] = "maxrregcount=20";
	if (sel & 128) {
		argv[argc++] = "-b", argv[argc++] = "1024";
		argv[argc++] = "--shared", argv[argc++] = "8192";
		argv[argc++] = "-s", argv[argc++] = "compiler.pred_regs=4";
		argv[argc++] = "-s", argv[argc++] = "compiler.dump=cldsaprim";
	}
	argv[argc++] = "--listing";
	argv[argc++] = "--json";
	argv[argc++] = json;
	argv[argc] = NULL;
	cmd_analyze(argc, argv);
	err_clear();
	return 0;
}
