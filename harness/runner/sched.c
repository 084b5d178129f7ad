// SPDX-License-Identifier: GPL-2.0
/*
 * Running the plan: results start in the plan's order, up to -j at once, as
 * long as they share the paranoid level (a global sysctl) of those running;
 * a case declared .alone starts only when nothing runs and keeps the
 * machine to itself. Results print in plan order whatever order they end
 * in. A signal (SIGINT, SIGTERM, SIGHUP) stops the run: the results running
 * are told to end, and the results not reached are skips that say why.
 */
#include "run.h"
#include "exec.h"

#include <signal.h>

/* A result's state in the scheduler. */
enum result_state {
	J_WAITING,		/* not started */
	J_RUNNING,		/* in a slot */
	J_READY,		/* its result is there, not printed yet */
	J_PRINTED,
	J_INTERRUPTED,		/* stopped by a signal while it ran: no result */
};

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

void pa_catch_stop(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;	/* no SA_RESTART: poll() wakes up */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	pa_exec_stop = &stop_sig;
}

/* Turn a finished case binary into one result, echoing its diagnostics. */
static void collect(const struct pa_planned *pr, const struct pa_exec *e,
		    struct pa_result *r, FILE *out, FILE *tap, bool verbose)
{
	int code = WIFEXITED(e->status) ? WEXITSTATUS(e->status) : -1;
	int rn;
	char rname[256], detail[512] = "", pending[512] = "";
	enum pa_outcome parsed = PA_FAIL;
	bool have = false;

	pa_result_name(r, pr->name);
	r->duration_ms = e->duration_ms;
	if (e->output)
		pa_text_sanitize(e->output, true);
	for (char *line = e->output, *nl; line && *line; line = nl) {
		const char *dl;

		nl = strchr(line, '\n');
		if (nl)
			*nl++ = 0;
		if ((dl = pa_ktap_detail_line(line))) {
			snprintf(pending, sizeof(pending), "%s", dl);
		} else if (pa_ktap_parse_result(line, &rn, rname, sizeof(rname), &parsed,
						detail, sizeof(detail))) {
			have = true;
			if (!detail[0])
				snprintf(detail, sizeof(detail), "%s", pending);
			pending[0] = 0;
		}
	}
	if (e->timed_out) {
		r->outcome = PA_FAIL;
		snprintf(r->detail, sizeof(r->detail), "runner: killed after %ld ms (case supervisor hung)",
			 e->duration_ms);
	} else if (code < 0) {
		r->outcome = PA_FAIL;
		snprintf(r->detail, sizeof(r->detail), "runner: case binary killed by signal %d",
			 WTERMSIG(e->status));
	} else if (code > 4) {
		r->outcome = PA_FAIL;
		snprintf(r->detail, sizeof(r->detail), "runner: case binary exited %d", code);
	} else if (!have || parsed != (enum pa_outcome)code) {
		r->outcome = PA_FAIL;
		snprintf(r->detail, sizeof(r->detail),
			 "runner: exit status %d does not match the KTAP result", code);
	} else {
		r->outcome = parsed;
		snprintf(r->detail, sizeof(r->detail), "%s", detail);
	}
	/* diagnostics: all to the TAP file, to stdout for failures or -v */
	for (const char *line = e->output; line < e->output + e->len; line += strlen(line) + 1) {
		bool show = verbose || r->outcome == PA_FAIL || r->outcome == PA_XFAIL ||
			    r->outcome == PA_XPASS;

		if (!*line || !strncmp(line, "KTAP version", 12) || !strncmp(line, "TAP version", 11) || !strncmp(line, "1..", 3) ||
		    !strncmp(line, "ok ", 3) || !strncmp(line, "not ok ", 7) || pa_ktap_detail_line(line))
			continue;
		if (tap)
			fprintf(tap, "%s%s\n", line[0] == '#' ? "" : "# ", line);
		if (show)
			fprintf(out, "%s%s\n", line[0] == '#' ? "" : "# ", line);
	}
}

