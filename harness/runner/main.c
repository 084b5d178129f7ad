// SPDX-License-Identifier: GPL-2.0
/*
 * perfabi-run: discover the built cases, plan the runs (the privilege x
 * paranoid matrix, see matrix.c), run each case binary under a deadline
 * (sched.c), and print one KTAP stream; write results/<run-id>/ for later
 * comparison (outputs.c). main() is the list of phases.
 */
#include "run.h"
#include "exec.h"
#include "report/report.h"

static const char *default_cases_dir(char *buf, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0)
		return "build/cases";
	self[n] = 0;
	slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	snprintf(buf, len, "%s/cases", self);
	return buf;
}

/* Options; -1 to go on, else the exit status (2: bad input, said on stderr). */
static int check_options(struct pa_opts *o, int argc, char **argv)
{
	char err[768];

	if (pa_parse_opts(argc, argv, o, err, sizeof(err))) {
		fprintf(stderr, "perfabi-run: %s\n", err);
		return 2;
	}
	if (o->help) {
		pa_usage(stdout, "perfabi-run");
		return 0;
	}
	if (o->origin && !rp_kcidb_origin_ok(o->origin)) {
		fprintf(stderr, "perfabi-run: bad --origin '%s': lower-case letters, digits and '_' (a KCIDB origin)\n",
			o->origin);
		return 2;
	}
	/* an output file that cannot be written is bad input: say so before
	 * the run, not after it */
	for (int k = 0; k < 3; k++) {
		const char *path = k == 2 ? o->kcidb : k ? o->json : o->junit;
		FILE *f;

		if (!path)
			continue;
		f = fopen(path, "a");
		if (!f) {
			fprintf(stderr, "perfabi-run: cannot write %s: %s\n", path, strerror(errno));
			return 2;
		}
		fclose(f);
	}
	if (!o->parallel) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		o->parallel = n < 1 ? 1 : n > 64 ? 64 : (int)n;
	}
	/* the cases read it (pa_context_read); no --destructive: not run */
	if (o->destructive)
		setenv("PERFABI_DESTRUCTIVE", "1", 1);
	else
		unsetenv("PERFABI_DESTRUCTIVE");
	return -1;
}

/* Every pattern and area must match something: a typo is an error, not a
 * pass. The name of the first that matches nothing, or NULL. */
static const char *unmatched(const struct pa_run *r, bool *is_area)
{
	for (int p = 0; p < r->o.npatterns; p++) {
		struct pa_opts one = r->o;
		bool hit = false;

		one.npatterns = 1;
		one.patterns[0] = r->o.patterns[p];
		for (int i = 0; i < r->nall && !hit; i++)
			hit = pa_name_selected(&one, r->all[i].name);
		if (!hit) {
			*is_area = false;
			return r->o.patterns[p];
		}
	}
	for (int a = 0; a < r->o.nareas; a++) {
		bool hit = false;
		size_t l = strlen(r->o.areas[a]);

		for (int i = 0; i < r->nall && !hit; i++)
			hit = !strncmp(r->all[i].name, r->o.areas[a], l) && r->all[i].name[l] == '/';
		if (!hit) {
			*is_area = true;
			return r->o.areas[a];
		}
	}
	return NULL;
}

/* Discover the cases, keep the selected (first in r->all) and read their
 * --info; -1 to go on, else the exit status. */
static int select_cases(struct pa_run *r, char *cdir_buf, size_t len)
{
	const char *bad;
	bool is_area = false;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	r->cdir = r->o.cases_dir ? r->o.cases_dir : default_cases_dir(cdir_buf, len);
	if (pa_discover(r->cdir, &r->all, &r->nall) || r->nall == 0) {
		fprintf(stderr, "perfabi-run: no built cases in %s (run make first)\n", r->cdir);
		return 2;
	}
	bad = unmatched(r, &is_area);
	if (bad) {
		if (is_area)
			fprintf(stderr, "perfabi-run: no area '%s' (see --list)\n", bad);
		else
			fprintf(stderr, "perfabi-run: no case matches '%s' (see --list)\n", bad);
		return 2;
	}
	for (int i = 0; i < r->nall; i++)
		if (pa_name_selected(&r->o, r->all[i].name))
			r->all[r->nsel++] = r->all[i];
	/* --info runs nothing of the case's: as many at once as there are
	 * CPUs, whatever -j says */
	pa_case_load_infos(r->all, r->nsel, ncpu < 1 ? 1 : (int)ncpu);
	return -1;
}

/* --abi-check, --fixes, --list: print and exit; -1 when none was asked. */
static int list_modes(const struct pa_run *r)
{
	const struct pa_case_info *c = r->all;

	if (r->o.abi_check)
		return pa_abi_check(r->o.abi_check, c, r->nsel);
	if (r->o.fixes) {
		int nfix = 0;

		for (int i = 0; i < r->nsel; i++) {
			if (!c[i].fix[0])
				continue;
			printf("%-40s %s%s\n", c[i].name, c[i].destructive ? "[destructive] " : "", c[i].fix);
			nfix++;
		}
		printf("# %d case(s) check a kernel fix\n", nfix);
		return 0;
	}
	if (r->o.list) {
		for (int i = 0; i < r->nsel; i++)
			printf("%-40s %s%s\n", c[i].name, c[i].privileged ? "[privilege] " : "",
			       c[i].timeout < 0 ? "(--info failed)" : c[i].assertion);
		return 0;
	}
	return -1;
}

/* Take the machine (the lock; undo what a killed run left), read the
 * context, plan the matrix, stage the binaries, make the run directory;
 * -1 to go on, else the exit status (the machine given back). */
