/*
 * exp.h -- experiments: sweeps, their results, plots, and `reproduce`.
 *
 * Architects run hundreds of simulations per figure.  This layer turns a
 * small declarative sweep file into simulation points (spec.c), runs them
 * as child `rfsim run` processes in parallel with crash-safe per-point
 * results (runner.c), gathers the points' "totals" into one CSV
 * (results.c), draws plots through gnuplot (plot.c), and strings all of
 * it together into the experiments of experiments.def (reproduce.c).
 *
 * Data flows one way:
 *
 *   sweep file --spec.c--> Sweep --sweep_points--> Point[] (inputs + id)
 *        --runner.c--> DIR/points/ID.json (one `rfsim run --stats` each)
 *        --results.c--> DIR/results.csv --plot.c--> PlotTable --> gnuplot
 *
 * A point is a pure function of its inputs: workload, size and the
 * effective config.  Its id hashes exactly those (the effective config
 * as `rfsim config` prints it, so two spellings of one machine share a
 * point), and a finished point's file is never rewritten: rerunning a
 * sweep computes only what is missing.  Only `sim_seconds` and the
 * `*_per_sec` rates measure the host rather than the simulated machine.
 */
#ifndef RFSIM_EXP_EXP_H
#define RFSIM_EXP_EXP_H

#include <stdio.h>

/* ---- sweep files (spec.c) ------------------------------------------ */

typedef struct SweepAxis {
	char *key;               /* config key: "rf.mrf_latency" */
	char *column;            /* CSV column: the key, or key "_x" for a relative axis */
	int relative;            /* `*=`: each value multiplies the config's own value */
	char **vals;             /* values as spelt (ranges expanded) */
	int nvals;
	char **vsets;            /* the variant axis (key "variant"): per value, its
	                            settings "KEY=VALUE KEY=VALUE ..."; NULL for a key axis */
	int *vlines;             /* the variant axis: per value, its line in the file */
	int line;                /* its line in the sweep file (the variant axis: the first) */
} SweepAxis;

typedef struct Sweep {
	char *name;              /* `name =`, else the file's base name */
	char **workloads;        /* `workloads =` (all: the suite) */
	int nworkloads;
	char **configs;          /* `configs =` (all: every configs/NAME.cfg) */
	char **config_args;      /* what -c gets: the name, or the file's absolute path */
	int nconfigs;
	char **sizes;            /* `size =`; default "default" */
	int nsizes;
	char **sets;             /* `set KEY = VALUE` as "KEY=VALUE", every point */
	int nsets;
	SweepAxis *axes;         /* `axis KEY = ...` in file order */
	int naxes;
	char **missing;          /* keys this build does not know, and "key=value" for
	                            choices it does not offer (lenient parse only) */
	int nmissing;
	int missing_axis;        /* an axis (or a set choice) among them: cannot run */
	int list_line[3];        /* lines of workloads, configs, size (0: default) */
} Sweep;

/* the most points a sweep may have: preparing them takes seconds (each point's
 * config is built to hash it), and running them, CPU-years */
enum { SWEEP_MAX_POINTS = 100000 };

typedef struct Point {
	int index;               /* position in the cross product */
	const char *workload, *config, *size;
	const char *config_arg;  /* -c CONFIG_ARG (Sweep.config_args) */
	const char **vals;       /* per axis, as spelt (Sweep.axes order) */
	char **sets;             /* the -s list: Sweep.sets, then the axes' values */
	int nsets;
	char id[48];             /* "WORKLOAD-<16 hex digits>": file name in points/ */
} Point;

enum { SWEEP_STRICT = 0, SWEEP_LENIENT = 1 };  /* unknown keys: error / noted */

/* parse sweep-file text; RF_OK, or RF_EINPUT with err_msg() "where:line: ..." */
int sweep_parse(const char *text, const char *where, int lenient, Sweep *s);
int sweep_load(const char *path, Sweep *s);       /* read and parse a file (strict) */
void sweep_free(Sweep *s);
Point *sweep_points(const Sweep *s, int *n);      /* the cross product, ids computed */
void sweep_points_free(Point *p, int n);
void point_label(const Sweep *s, const Point *p, char *buf, size_t n);
/* number of CSV input columns (workload, config, size, axes) and their names */
int sweep_columns(const Sweep *s, const char **cols, int max);
const char *point_column(const Point *p, int col);  /* value of input column col */

/* ---- running a sweep (runner.c) ------------------------------------ */

struct PointResult;

typedef struct SweepOpts {
	const char *dir;         /* results directory (created) */
	int jobs;                /* parallel simulations, >= 1 */
	int chunk, task;         /* chunk > 0: run only points [task*chunk, +chunk) */
	double timeout_s;        /* per point; 0 = none */
	int progress;            /* 1: progress on stderr (bar on a terminal) */
	/* done: called with each point's result as it finishes or fails, or is found
	   finished already, for a caller printing its own table (`rfsim compare`), which
	   lists failures itself: with done set, the runner prints no list of them */
	void (*done)(void *ctx, const Point *p, const struct PointResult *r);
	void *ctx;
	/* order: NULL, or the points in the order to start them (a permutation of the
	   sweep's points; `rfsim compare` starts a workload under every model before the
	   next workload, so its rows print as they finish).  Results do not depend on it */
	const int *order;
} SweepOpts;

