/*
 * runner.c -- run a sweep's points as child processes, crash-safely.
 *
 * Each point is one child: the running executable itself
 * (/proc/self/exe, so a rebuild mid-sweep cannot mix two simulators)
 * as `rfsim run WORKLOAD --size S -c CONFIG -s K=V... --stats TMP`, its
 * stdout discarded and its stderr kept in a log.  Up to -j children run
 * at once; the parent sleeps in sigtimedwait on SIGCHLD (and on SIGINT,
 * SIGTERM, SIGHUP, which stop the sweep cleanly), waking every quarter
 * second to redraw the progress bar and enforce --timeout.
 *
 * Crash safety comes from the file system, not from the parent staying
 * alive.  A point is finished exactly when DIR/points/ID.json exists:
 * the child writes its stats to a temporary name (.tmp-HOST-PID-ID.json),
 * and only after it exits with status 0 does the parent fsync that file,
 * rename() it into place (atomic) and fsync the directory.  A SIGKILL or
 * power loss therefore loses at most the points in flight, whose
 * temporaries the next run deletes; children die with the parent
 * (PR_SET_PDEATHSIG) instead of running on as orphans.  The CSV is never
 * appended to: it is regenerated whole from the points' files (written
 * to a temporary and renamed, at most every two seconds and at the end),
 * so it can never hold half a row.
 *
 * A failed point (non-zero exit, a signal, a timeout) leaves ID.err --
 * the command, how it ended and the tail of its stderr -- and, when the
 * child got as far as writing statistics (a failed output check),
 * ID.failed.json.  Failed points are run again by the next run.
 *
 * A caller that prints results as they come (`rfsim compare`) passes a
 * done() callback, called with each point's result as its child ends (or
 * as the point is found finished already).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"
#include "exp/exp.h"

enum { PLEN = PATH_MAX + 512 };   /* a path under DIR/points: room for any name */

typedef struct Job {
	pid_t pid;               /* 0: slot free */
	int point;               /* index into the points */
	double t0;               /* start, now_sec() */
	char json[PLEN];         /* temporary stats file */
	char log[PLEN];          /* temporary stderr */
	int timed_out;           /* killed for running past --timeout */
} Job;

typedef struct Run {
	const Sweep *s;
	const SweepOpts *o;
	Point *pts;
	PointResult *res;
	int npts, lo, hi;        /* points in scope: [lo, hi) */
	Job *jobs;
	int running, next;       /* children alive; next point to consider */
	char pdir[PATH_MAX];     /* DIR/points */
	char host[64];
	int tty;
	double t0, last_csv, last_draw;
	SweepStats *st;
} Run;

/* ---- files ----------------------------------------------------------- */

static void sync_path(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0) return;
	fsync(fd);
	close(fd);
}

/* is pid a live process (not gone, not a zombie awaiting its reaper)? */
static int alive(long pid)
{
	char path[64], buf[256];
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f) return kill((pid_t)pid, 0) == 0 || errno != ESRCH;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *paren = strrchr(buf, ')');      /* "pid (comm) S ..." */
	return !paren || paren[1] != ' ' || paren[2] != 'Z';
}

/* delete temporaries that children of dead sweeps on this host left */
static void clean_stale(Run *r)
{
	DIR *d = opendir(r->pdir);
	if (!d) return;
	char prefix[96];
	int pl = snprintf(prefix, sizeof prefix, ".tmp-%s-", r->host);
	for (struct dirent *e; (e = readdir(d));) {
		if (strncmp(e->d_name, prefix, (size_t)pl)) continue;
		long pid = strtol(e->d_name + pl, NULL, 10);
		if (pid > 0 && !alive(pid)) {
			char path[PLEN];
			snprintf(path, sizeof path, "%s/%s", r->pdir, e->d_name);
			unlink(path);
		}
	}
	closedir(d);
}

/* ---- progress -------------------------------------------------------- */

