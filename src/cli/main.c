/*
 * main.c -- the rfsim command: dispatch on the first word.
 *
 *   rfsim list | run | compare | analyze | config | sweep | plot | reproduce | calibrate
 *   rfsim --help | --version
 *
 * Each command's options are parsed by args.c; the commands themselves
 * live in run_workload.c (run NAME, compare) and run_ptx.c (run FILE.ptx);
 * analyze.c, sweep.c (sweep, plot, reproduce) and calibrate.c parse their
 * own options.
 * `run` tells a PTX file from a workload name by its spelling: a word
 * ending in .ptx or containing a '/' is a file.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "base/json.h"
#include "timing/rf/rf.h"

static void help_main(FILE *f)
{
	fputs("rfsim " RFSIM_VERSION " -- a cycle-level GPU simulator for register-file "
	      "research\n\n"
	      "usage:\n"
	      "  rfsim list                        built-in workloads and configs\n"
	      "  rfsim run WORKLOAD [options]      run a built-in workload, check its output\n"
	      "  rfsim run FILE.ptx -g GRID -b BLOCK [-k KERNEL] [-a ARG]... [options]\n"
	      "                                    run one kernel of a PTX file\n"
	      "  rfsim compare [WORKLOAD]... [options]\n"
	      "                                    run the suite (or those), one row each\n"
	      "  rfsim analyze FILE.ptx|WORKLOAD [options]\n"
	      "                                    registers, spills, occupancy per kernel\n"
	      "  rfsim sweep FILE [-j N] [-o DIR] [--emit-slurm DIR]\n"
	      "                                    run a sweep file's points, resumably\n"
	      "  rfsim plot RESULTS.csv --x COL --y STAT [--series COL] -o FILE.png|svg\n"
	      "                                    plot a sweep's results with gnuplot\n"
	      "  rfsim reproduce EXPERIMENT|PAPER|all [--size S] [-j N] [-o DIR]\n"
	      "                                    regenerate a paper's figures, report.md\n"
	      "  rfsim calibrate [NAME]... [-c CONFIG] [--size S] [--json FILE] [--plot DIR]\n"
	      "                                    microbenchmarks against reference values\n"
	      "  rfsim config [-c NAME|FILE] [-s KEY=VALUE]...\n"
	      "                                    print the effective config as JSON\n"
	      "  rfsim config --help               every config key: default, range, meaning\n"
	      "  rfsim --help | --version\n\n"
	      "'rfsim run --help' and 'rfsim compare --help' list the options.\n"
	      "Exit status: 0 ok; 1 runtime or kernel error, or a failed output check;\n"
	      "2 usage or input error (bad option, config or PTX).\n", f);
}

/* the register-file models (src/base/models.def) */
static void help_models(FILE *f)
{
	fputs("\nregister-file models (-s rf.model=NAME; compare --models A,B):\n", f);
	for (int m = 0; m < NRF_MODELS; m++)
		fprintf(f, "  %-12s %s\n", rf_model_name[m], rf_model_desc[m]);
}

static void help_run(FILE *f)
{
	fputs("usage: rfsim run WORKLOAD [--size S] [--functional] [-c CONFIG] [-s K=V]...\n"
	      "                 [--stats FILE.json]\n"
	      "       rfsim run FILE.ptx [-k KERNEL] -g X[,Y[,Z]] -b X[,Y[,Z]] [-a ARG]...\n"
	      "                 [--shared BYTES] [--dump DIR] [-c CONFIG] [-s K=V]...\n"
	      "                 [--stats FILE.json]\n\n"
	      "options:\n", f);
	args_help(f, FOR_WL | FOR_PTX);
	help_models(f);
	fputs("\nkernel arguments (-a, one per kernel parameter, in order):\n"
	      "  TYPE:VALUE            scalar; TYPE u8..u64 s8..s64 b8..b64 f32 f64\n"
	      "                        (e.g. u32:1024, s64:-3, f32:2.5, f64:1e-3)\n"
	      "  buf:TYPE:COUNT:INIT   device buffer of COUNT elements; its address is\n"
	      "                        passed.  INIT: zero | iota (0,1,2,...) | rand (floats\n"
	      "                        uniform in [0,1), integers all bits; splitmix64 seeded\n"
	      "                        by -s seed=N) | file=PATH (raw little-endian bytes)\n\n"
	      "A PTX run checks nothing: exit 0 means the kernel ran to completion.\n", f);
}

static void help_compare(FILE *f)
{
	fputs("usage: rfsim compare [WORKLOAD]... [--models A,B,...] [--size S] [-j N]\n"
	      "                     [--csv FILE] [-c CONFIG] [-s K=V]...\n\n"
	      "Runs every built-in workload (or those named) under every register-file\n"
	      "model (or those named) on the timing model, checks each run's output\n"
	      "against its CPU reference, and prints one table: per workload and model\n"
	      "the cycles, IPC, IPC normalized to baseline, main register file reads and\n"
	      "writes, register-file energy normalized to the baseline design and the\n"
	      "check; then the geometric mean per model.  Exit 1 if any check fails.\n"
	      "\noptions:\n", f);
	args_help(f, FOR_CMP);
	help_models(f);
}

