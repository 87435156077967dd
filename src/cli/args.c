/*
 * args.c -- command-line options: one table drives parsing and help.
 *
 * Options may come before or after the positional words, as `-c NAME`,
 * `-cNAME`, `--config NAME` or `--config=NAME`; `--` ends them.  Parsing
 * knows nothing of commands: it records what it saw, and each command
 * then says which options apply to it (args_allow), so `run sgemm -k x`
 * is refused with a message naming -k rather than silently ignored.
 *
 * Numbers on the command line are plain decimal or 0x hex; config values
 * (-s) go through config_set, which knows each key's type and range.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "timing/timing.h"

typedef struct Opt {
	const char *shrt;        /* "-c", or NULL */
	const char *lng;         /* "--config" */
	const char *arg;         /* value's name in help; NULL for a flag */
	unsigned cmds;           /* FOR_* */
	const char *help;
} Opt;

enum { O_CONFIG, O_SET, O_STATS, O_SIZE, O_FUNCTIONAL, O_KERNEL, O_GRID, O_BLOCK,
       O_ARG, O_DUMP, O_SHARED, O_COOP, O_MODELS, O_JOBS, O_CSV, O_MAXCYC, O_HELP, NOPT };

static const Opt opts[NOPT] = {
	[O_CONFIG] = {"-c", "--config", "NAME|FILE", FOR_WL | FOR_PTX | FOR_CMP | FOR_CFG,
	              "configs/NAME.cfg or a config file [fermi-gtx480]"},
	[O_SET] = {"-s", "--set", "KEY=VALUE", FOR_WL | FOR_PTX | FOR_CMP | FOR_CFG,
	           "set a config key (repeatable; rfsim config --help)"},
	[O_STATS] = {NULL, "--stats", "FILE.json", FOR_WL | FOR_PTX,
	             "write the config and statistics as JSON"},
	[O_SIZE] = {NULL, "--size", "small|default|large", FOR_WL | FOR_CMP,
	            "workload input size [default]"},
	/* not compare: its table is timing statistics (compare.c refuses sim.mode=functional) */
	[O_FUNCTIONAL] = {NULL, "--functional", NULL, FOR_WL | FOR_PTX | FOR_CFG,
	                  "no timing model: -s sim.mode=functional"},
	[O_KERNEL] = {"-k", "--kernel", "NAME", FOR_PTX,
	              "kernel to run (needed if the file has several)"},
	[O_GRID] = {"-g", "--grid", "X[,Y[,Z]]", FOR_PTX, "grid size in blocks"},
	[O_BLOCK] = {"-b", "--block", "X[,Y[,Z]]", FOR_PTX, "block size in threads"},
	[O_ARG] = {"-a", "--arg", "ARG", FOR_PTX,
	           "next kernel parameter (see below)"},
	[O_DUMP] = {NULL, "--dump", "DIR", FOR_PTX,
	            "afterwards write buffer argument N to DIR/argN.bin"},
	[O_SHARED] = {NULL, "--shared", "BYTES", FOR_PTX, "dynamic shared memory per block"},
	[O_COOP] = {NULL, "--cooperative", NULL, FOR_PTX,
	            "cooperative launch: the whole grid resident, grid.sync() works"},
	[O_MODELS] = {NULL, "--models", "A,B,...", FOR_CMP,
	              "register-file models to compare [all of them]"},
	[O_JOBS] = {"-j", "--jobs", "N", FOR_CMP, "runs at once [processors online]"},
	[O_CSV] = {NULL, "--csv", "FILE", FOR_CMP, "also write the table as CSV"},
	[O_MAXCYC] = {NULL, "--max-cycles", "N", FOR_WL | FOR_PTX | FOR_CMP,
	              "stop a kernel after N cycles: -s sim.max_cycles=N"},
	[O_HELP] = {"-h", "--help", NULL, FOR_WL | FOR_PTX | FOR_CMP | FOR_CFG, "show help"},
};

/* "rfsim: message" on stderr; code */
static int say(int code, const char *fmt, va_list ap)
{
	fputs("rfsim: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	return code;
}

int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = say(CLI_EUSAGE, fmt, ap);
	va_end(ap);
	return rc;
}

int fail(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = say(code, fmt, ap);
	va_end(ap);
	return rc;
}

/* the option argv[*i] names, and its value; -1 and a usage error if bad */
static int match(int argc, char **argv, int *i, const char **val)
{
	const char *a = argv[*i];
	for (int k = 0; k < NOPT; k++) {
		const Opt *o = &opts[k];
		size_t ll = strlen(o->lng), sl = o->shrt ? strlen(o->shrt) : 0;
		const char *inl = NULL;
		if (!strcmp(a, o->lng) || (o->shrt && !strcmp(a, o->shrt)))
			inl = NULL;
		else if (o->arg && !strncmp(a, o->lng, ll) && a[ll] == '=')
			inl = a + ll + 1;
		else if (o->arg && o->shrt && !strncmp(a, o->shrt, sl) && a[1] != '-')
			inl = a + sl;
		else
			continue;
		if (!o->arg) {
			*val = NULL;
		} else if (inl) {
			*val = inl;
		} else if (*i + 1 < argc) {
			*val = argv[++*i];
		} else {
			usage_error("option %s needs a value (%s)", a, o->arg);
			return -1;
		}
		return k;
	}
	usage_error("unknown option '%s'", a);
	return -1;
}