static void hms(char *buf, size_t n, double s)
{
	long t = (long)(s + 0.5);
	if (t >= 3600) snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

static void draw_bar(Run *r)
{
	SweepStats *st = r->st;
	int done = st->reused + st->computed + st->failed, w = 28;
	int fill = st->total ? done * w / st->total : w;
	char bar[64], el[32], eta[32] = "--";
	for (int i = 0; i < w; i++) bar[i] = i < fill ? '#' : '.';
	bar[w] = 0;
	double now = now_sec(), el_s = now - r->t0;
	int ran = st->computed + st->failed, left = st->total - done;
	hms(el, sizeof el, el_s);
	if (ran > 0) hms(eta, sizeof eta, el_s / ran * left);
	fprintf(stderr, "\r\033[K%s [%s] %d/%d", r->s->name, bar, done, st->total);
	if (st->failed) fprintf(stderr, ", %d failed", st->failed);
	fprintf(stderr, "  %s elapsed, ETA %s", el, left ? eta : "0:00");
	fflush(stderr);
	r->last_draw = now;
}

/* a message on its own line (above the bar on a terminal) */
static void say(Run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Run *r, const char *fmt, ...)
{
	if (!r->o->progress) return;
	va_list ap;
	if (r->tty) fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (r->tty) draw_bar(r);
}

/* ---- children -------------------------------------------------------- */

static char **child_argv(const Point *p, const char *stats)
{
	char **av = xcalloc((size_t)p->nsets * 2 + 12, sizeof *av);
	int n = 0;
	av[n++] = "rfsim";
	av[n++] = "run";
	av[n++] = (char *)p->workload;
	av[n++] = "--size";
	av[n++] = (char *)p->size;
	av[n++] = "-c";
	av[n++] = (char *)p->config_arg;
	for (int i = 0; i < p->nsets; i++) {
		av[n++] = "-s";
		av[n++] = p->sets[i];
	}
	av[n++] = "--stats";
	av[n++] = (char *)stats;
	return av;
}

static void child(const Point *p, const Job *j, pid_t parent, const sigset_t *mask)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent) _exit(127);
	sigprocmask(SIG_SETMASK, mask, NULL);
	int in = open("/dev/null", O_RDONLY), out = open("/dev/null", O_WRONLY);
	int err = open(j->log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (in < 0 || out < 0 || err < 0) _exit(127);
	dup2(in, 0);
	dup2(out, 1);
	dup2(err, 2);
	char **av = child_argv(p, j->json);
	execv("/proc/self/exe", av);
	fprintf(stderr, "rfsim: cannot run /proc/self/exe: %s\n", strerror(errno));
	_exit(127);
}

static void tmp_names(Run *r, Job *j, pid_t pid, const Point *p)
{
	snprintf(j->json, sizeof j->json, "%s/.tmp-%s-%d-%s.json", r->pdir, r->host, (int)pid,
	         p->id);
	snprintf(j->log, sizeof j->log, "%s/.tmp-%s-%d-%s.log", r->pdir, r->host, (int)pid, p->id);
}

static int start(Run *r, Job *j, int point, const sigset_t *mask)
{
	const Point *p = &r->pts[point];
	pid_t parent = getpid();
	j->point = point;
	j->t0 = now_sec();
	j->timed_out = 0;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "rfsim: fork: %s\n", strerror(errno));
		return RF_ERUNTIME;
	}
	tmp_names(r, j, pid ? pid : getpid(), p);
	if (pid == 0) child(p, j, parent, mask);
	j->pid = pid;
	r->running++;
	return RF_OK;
}

/* n bytes of f from offset at (fewer at its end) as a string */
static char *read_at(FILE *f, long at, size_t n)
{
	char *s = xmalloc(n + 1);
	size_t got = fseek(f, at, SEEK_SET) ? 0 : fread(s, 1, n, f);
	s[got] = 0;
	return s;
}

/* a child's stderr for the record: all of it if short, else its first 2 KB
 * (where rfsim's own message is) and its last 4 KB (the end of a dump); only
 * those are read, however much a child wrote */
static char *read_log(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	if (!f || fstat(fileno(f), &st)) {
		if (f) fclose(f);
		return xstrdup("");
	}
	long len = (long)st.st_size;
	if (len <= 6144) {
		char *all = read_at(f, 0, (size_t)len);
		fclose(f);
		return all;
	}
	char *head = read_at(f, 0, 2048), *tail = read_at(f, len - 4096, 4096);
	fclose(f);
	char *out = xmalloc(6144 + 64);
	snprintf(out, 6144 + 64, "%s\n[... %ld bytes ...]\n%s", head, len - 6144, tail);
	free(head);
	free(tail);
	return out;
}

/* one line saying why a point failed: how it ended, and its first complaint */
static void error_line(const char *how, const char *log, char *out, size_t n)
{
	const char *best = NULL;
	size_t blen = 0;
	for (const char *l = log; *l;) {
		size_t len = strcspn(l, "\n");
		int hint = !strncmp(l, "try 'rfsim", 10);
		if (len && !hint && !best) best = l, blen = len;
		l += len + (l[len] == '\n');
	}
	if (best) snprintf(out, n, "%s: %.*s", how, (int)(blen > 400 ? 400 : blen), best);
	else snprintf(out, n, "%s", how);
}