static int prepare(struct pa_run *r)
{
	char err[768];

	pa_private_mounts(r->mount_note, sizeof(r->mount_note));
	/* lock and undo what a killed run left before reading the context:
	 * the plan runs the plain cases at the level the machine really has */
	pa_plan_init(&r->plan);
	if (pa_matrix_begin(&r->plan, err, sizeof(err))) {
		fprintf(stderr, "perfabi-run: %s\n", err);
		return 2;
	}
	pa_tracepoint_ids_export();	/* a fixed path: only under the lock */
	pa_tp_keep_start();
	pa_context_read(&r->ctx);
	r->ctx.restricts_all = r->ctx.paranoid > 2 && pa_paranoid_restricts_all();
	if (pa_plan_build(&r->plan, &r->o, &r->ctx, r->all, r->nsel, err, sizeof(err)) ||
	    pa_stage_cases(&r->plan, r->cdir, r->stage_note, sizeof(r->stage_note), err, sizeof(err)) < 0) {
		fprintf(stderr, "perfabi-run: %s\n", err);
		pa_matrix_end(&r->plan);
		return 2;
	}
	if (r->o.no_results)
		return -1;
	if (pa_make_run_dir(&r->o, r->ctx.release, r->run_dir, sizeof(r->run_dir))) {
		fprintf(stderr, "perfabi-run: cannot create a run directory under %s: %s%s\n",
			r->o.results_dir, strerror(errno),
			errno == EEXIST ? " (run ids are never reused)" :
			errno == EACCES ? " (choose another with --results DIR, or --no-results)" : "");
		pa_matrix_end(&r->plan);
		return 2;
	}
	r->tap = pa_open_in(r->run_dir, "run.tap");
	r->tsv = pa_open_in(r->run_dir, "results.tsv");
	return -1;
}

/* The KTAP header and the notes that say how the run differs from the
 * whole matrix, on stdout and in run.tap. */
static void print_header(struct pa_run *r)
{
	const struct pa_context *c = &r->ctx;
	char err[768];

	pa_ktap_header(stdout, r->plan.nplanned);
	printf("# perfabi on %s (%d.%d.%d), paranoid %d, uid %u, %d cases, %d runs\n",
	       c->release, c->kernel.major, c->kernel.minor, c->kernel.patch,
	       c->paranoid, (unsigned)c->uid, r->nsel, r->plan.nplanned);
	if (r->mount_note[0])
		printf("%s\n", r->mount_note);
	if (r->stage_note[0])
		printf("%s\n", r->stage_note);
	if (r->plan.notes[0])
		printf("%s\n", r->plan.notes);
	r->kmsg_fd = pa_kmsg_open(err, sizeof(err));
	if (r->kmsg_fd < 0)
		printf("# %s\n", err);
	if (!r->tap)
		return;
	pa_ktap_header(r->tap, r->plan.nplanned);
	fprintf(r->tap, "# perfabi on %s (%d.%d.%d), paranoid %d, uid %u, %d cases, %d runs\n",
		c->release, c->kernel.major, c->kernel.minor, c->kernel.patch,
		c->paranoid, (unsigned)c->uid, r->nsel, r->plan.nplanned);
	if (r->plan.notes[0])
		fprintf(r->tap, "%s\n", r->plan.notes);
	if (r->stage_note[0])
		fprintf(r->tap, "%s\n", r->stage_note);
}

/* Give the machine back, write what the run leaves and end it; the exit
 * status: 0, 1 (a result failed), 2 (an output could not be written),
 * 128 + the signal that interrupted it. */
static int finish(struct pa_run *r)
{
	char mp[PATH_MAX + 16];
	int rc = 0;

	pa_matrix_end(&r->plan);
	if (r->plan.notes[0])
		printf("%s\n", r->plan.notes);
	if (r->o.abi_map)
		snprintf(mp, sizeof(mp), "%s", r->o.abi_map);
	else
		snprintf(mp, sizeof(mp), "%s/../abi-map.txt", r->cdir);
	r->have_abi = pa_abi_coverage(mp, r->all, r->nsel, &r->abi);
	if (r->stop_sig) {
		printf("# interrupted by signal %d after %d of %d runs%s%s; global settings restored\n",
		       r->stop_sig, r->done, r->plan.nplanned, r->interrupted ? ", during " : "",
		       r->interrupted ? r->interrupted : "");
		rc = 128 + r->stop_sig;	/* as a shell reports a signal */
	}
	if (r->tap) {
		pa_print_totals(r->tap, &r->counts);
		fclose(r->tap);
	}
	if (r->tsv)
		fclose(r->tsv);
	if (pa_write_outputs(r) && !r->stop_sig)
		rc = 2;
	pa_print_run_end(r);
	if (r->counts.n[PA_FAIL] && !r->stop_sig && !rc)
		rc = 1;	/* an output that could not be written (2) stays 2 */
	free(r->res);
	free(r->all);
	return rc;
}

int main(int argc, char **argv)
{
	static struct pa_run r = { .kmsg_fd = -1 };
	static char cdir[PATH_MAX];
	int rc;

	r.t0 = pa_now_ms();
	r.taint = pa_taint_read();
	setvbuf(stdout, NULL, _IOLBF, 0);
	rc = check_options(&r.o, argc, argv);
	if (rc >= 0)
		return rc;
	pa_mark_start();
	rc = select_cases(&r, cdir, sizeof(cdir));
	if (rc >= 0)
		return rc;
	rc = list_modes(&r);
	if (rc >= 0)
		return rc;
	/* before prepare(), which saves the perf sysctls: a signal from then
	 * on ends the run the way that puts them back */
	pa_catch_stop();
	rc = prepare(&r);
	if (rc >= 0)
		return rc;
	print_header(&r);
	pa_run_plan(&r);
	return finish(&r);
}
