/*
 * cli.h -- the pieces of the rfsim command line shared by its commands.
 *
 * main.c dispatches on the command word; args.c parses the options every
 * command shares (one table, so help and parsing cannot disagree) and
 * turns -c/-s/--functional into a Config; report.c prints the run summary
 * (the --stats JSON is api/report.c's); run_workload.c runs built-in workloads
 * (`run NAME`, `compare`); run_ptx.c and kargs.c run one kernel of a PTX
 * file (`run FILE.ptx`).
 *
 * Exit codes are base.h's return codes: 0 ok, 1 a runtime or kernel error
 * or a failed output check, 2 a usage or input error.  Every error ends
 * the command with one message on stderr: "rfsim: ..." for the CLI's own
 * complaints, the lower layer's located message (file:line:col: ...)
 * otherwise.
 */
#ifndef RFSIM_CLI_CLI_H
#define RFSIM_CLI_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "api/report.h"
#include "base/config.h"
#include "sim/gpu.h"

/* ---- options (args.c) ---------------------------------------------- */

enum {                       /* which commands accept an option (Opt.cmds) */
	FOR_WL = 1 << 0,         /* run WORKLOAD */
	FOR_PTX = 1 << 1,        /* run FILE.ptx */
	FOR_CMP = 1 << 2,        /* compare */
	FOR_CFG = 1 << 3,        /* config */
};

typedef struct Opts {
	const char *config;      /* -c NAME|FILE */
	const char **sets;       /* -s key=value, in order */
	int nsets;
	const char *stats;       /* --stats FILE.json */
	const char *size;        /* --size small|default|large */
	int functional;          /* --functional */
	const char *kernel;      /* -k (PTX) */
	const char *grid, *block;/* -g, -b (PTX) */
	const char **args;       /* -a, in order (PTX) */
	int nargs;
	const char *dump;        /* --dump DIR (PTX) */
	const char *shared;      /* --shared BYTES (PTX) */
	int cooperative;         /* --cooperative (PTX): cudaLaunchCooperativeKernel's launch */
	const char *models;      /* --models a,b,... (compare) */
	int jobs;                /* -j N (compare), 0 = processors online */
	const char *csv;         /* --csv FILE (compare) */
	const char *max_cycles;  /* --max-cycles N: -s sim.max_cycles=N */
	const char **pos;        /* positional words */
	int npos;
	int help;                /* -h, --help */
	unsigned seen;           /* bit k: option k of args.c's table was given */
} Opts;

/* a usage error: prints "rfsim: message" and returns CLI_EUSAGE, which every caller
 * passes up to main(); main points at the command's --help and exits with 2.  Above
 * every exit status a command returns (sweep's failed-point counts, 128 + a signal),
 * and 2 in its low byte */
enum { CLI_EUSAGE = 0x102 };
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int args_parse(int argc, char **argv, Opts *o);     /* RF_OK or exit code 2 */
void args_free(Opts *o);
/* usage error (2) if an option given does not apply to command cmd (FOR_*) */
int args_allow(const Opts *o, unsigned cmd, const char *what);
void args_help(FILE *f, unsigned cmds);             /* option lines for those commands */
int args_config(const Opts *o, Config *c);          /* RF_OK or 2 */
int parse_u64(const char *s, uint64_t *out);        /* decimal or 0x; -1 if bad */
int parse_dim3(const char *s, Dim3 *d);             /* "X[,Y[,Z]]"; -1 if bad */

/* ---- reports (report.c) -------------------------------------------- */

/* Report, Totals and the --stats writer report_json are api/report.h's */
void report_summary(FILE *f, const Report *r);

/* ---- commands ------------------------------------------------------ */

int cmd_run_workload(const Opts *o);                 /* run_workload.c */
int cmd_compare(const Opts *o);
void list_workloads(FILE *f);
int cmd_run_ptx(const Opts *o);                      /* run_ptx.c */
int cmd_config(const Opts *o);                       /* main.c */
int cmd_analyze(int argc, char **argv);              /* analyze.c */
int cmd_sweep(int argc, char **argv);                /* sweep.c */
int cmd_plot(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);            /* calibrate.c */

/* kernel arguments of `run FILE.ptx` (kargs.c) */
typedef struct KArg {
	char type[4];            /* "u32", "f64", ... */
	int is_buf;
	uint64_t count;          /* buffer elements */
	uint64_t bytes;          /* buffer bytes, or scalar size */
	uint64_t dptr;           /* buffer's device address */
	uint8_t scalar[8];       /* scalar value, little-endian */
} KArg;

int kargs_build(Gpu *g, const Opts *o, const KernelAttr *ka, const char *kname,
                uint64_t seed, KArg *out, uint8_t *params);
int kargs_dump(Gpu *g, const char *dir, const KArg *a, int n);

#endif