static void how_ended(const Job *j, int status, const SweepOpts *o, char *how, size_t n)
{
	if (j->timed_out)
		snprintf(how, n, "timed out after %g s", o->timeout_s);
	else if (WIFSIGNALED(status))
		snprintf(how, n, "killed by signal %d (%s)", WTERMSIG(status),
		         strsignal(WTERMSIG(status)));
	else
		snprintf(how, n, "exit %d", WEXITSTATUS(status));
}

static void record_failure(Run *r, const Job *j, int status)
{
	const Point *p = &r->pts[j->point];
	char how[128], line[600], label[512], path[PLEN], *log = read_log(j->log);
	how_ended(j, status, r->o, how, sizeof how);
	error_line(how, log, line, sizeof line);
	point_label(r->s, p, label, sizeof label);
	size_t cap = strlen(log) + strlen(line) + strlen(label) + 4096;
	char *text = xmalloc(cap), **av = child_argv(p, "FILE.json");
	size_t at = (size_t)snprintf(text, cap, "error: %s\npoint: %s\ncommand: rfsim", line, label);
	for (int i = 1; av[i] && at < cap; i++)
		at += (size_t)snprintf(text + at, cap - at, " %s", av[i]);
	at += (size_t)snprintf(text + at, cap - at, "\nended: %s\n\n%s", how, log);
	if (at < cap - 1 && text[at - 1] != '\n') strcpy(text + at, "\n");
	free(av);
	free(log);
	snprintf(path, sizeof path, "%s/%s.err", r->pdir, p->id);
	exp_write_atomic(path, text, strlen(text));
	free(text);
	snprintf(path, sizeof path, "%s/%s.failed.json", r->pdir, p->id);
	if (access(j->json, R_OK) || rename(j->json, path)) unlink(path);
	r->st->failed++;
	say(r, "FAILED %s: %s", label, line);
}

/* a child is gone: keep its point (exit 0) or record why it failed */
static void finish(Run *r, Job *j, int status, int stopping)
{
	const Point *p = &r->pts[j->point];
	PointResult *res = &r->res[j->point];
	char final[PLEN], label[512];
	int ok = !j->timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	         !access(j->json, R_OK);
	snprintf(final, sizeof final, "%s/%s.json", r->pdir, p->id);
	if (ok) {
		sync_path(j->json);
		ok = !rename(j->json, final);
		sync_path(r->pdir);
	}
	if (ok) {
		r->st->computed++;
		snprintf(final, sizeof final, "%s/%s.err", r->pdir, p->id);
		unlink(final);
		snprintf(final, sizeof final, "%s/%s.failed.json", r->pdir, p->id);
		unlink(final);
		if (!r->tty) {
			point_label(r->s, p, label, sizeof label);
			say(r, "[%d/%d] ok %s (%.1f s)", r->st->reused + r->st->computed + r->st->failed,
			    r->st->total, label, now_sec() - j->t0);
		}
	} else if (!stopping) {
		record_failure(r, j, status);
	}
	unlink(j->json);
	unlink(j->log);
	result_free(res);
	result_load(r->o->dir, p, res);
	j->pid = 0;
	r->running--;
	if (r->o->done && !stopping) r->o->done(r->o->ctx, p, res);
}

/* ---- the loop -------------------------------------------------------- */

static void reap(Run *r, int stopping)
{
	int status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		for (int k = 0; k < r->o->jobs; k++)
			if (r->jobs[k].pid == pid) finish(r, &r->jobs[k], status, stopping);
}

static void write_csv(Run *r)
{
	if (r->o->chunk > 0) return;          /* a Slurm task: the merge run writes it */
	if (results_write_csv(r->o->dir, r->s, r->pts, r->res, r->npts))
		say(r, "rfsim: cannot write %s/results.csv: %s", r->o->dir, strerror(errno));
	r->last_csv = now_sec();
}

/* did another process (a duplicate point, a Slurm task) finish point i? */
static int finished_meanwhile(Run *r, int i)
{
	char path[PLEN];
	snprintf(path, sizeof path, "%s/%s.json", r->pdir, r->pts[i].id);
	if (access(path, R_OK)) return 0;
	result_free(&r->res[i]);
	result_load(r->o->dir, &r->pts[i], &r->res[i]);
	return r->res[i].status == PR_OK;
}