/* One result running: its process. Free again (j -1) once it ended. */
struct slot {
	int j;				/* the result, -1: free */
	struct pa_exec e;
};

/* What a finished result prints before its result line (stdout, run.tap). */
struct diag {
	char *out, *tap;
	size_t outlen, taplen;
};

/* The environment every case process of the run gets. */
static void case_env(const struct pa_planned *pr, double scale, bool parallel)
{
	char lv[16], sc[32];

	/* the level this cell runs at, for cases that check the sysctl
	 * reflects what was written */
	snprintf(lv, sizeof(lv), "%d", pr->level);
	setenv("PERFABI_PARANOID_SET", lv, 1);
	snprintf(sc, sizeof(sc), "%g", scale);
	setenv("PERFABI_TIMEOUT_SCALE", sc, 1);
	setenv("PERFABI_PARALLEL", parallel ? "1" : "0", 1);
}

/* Start one result's case binary under its deadline. */
static int start_result(struct slot *s, const struct pa_planned *pr, int j, double scale,
		     bool parallel)
{
	case_env(pr, scale, parallel);
	memset(&s->e, 0, sizeof(s->e));
	s->e.path = pr->ci->path;
	/* the case enforces its own timeout; this one catches a hung supervisor */
	s->e.timeout_ms = (long)(pr->ci->timeout * scale * 1000) + 15000;
	s->e.setup = pa_planned_setup;
	s->e.setup_arg = (void *)pr;
	s->j = j;
	return pa_exec_start(&s->e);
}

/* A finished result: its outcome, the kernel's taint and log around it. */
static void finish_result(struct pa_run *run, struct slot *s, const struct pa_planned *pr,
		       struct pa_result *r, struct diag *d, int others)
{
	unsigned long taint;
	FILE *outf, *tapf;

	pa_exec_finish(&s->e);
	outf = open_memstream(&d->out, &d->outlen);
	tapf = run->tap ? open_memstream(&d->tap, &d->taplen) : NULL;
	taint = pa_taint_read();
	collect(pr, &s->e, r, outf, tapf, run->o.verbose);
	if (others && pa_taint_grew(run->taint, taint))
		fprintf(outf, "# (%d other case(s) ran beside it)\n", others);
	pa_taint_after_case(r, run->taint, taint, outf, tapf);
	run->taint = taint;
	pa_kmsg_after_case(run->kmsg_fd, r, outf, tapf);
	fclose(outf);
	if (tapf)
		fclose(tapf);
	free(s->e.output);
	s->e.output = NULL;
	s->j = -1;
}

/* Where results go as they are printed, in plan order. */
struct sink {
	FILE *tap, *tsv;		/* NULL with --no-results */
	struct pa_counts *counts;
	bool progress;			/* the [n/N] line on stderr */
	int nplanned;
};

/* Print result j: the diagnostics its case left, its KTAP line (stdout and
 * run.tap), its count and results.tsv line. */
static void emit_result(const struct sink *k, int j, const struct pa_result *r, struct diag *d)
{
	const char *detail = r->detail[0] ? r->detail : NULL;

	if (d->out)
		fwrite(d->out, 1, d->outlen, stdout);
	if (k->tap && d->tap)
		fwrite(d->tap, 1, d->taplen, k->tap);
	free(d->out);
	free(d->tap);
	d->out = d->tap = NULL;
	pa_ktap_result(stdout, j + 1, r->name, r->outcome, detail);
	if (k->tap)
		pa_ktap_result(k->tap, j + 1, r->name, r->outcome, detail);
	pa_count(k->counts, r->outcome);
	if (k->tsv)
		fprintf(k->tsv, "%s\t%s\t%ld\t%s\n", r->name, pa_outcome_name(r->outcome),
			r->duration_ms, r->detail);
	if (k->progress)
		fprintf(stderr, "\r[%d/%d] %.60s\033[K", j + 1, k->nplanned, r->name);
}