typedef struct SweepStats {
	int total;               /* points in scope */
	int reused;              /* finished before this run */
	int computed;            /* finished by this run */
	int failed;              /* failed in this run */
	int interrupted;         /* stopped by a signal: its number, else 0 */
	double seconds;
} SweepStats;

/* run the points not yet finished; RF_OK (even with failed points), or an
 * error code with a message printed (cannot create DIR, ...) */
int sweep_run(const Sweep *s, const SweepOpts *o, SweepStats *st);
/* write SDIR/NAME.slurm: a job array of ceil(points / *chunk) tasks (*chunk
 * <= 0: chosen, and set) */
int sweep_emit_slurm(const Sweep *s, const char *sweep_file, const char *results_dir,
                     const char *slurm_dir, int *chunk, char *script, size_t n);

/* ---- results (results.c) ------------------------------------------- */

typedef struct PointResult {
	int status;              /* PR_NONE, PR_OK, PR_FAILED */
	char **keys, **vals;     /* the stats file's "totals", flattened, as text */
	int nstats;
	char *error;             /* failed: one line */
} PointResult;

enum { PR_NONE, PR_OK, PR_FAILED };

/* read DIR/points/ID.json (ok) or ID.failed.json + ID.err (failed) */
int result_load(const char *dir, const Point *p, PointResult *r);
void result_free(PointResult *r);
/* DIR/results.csv from the points' results, written to a temp file and renamed */
int results_write_csv(const char *dir, const Sweep *s, const Point *pts,
                      const PointResult *res, int n);
/* write a file by temporary + fsync + rename; -1 (errno) on failure */
int exp_write_atomic(const char *path, const char *text, size_t len);
int exp_mkdirs(const char *path);                  /* mkdir -p; -1 (errno) */
/* a host-dependent statistic (sim_seconds, *_per_sec) */
int stat_is_host_timing(const char *key);

typedef struct Csv {
	char **cols;             /* header */
	int ncols;
	char **cells;            /* row r, column c: cells[r * ncols + c] */
	int nrows;
	int ninputs;             /* columns before "status": the points' inputs */
} Csv;

int csv_read(const char *path, Csv *c);           /* RF_EINPUT with err_msg() */
void csv_free(Csv *c);
int csv_col(const Csv *c, const char *name);      /* index, or -1 */
void csv_field(FILE *f, const char *s);           /* one field, quoted if needed */

/* a printed table's column: the text before it, its width (0: as long as the
 * cell), left or right aligned.  plot's tables and `rfsim compare`'s print
 * their rows with exp_table_row, as text or (md) a Markdown row */
typedef struct TabCol {
	const char *sep;         /* before the cell (text only; Markdown uses " | ") */
	int width;
	int left;                /* 1: left-aligned */
} TabCol;

void exp_table_row(FILE *f, const TabCol *col, const char *const *cell, int n, int md);

/* ---- plots (plot.c) ------------------------------------------------ */

enum { STYLE_AUTO, STYLE_BARS, STYLE_LINES };

typedef struct PlotSpec {
	const char *x, *y;       /* --x COLUMN, --y STAT */
	const char *series;      /* --series COLUMN, or NULL */
	const char *norm;        /* --normalize-to COLUMN=VALUE, or NULL */
	const char **where;      /* --where COLUMN=VALUE filters */
	int nwhere;
	int geomean;             /* --geomean: a "gmean" group of bars */
	int arith;               /* --mean arith: arithmetic means throughout */
	int style;               /* STYLE_* */
	const char *title, *xlabel, *ylabel;
	const char *out;         /* FILE.png | FILE.svg */
} PlotSpec;

typedef struct PlotTable {
	char **xs;               /* x values, in order (the "gmean" group last) */
	int nx;
	char **series;           /* series names */
	int ns;
	double *v;               /* v[x * ns + s]; NaN where no row */
	int nrows;               /* rows that went into it */
	int lines;               /* drawn as lines (numeric x), else bars */
	int gmean;               /* xs[nx-1] is the geometric mean group */
	int arith;               /* a group held a value <= 0: arithmetic mean used */
	int dropped;             /* rows without a normalization partner */
} PlotTable;

/* parse `plot` options (argv without the CSV); RF_OK or RF_EINPUT printed */
int plot_parse_opts(int argc, char **argv, PlotSpec *p, const char **csv, int *help);
void plot_help(FILE *f);
int plot_table(const Csv *c, const PlotSpec *p, PlotTable *t);   /* RF_EINPUT + err_msg */
int plot_y_found(const Csv *c, const char *y);  /* --y's columns are all in c */
void plot_table_free(PlotTable *t);
void plot_table_print(FILE *f, const PlotTable *t, const PlotSpec *p, int markdown);
int plot_gnuplot_found(void);
int plot_draw(const PlotTable *t, const PlotSpec *p);            /* RF_OK or an error */
double plot_value(const PlotTable *t, const char *x, int series);  /* NaN if none */

/* ---- experiments (reproduce.c) ------------------------------------- */

typedef struct ReproOpts {
	const char *what;        /* an experiment, a paper, or "all" */
	const char *size;        /* small | default | large */
	const char *workloads;   /* comma list replacing the experiments' suites, or NULL */
	const char *dir;         /* output directory */
	int jobs;
	int list;                /* --list: print the registry */
} ReproOpts;

int exp_reproduce(const ReproOpts *o);            /* exit code */
void exp_list(FILE *f);

#endif