static int loop(Run *r, const sigset_t *waitset, const sigset_t *childmask)
{
	int stop = 0, dirty = 0;
	for (;;) {
		while (!stop && r->running < r->o->jobs && r->next < r->hi) {
			int i = r->o->order ? r->o->order[r->next++] : r->next++;
			if (r->res[i].status != PR_OK && finished_meanwhile(r, i)) r->st->reused++;
			if (r->res[i].status == PR_OK) {
				if (r->o->done) r->o->done(r->o->ctx, &r->pts[i], &r->res[i]);
				continue;
			}
			Job *j = r->jobs;
			while (j->pid) j++;
			if (start(r, j, i, childmask)) stop = SIGTERM;
		}
		if (r->running == 0 && (stop || r->next >= r->hi)) break;
		struct timespec ts = {0, 250 * 1000 * 1000};
		int sig = sigtimedwait(waitset, NULL, &ts);
		if (sig > 0 && sig != SIGCHLD && !stop) {
			stop = sig;
			for (int k = 0; k < r->o->jobs; k++)
				if (r->jobs[k].pid) kill(r->jobs[k].pid, SIGTERM);
		}
		int before = r->st->computed + r->st->failed;
		reap(r, stop != 0);
		dirty |= r->st->computed + r->st->failed != before;
		double now = now_sec();
		for (int k = 0; k < r->o->jobs; k++) {
			Job *j = &r->jobs[k];
			if (j->pid && r->o->timeout_s > 0 && !j->timed_out &&
			    now - j->t0 > r->o->timeout_s) {
				j->timed_out = 1;
				kill(j->pid, SIGKILL);
			}
		}
		if (r->tty && r->o->progress && now - r->last_draw >= 0.25) draw_bar(r);
		if (dirty && now - r->last_csv >= 2) {
			write_csv(r);
			dirty = 0;
		}
	}
	return stop;
}

static void hostname(char *buf, size_t n)
{
	if (gethostname(buf, n - 1)) snprintf(buf, n, "host");
	buf[n - 1] = 0;
	for (char *p = buf; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '.')) *p = '_';
}

static void scope(Run *r)
{
	r->lo = 0;
	r->hi = r->npts;
	if (r->o->chunk > 0) {
		long long lo = (long long)r->o->task * r->o->chunk;
		r->lo = lo < r->npts ? (int)lo : r->npts;
		r->hi = lo + r->o->chunk < r->npts ? (int)(lo + r->o->chunk) : r->npts;
	}
	r->next = r->lo;
}

static void report_failures(Run *r)
{
	int shown = 0;
	for (int i = r->lo; i < r->hi; i++) {
		if (r->res[i].status != PR_FAILED) continue;
		if (shown++ == 0) fprintf(stderr, "failed points (details in %s/POINT.err):\n", r->pdir);
		if (shown > 20) continue;
		char label[512];
		point_label(r->s, &r->pts[i], label, sizeof label);
		fprintf(stderr, "  %s [%s]: %s\n", label, r->pts[i].id, r->res[i].error);
	}
	if (shown > 20) fprintf(stderr, "  ... and %d more\n", shown - 20);
}

int sweep_run(const Sweep *s, const SweepOpts *o, SweepStats *st)
{
	Run r = {.s = s, .o = o, .st = st, .tty = isatty(2), .t0 = now_sec()};
	memset(st, 0, sizeof *st);
	snprintf(r.pdir, sizeof r.pdir, "%s/points", o->dir);
	if (exp_mkdirs(r.pdir)) {
		fprintf(stderr, "rfsim: cannot create %s: %s\n", r.pdir, strerror(errno));
		return RF_EINPUT;
	}
	hostname(r.host, sizeof r.host);
	clean_stale(&r);
	r.pts = sweep_points(s, &r.npts);
	r.res = xcalloc((size_t)r.npts + 1, sizeof *r.res);
	r.jobs = xcalloc((size_t)o->jobs, sizeof *r.jobs);
	scope(&r);
	st->total = r.hi - r.lo;
	for (int i = 0; i < r.npts; i++) {
		result_load(o->dir, &r.pts[i], &r.res[i]);
		st->reused += i >= r.lo && i < r.hi && r.res[i].status == PR_OK;
	}
	if (o->progress)
		fprintf(stderr, "%s: %d points, %d already finished, %d to run (-j %d) in %s\n",
		        s->name, st->total, st->reused, st->total - st->reused, o->jobs, o->dir);
	sigset_t waitset, old;
	sigemptyset(&waitset);
	sigaddset(&waitset, SIGCHLD);
	sigaddset(&waitset, SIGINT);
	sigaddset(&waitset, SIGTERM);
	sigaddset(&waitset, SIGHUP);
	sigprocmask(SIG_BLOCK, &waitset, &old);
	st->interrupted = loop(&r, &waitset, &old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	write_csv(&r);
	clean_stale(&r);
	if (r.tty && o->progress) {
		draw_bar(&r);
		fputc('\n', stderr);
	}
	if (!o->done) report_failures(&r);
	st->seconds = now_sec() - r.t0;
	for (int i = 0; i < r.npts; i++) result_free(&r.res[i]);
	free(r.res);
	free(r.jobs);
	sweep_points_free(r.pts, r.npts);
	return RF_OK;
}