/*
 * Is another result of this case running? Two processes of one executable
 * share its page cache: the kernel maps the pages around a faulting one
 * only where it gets their folio lock at once (filemap_map_pages(),
 * next_uptodate_folio()), so each process's own faults on the binary's code
 * vary by a page or two when the other faults there too, and exact
 * page-fault counts of a forked child move by one (37 of 12,619 runs with
 * four processes of one case binary on two CPUs, none of 11,929 with four
 * copies of the file).
 */
static bool case_running(const struct slot *slots, int nslots, const char *state,
			 const struct pa_planned *planned, const struct pa_case_info *ci)
{
	for (int k = 0; k < nslots; k++)
		if (slots[k].j >= 0 && state[slots[k].j] == J_RUNNING && planned[slots[k].j].ci == ci)
			return true;
	return false;
}


/* A matrix cell whose cases' requirements were checked at once. */
struct cell {
	const struct pa_identity *id;
	int level;
};

struct sched {
	struct pa_run *run;
	struct slot *slots;
	int nslots;
	char *state;		/* enum result_state, by result */
	struct diag *diag;	/* by result */
	int *order;		/* the order results start in */
	int next;		/* the next of order[] to start */
	int printed;		/* results printed, in plan order */
	int running;
	int run_level;		/* the paranoid level of those running */
	bool run_alone;		/* one of them keeps the machine to itself */
	struct sink sink;
	struct cell checked[64];	/* cells whose requirements were checked */
	int nchecked;
	char **unmet;		/* by result: why its case cannot run in its cell
				 * (the cell's check found it), or NULL */
	char **unmet_diag;	/* by result: the lines its case prints first */
	char **prog;		/* by case: the real path of its program */
	int *named, stamp;	/* by case: the cell check that named it */
};

/* A result that ends before it starts: its result is already decided. */
static void decided(struct sched *s, int x, enum pa_outcome o, const char *fmt, const char *arg)
{
	struct pa_result *r = &s->run->res[x];

	r->outcome = o;
	snprintf(r->detail, sizeof(r->detail), fmt, arg);
	s->state[x] = J_READY;
	s->next++;
}

/* The real path of result x's case program (cached by case), or NULL. */
static const char *case_program(struct sched *s, int x)
{
	const struct pa_case_info *ci = s->run->plan.planned[x].ci;
	long i = ci - s->run->all;
	char real[PATH_MAX];

	if (i < 0 || i >= s->run->nall)
		return NULL;
	if (!s->prog[i])
		s->prog[i] = strdup(realpath(ci->path, real) ? real : "");
	return s->prog[i] && s->prog[i][0] ? s->prog[i] : NULL;
}

/* Read the output of `perfabi-cases --unmet=...` for the results who[0..n):
 * the header lines of each case found unable to run, then "unmet:
 * <name><TAB><reason>". */
static void read_unmet(struct sched *s, const int *who, int n, char *out)
{
	char *pending = NULL;
	size_t plen = 0;
	FILE *diag = NULL;

	for (char *line = out, *nl; line && *line; line = nl) {
		char *tab;

		nl = strchr(line, '\n');
		if (nl)
			*nl++ = 0;
		tab = strchr(line, '\t');
		if (tab)
			*tab = 0;
		pa_text_sanitize(line, false);
		if (tab)
			pa_text_sanitize(tab + 1, false);
		if (line[0] == '#') {
			if (tab)	/* a tab in a comment line is a space */
				*tab = ' ';
			if (!diag)
				diag = open_memstream(&pending, &plen);
			if (diag)
				fprintf(diag, "%s\n", line);
			continue;
		}
		if (diag)
			fclose(diag);
		diag = NULL;
		if (!strncmp(line, "unmet: ", 7) && tab) {
			for (int k = 0; k < n; k++) {
				int j = who[k];

				if (s->unmet[j] || strcmp(s->run->plan.planned[j].ci->name, line + 7))
					continue;
				s->unmet[j] = strdup(tab + 1);
				s->unmet_diag[j] = pending ? strdup(pending) : NULL;
			}
		}
		free(pending);
		pending = NULL;
	}
	if (diag)
		fclose(diag);
	free(pending);
}