static void push(const char ***v, int *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = s;
}

int args_parse(int argc, char **argv, Opts *o)
{
	memset(o, 0, sizeof *o);
	int dashdash = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (dashdash || a[0] != '-' || !a[1]) {
			push(&o->pos, &o->npos, a);
			continue;
		}
		if (!strcmp(a, "--")) {
			dashdash = 1;
			continue;
		}
		const char *v;
		int k = match(argc, argv, &i, &v);
		if (k < 0) return CLI_EUSAGE;       /* match() said why */
		o->seen |= 1u << k;
		switch (k) {
		case O_CONFIG: o->config = v; break;
		case O_SET: push(&o->sets, &o->nsets, v); break;
		case O_STATS: o->stats = v; break;
		case O_SIZE: o->size = v; break;
		case O_FUNCTIONAL: o->functional = 1; break;
		case O_KERNEL: o->kernel = v; break;
		case O_GRID: o->grid = v; break;
		case O_BLOCK: o->block = v; break;
		case O_ARG: push(&o->args, &o->nargs, v); break;
		case O_DUMP: o->dump = v; break;
		case O_SHARED: o->shared = v; break;
		case O_COOP: o->cooperative = 1; break;
		case O_MODELS: o->models = v; break;
		case O_JOBS: {
			uint64_t n;
			if (parse_u64(v, &n) || n < 1 || n > 4096)
				return usage_error("bad -j '%s' (expected 1 to 4096)", v);
			o->jobs = (int)n;
			break;
		}
		case O_CSV: o->csv = v; break;
		case O_MAXCYC: o->max_cycles = v; break;
		case O_HELP: o->help = 1; break;
		}
	}
	return RF_OK;
}

void args_free(Opts *o)
{
	free(o->sets);
	free(o->args);
	free(o->pos);
}

int args_allow(const Opts *o, unsigned cmd, const char *what)
{
	for (int k = 0; k < NOPT; k++)
		if ((o->seen >> k & 1) && !(opts[k].cmds & cmd))
			return usage_error("option %s does not apply to %s", opts[k].lng, what);
	return RF_OK;
}

void args_help(FILE *f, unsigned cmds)
{
	for (int k = 0; k < NOPT; k++) {
		const Opt *o = &opts[k];
		if (!(o->cmds & cmds)) continue;
		char left[64];
		snprintf(left, sizeof left, "%s%s%s%s%s", o->shrt ? o->shrt : "",
		         o->shrt ? ", " : "    ", o->lng, o->arg ? " " : "", o->arg ? o->arg : "");
		if (strlen(left) > 26)
			fprintf(f, "  %s\n  %-26s  %s\n", left, "", o->help);
		else
			fprintf(f, "  %-26s  %s\n", left, o->help);
	}
}

int args_config(const Opts *o, Config *c)
{
	config_defaults(c);
	if (o->config && config_load(c, o->config)) return fail(RF_EINPUT, "%s", err_msg());
	for (int i = 0; i < o->nsets; i++)
		if (config_set_kv(c, o->sets[i]))
			return fail(RF_EINPUT, "-s %s: %s", o->sets[i], err_msg());
	if (o->max_cycles && config_set(c, "sim.max_cycles", o->max_cycles))
		return fail(RF_EINPUT, "--max-cycles %s: %s", o->max_cycles, err_msg());
	if (o->functional) c->sim_mode = SIM_MODE_FUNCTIONAL;
	/* keys valid one by one may still not fit together (mem.line_bytes a power of two,
	   warps per scheduler...): say so now, as an input error, not at the first launch */
	if (c->sim_mode == SIM_MODE_TIMING && timing_check_config(c))
		return fail(RF_EINPUT, "%s", err_msg());
	return RF_OK;
}

int parse_u64(const char *s, uint64_t *out)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *p = hex ? s + 2 : s;
	if (!(hex ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p))) return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(p, &end, hex ? 16 : 10);
	if (errno || *end) return -1;
	*out = v;
	return 0;
}

int parse_dim3(const char *s, Dim3 *d)
{
	uint32_t v[3] = {1, 1, 1};
	const char *p = s;
	for (int i = 0; i < 3; i++) {
		char num[32];
		size_t len = strcspn(p, ",");
		uint64_t x;
		if (len == 0 || len >= sizeof num) return -1;
		memcpy(num, p, len);
		num[len] = 0;
		if (parse_u64(num, &x) || x == 0 || x > 0x7fffffff) return -1;
		v[i] = (uint32_t)x;
		p += len;
		if (!*p) break;
		if (i == 2) return -1;
		p++;
	}
	*d = (Dim3){v[0], v[1], v[2]};
	return 0;
}