/* first comment line of a config file, as its one-line description */
static void config_desc(const char *name, char *out, size_t n)
{
	char path[4096];
	out[0] = 0;
	if (config_find(name, path, sizeof path)) return;
	FILE *f = fopen(path, "r");
	if (!f) return;
	char line[256];
	if (fgets(line, sizeof line, f) && line[0] == '#') {
		char *s = line + 1 + (line[1] == ' ');
		s[strcspn(s, "\r\n")] = 0;
		snprintf(out, n, "%s", s);
	}
	fclose(f);
}

static int cmd_list(int argc, char **argv)
{
	if (argc == 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
		puts("usage: rfsim list\n\nBuilt-in workloads (name, category: register-limited "
		     "or insensitive,\nthe paper benchmark it stands in for, description), then the "
		     "configs in configs/.");
		return RF_OK;
	}
	if (argc > 0) return usage_error("list takes no arguments ('%s')", argv[0]);
	printf("workloads:\n");
	list_workloads(stdout);
	printf("configs:\n");
	char names[64][64];
	int n = config_names(names, 64);
	for (int i = 0; i < n; i++) {
		char desc[256];
		config_desc(names[i], desc, sizeof desc);
		printf("  %-16s %s\n", names[i], desc);
	}
	return RF_OK;
}

int cmd_config(const Opts *o)
{
	int rc;
	if (o->help) {
		config_help(stdout);
		return RF_OK;
	}
	if ((rc = args_allow(o, FOR_CFG, "config"))) return rc;
	if (o->npos) return usage_error("config takes no arguments ('%s')", o->pos[0]);
	Config cfg;
	if ((rc = args_config(o, &cfg))) return rc;
	Json *j = json_open(stdout);
	config_json(&cfg, j);
	return json_close(j);
}

static int is_ptx_path(const char *s)
{
	size_t n = strlen(s);
	return strchr(s, '/') || (n > 4 && !strcmp(s + n - 4, ".ptx"));
}

/* run, compare or config, after their options are parsed */
static int dispatch_opts(const char *cmd, const Opts *o)
{
	if (!strcmp(cmd, "config")) return cmd_config(o);
	if (!strcmp(cmd, "compare")) {
		if (!o->help) return cmd_compare(o);
		help_compare(stdout);
		return RF_OK;
	}
	if (o->help) {
		help_run(stdout);
		return RF_OK;
	}
	if (o->npos == 0) return usage_error("run needs a workload name or a PTX file");
	return is_ptx_path(o->pos[0]) ? cmd_run_ptx(o) : cmd_run_workload(o);
}

static int dispatch(const char *cmd, int argc, char **argv)
{
	if (!strcmp(cmd, "list")) return cmd_list(argc, argv);
	if (!strcmp(cmd, "analyze")) return cmd_analyze(argc, argv);
	if (!strcmp(cmd, "sweep")) return cmd_sweep(argc, argv);
	if (!strcmp(cmd, "plot")) return cmd_plot(argc, argv);
	if (!strcmp(cmd, "reproduce")) return cmd_reproduce(argc, argv);
	if (!strcmp(cmd, "calibrate")) return cmd_calibrate(argc, argv);
	int known = !strcmp(cmd, "run") || !strcmp(cmd, "compare") || !strcmp(cmd, "config");
	if (!known) return usage_error("unknown command '%s'", cmd);
	Opts o;
	int rc = args_parse(argc, argv, &o);
	if (!rc) rc = dispatch_opts(cmd, &o);
	args_free(&o);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		help_main(stderr);
		return RF_EINPUT;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		help_main(stdout);
		return RF_OK;
	}
	if (!strcmp(cmd, "--version")) {
		printf("rfsim %s\n", RFSIM_VERSION);
		return RF_OK;
	}
	int rc = cmd[0] == '-' ? usage_error("unknown option '%s'", cmd)
	                       : dispatch(cmd, argc - 2, argv + 2);
	fflush(stdout);
	if (rc == CLI_EUSAGE) {                  /* point at the command's --help */
		static const char *const cmds[] = {"list", "analyze", "sweep", "plot", "reproduce",
		                                   "calibrate", "run", "compare", "config"};
		const char *help = NULL;
		for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
			if (!strcmp(cmd, cmds[i])) help = cmds[i];
		if (help) fprintf(stderr, "try 'rfsim %s --help'\n", help);
		else fputs("try 'rfsim --help'\n", stderr);
		rc = RF_EINPUT;
	}
	return rc;
}