/*
 * The first result of a cell (an identity at a paranoid level) to start:
 * one process of the case program (run as that result's case, by the path
 * the cell's cases run by), as that identity at that level, says
 * which of the cell's cases cannot run there and why (perfabi-cases
 * --unmet, harness/lib/case_main.c), as each would say at its own start;
 * those results are SKIPs without an exec each (some 1.6 ms of CPU here,
 * 10-20 ms in a TCG guest, for the same answer). The cases that can run
 * check their requirements again themselves. Where the check cannot be
 * made (another program, an exec that fails), every case runs.
 */
static void check_cell(struct sched *s, const struct pa_planned *pr, int x)
{
	struct pa_run *run = s->run;
	const char *prog;
	int *who = NULL;
	char *arg = NULL;
	size_t alen = 0;
	FILE *a = NULL;
	int n = 0, named = 0;
	struct pa_exec e;

	if (!s->unmet || !s->unmet_diag || !s->prog || !s->named)
		return;
	for (int k = 0; k < s->nchecked; k++)
		if (s->checked[k].id == pr->id && s->checked[k].level == pr->level)
			return;	/* every result after a cell's first: nothing more */
	if (s->nchecked >= (int)(sizeof(s->checked) / sizeof(s->checked[0])))
		return;
	s->checked[s->nchecked++] = (struct cell){ pr->id, pr->level };
	prog = case_program(s, x);
	who = calloc((size_t)run->plan.nplanned + 1, sizeof(int));
	if (!prog || !who || !(a = open_memstream(&arg, &alen)))
		goto out;
	fputs("--unmet=", a);
	s->stamp++;
	for (int j = 0; j < run->plan.nplanned; j++) {
		const struct pa_planned *q = &run->plan.planned[j];
		const char *qp;
		long ci = q->ci - run->all;

		if (q->id != pr->id || q->level != pr->level || s->state[j] != J_WAITING ||
		    q->skip_reason[0] || q->ci->timeout < 0 || ci < 0 || ci >= run->nall ||
		    !(qp = case_program(s, j)) || strcmp(qp, prog))
			continue;
		who[n++] = j;
		if (s->named[ci] == s->stamp)	/* --repeat plans a result again */
			continue;
		s->named[ci] = s->stamp;
		fprintf(a, "%s%s", named++ ? "," : "", q->ci->name);
	}
	fclose(a);
	if (n < 3)	/* not worth a process of its own */
		goto out;
	case_env(pr, run->o.timeout_scale, true);
	/* run by the path the cell's cases run by (the program's real path
	 * may lie under a directory the identity cannot search) */
	e = (struct pa_exec){ .path = pr->ci->path, .arg = arg, .timeout_ms = 60000,
			      .setup = pa_planned_setup, .setup_arg = (void *)pr };
	if (!pa_exec(&e) && !e.timed_out && WIFEXITED(e.status) && !WEXITSTATUS(e.status) && e.output)
		read_unmet(s, who, n, e.output);
	free(e.output);
out:
	free(arg);
	free(who);
}

/* A result whose cell's check found its case unable to run there: the
 * SKIP its case would have given, after the lines it would have printed. */
static void decided_unmet(struct sched *s, int x)
{
	struct diag *d = &s->diag[x];
	const char *text = s->unmet_diag[x];

	if (text && s->run->tap)
		d->tap = strdup(text), d->taplen = strlen(text);
	if (text && s->run->o.verbose)
		d->out = strdup(text), d->outlen = strlen(text);
	decided(s, x, PA_SKIP, "%s", s->unmet[x]);
}

/* Start results in order while there is a free slot and the next may run
 * beside those running; a result that cannot start is decided at once. */
static void start_ready(struct sched *s)
{
	struct pa_run *run = s->run;
	char err[768];

	while (!stop_sig && s->next < run->plan.nplanned && s->running < s->nslots) {
		int x = s->order[s->next];
		struct pa_planned *pr = &run->plan.planned[x];
		bool alone = pr->ci->alone || s->nslots == 1;
		int k;

		pa_result_name(&run->res[x], pr->name);
		if (pr->ci->timeout < 0) {
			decided(s, x, PA_FAIL, "runner: '%s --info' failed", pr->ci->path);
			continue;
		}
		if (pr->skip_reason[0]) {
			decided(s, x, PA_SKIP, "%s", pr->skip_reason);
			continue;
		}
		if (s->unmet && s->unmet[x]) {
			decided_unmet(s, x);
			continue;
		}
		if (s->running && (alone || s->run_alone || pr->level != s->run_level))
			break;	/* wait for those running to end */
		if (s->running && case_running(s->slots, s->nslots, s->state, run->plan.planned, pr->ci))
			break;	/* one result of a case at a time: see case_running() */
		if (pa_planned_enter(&run->plan, pr, err, sizeof(err))) {
			decided(s, x, PA_FAIL, "runner: %s", err);
			continue;
		}
		check_cell(s, pr, x);
		if (s->unmet && s->unmet[x]) {
			decided_unmet(s, x);
			continue;
		}
		for (k = 0; s->slots[k].j >= 0; k++)
			;
		if (start_result(&s->slots[k], pr, x, run->o.timeout_scale, !alone)) {
			s->slots[k].j = -1;
			decided(s, x, PA_FAIL, "runner: cannot run %s", pr->ci->path);
			continue;
		}
		s->state[x] = J_RUNNING;
		s->next++;
		s->running++;
		s->run_level = pr->level;
		s->run_alone = alone;
	}
}

/* Print what is ready, in plan order. */
static void print_ready(struct sched *s)
{
	while (s->printed < s->run->plan.nplanned && s->state[s->printed] == J_READY) {
		emit_result(&s->sink, s->printed, &s->run->res[s->printed], &s->diag[s->printed]);
		s->state[s->printed++] = J_PRINTED;
	}
}

/* Wait for output or a deadline of those running; collect those that ended. */
static void reap(struct sched *s)
{
	struct pa_run *run = s->run;
	struct pa_exec *ex[64];
	int who[64], n = 0;

	for (int k = 0; k < s->nslots && n < 64; k++) {
		if (s->slots[k].j < 0 || s->state[s->slots[k].j] != J_RUNNING)
			continue;
		ex[n] = &s->slots[k].e;
		who[n++] = k;
	}
	pa_exec_wait_any(ex, n);
	pa_tp_keep_drain();
	for (int m = 0; m < n; m++) {
		struct slot *sl = &s->slots[who[m]];
		int j = sl->j;

		if (!pa_exec_pump(&sl->e))
			continue;
		s->running--;
		if (stop_sig && sl->e.stopping) {
			/* stopped while it ran: the case was told to end, so
			 * what it did is no result */
			pa_exec_finish(&sl->e);
			free(sl->e.output);
			sl->e.output = NULL;
			s->state[j] = J_INTERRUPTED;
			sl->j = -1;
			continue;
		}
		finish_result(run, sl, &run->plan.planned[j], &run->res[j], &s->diag[j], s->running);
		s->state[j] = J_READY;
	}
}

/* After a signal the plan stays whole for TAP consumers: the results not
 * reached are skips that say why; results.tsv holds only real results. */
static void print_interrupted(struct sched *s)
{
	struct pa_run *run = s->run;

	for (int j = 0; j < run->plan.nplanned && !run->interrupted; j++)
		if (s->state[j] == J_INTERRUPTED)	/* the first, in plan order, whatever -j */
			run->interrupted = run->plan.planned[j].name;
	if (!stop_sig)
		return;
	for (int j = s->printed; j < run->plan.nplanned; j++) {
		char why[600];

		if (s->state[j] == J_READY) {	/* ended beside an earlier one */
			emit_result(&s->sink, j, &run->res[j], &s->diag[j]);
			s->state[j] = J_PRINTED;
			continue;
		}
		if (s->state[j] == J_INTERRUPTED)
			snprintf(why, sizeof(why), "interrupted by signal %d while it ran: not a result",
				 (int)stop_sig);
		else
			snprintf(why, sizeof(why), "not run: the run was interrupted by signal %d",
				 (int)stop_sig);
		pa_ktap_result(stdout, j + 1, run->plan.planned[j].name, PA_SKIP, why);
		if (run->tap)
			pa_ktap_result(run->tap, j + 1, run->plan.planned[j].name, PA_SKIP, why);
	}
}

void pa_run_plan(struct pa_run *run)
{
	int nplanned = run->plan.nplanned;
	struct sched s = {
		.run = run,
		.nslots = run->o.parallel,
		.slots = calloc((size_t)run->o.parallel, sizeof(struct slot)),
		.state = calloc((size_t)nplanned + 1, 1),
		.diag = calloc((size_t)nplanned + 1, sizeof(struct diag)),
		.order = calloc((size_t)nplanned + 1, sizeof(int)),
		.unmet = calloc((size_t)nplanned + 1, sizeof(char *)),
		.unmet_diag = calloc((size_t)nplanned + 1, sizeof(char *)),
		.prog = calloc((size_t)run->nall + 1, sizeof(char *)),
		.named = calloc((size_t)run->nall + 1, sizeof(int)),
		/* where the KTAP goes to a file or a pipe but a person
		 * watches the terminal: a progress line there, rewritten */
		.sink = {
			.tap = run->tap, .tsv = run->tsv, .counts = &run->counts, .nplanned = nplanned,
			.progress = !isatty(STDOUT_FILENO) && isatty(STDERR_FILENO),
		},
	};

	run->res = calloc((size_t)nplanned + 1, sizeof(*run->res));
	for (int k = 0; k < s.nslots; k++)
		s.slots[k].j = -1;
	for (int j = 0; j < nplanned; j++)
		run->res[j].outcome = PA_FAIL;
	/* one at a time: plan order, so a guest that dies loses no result
	 * already run; else a paranoid level's results together */
	pa_plan_order(&run->plan, s.nslots > 1, s.order);
	while (s.printed < nplanned) {
		start_ready(&s);
		print_ready(&s);
		if (s.printed >= nplanned || (!s.running && (stop_sig || s.next >= nplanned)))
			break;
		if (s.running)
			reap(&s);
	}
	print_interrupted(&s);
	if (s.sink.progress)
		fprintf(stderr, "\r\033[K");
	/* the summary reads the results printed, in order */
	run->done = 0;
	for (int j = 0; j < nplanned; j++)
		if (s.state[j] == J_PRINTED)
			run->res[run->done++] = run->res[j];
	for (int j = 0; j < nplanned; j++) {
		free(s.diag[j].out);
		free(s.diag[j].tap);
		if (s.unmet)
			free(s.unmet[j]);
		if (s.unmet_diag)
			free(s.unmet_diag[j]);
	}
	free(s.unmet);
	free(s.unmet_diag);
	for (int i = 0; s.prog && i < run->nall; i++)
		free(s.prog[i]);
	free(s.prog);
	free(s.named);
	free(s.diag);
	free(s.slots);
	free(s.state);
	free(s.order);
	run->stop_sig = (int)stop_sig;
}
