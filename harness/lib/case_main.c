// SPDX-License-Identifier: GPL-2.0
/*
 * main() of the program that holds the cases (build/cases/perfabi-cases),
 * run as one of them: cases/<area>/<name> is a link to it, and the name it
 * was run as picks the case.
 *
 *   case            run the case, print KTAP, exit 0/1/2/3/4
 *   case --info     print the case's declaration as "key: value" lines
 *   perfabi-cases <area>/<name> [--info], --list, --info-all, --unmet=...
 *
 * The body runs in a forked child, in a process group of its own, under a
 * SIGALRM timeout. Whatever happens to it (return, failed assertion, crash,
 * timeout, or a signal to this supervisor), the supervisor then kills every
 * process the body left behind and restores every sysctl the body changed.
 */
#include "internal.h"

#include <limits.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>

/* the cases linked into this program (PERFABI_CASE() in perfabi.h) */
extern const struct pa_case_entry __start_pa_cases[] __attribute__((weak));
extern const struct pa_case_entry __stop_pa_cases[] __attribute__((weak));

/* the case this process runs */
static const struct pa_case *pa_this_case;
static char pa_this_case_name[256];

static volatile sig_atomic_t got_alarm, got_signal;

static void on_signal(int sig)
{
	if (sig == SIGALRM)
		got_alarm = 1;
	else
		got_signal = sig;
}

int pa_restore_sysctls(struct pa_shared *s)
{
	int bad = 0;

	/* newest first, so a value changed twice ends at the very first one */
	for (int i = s->nsaved - 1; i >= 0; i--)
		bad += pa_sysctl_write_at("/proc/sys", s->saved[i].name, s->saved[i].value) != 0;
	s->nsaved = 0;
	return bad;
}

int pa_sysctl_write(const char *name, const char *value)
{
	char old[256];
	int i;

	for (i = 0; i < pa_state->nsaved; i++)
		if (!strcmp(pa_state->saved[i].name, name))
			break;
	if (i == pa_state->nsaved) {
		if (pa_state->nsaved >= PA_MAX_SAVED_SYSCTLS) {
			pa_fail("too many sysctls changed by one case (max %d)",
				PA_MAX_SAVED_SYSCTLS);
			return -1;
		}
		if (pa_sysctl_read(name, old, sizeof(old)))
			return -1;
		snprintf(pa_state->saved[i].name, sizeof(pa_state->saved[i].name), "%s", name);
		snprintf(pa_state->saved[i].value, sizeof(pa_state->saved[i].value), "%s", old);
		pa_state->nsaved++;
	}
	pa_note_global("wrote a sysctl");
	return pa_sysctl_write_at("/proc/sys", name, value);
}

/* Kill and reap every descendant: the body's process group first, then any
 * process that escaped it and was reparented to us (we are a subreaper). */
static void kill_leftovers(pid_t pgid)
{
	char path[64], buf[4096];

	if (pgid > 0)
		kill(-pgid, SIGKILL);
	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	for (int round = 0; round < 1000; round++) {
		FILE *f = fopen(path, "re");
		size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
		char *p = buf, *end;
		bool any = false;

		if (f)
			fclose(f);
		buf[n] = 0;
		for (long pid; (pid = strtol(p, &end, 10)), end != p; p = end) {
			kill((pid_t)pid, SIGKILL);
			any = true;
		}
		while (waitpid(-1, NULL, WNOHANG) > 0)
			any = true;
		if (!any)
			break;
		if (round)
			usleep(1000);
	}
}

static double timeout_scale(void)
{
	const char *s = getenv("PERFABI_TIMEOUT_SCALE");
	double v = s ? atof(s) : 1.0;

	return v > 0 ? v : 1.0;
}

static int case_timeout(void)
{
	int t = pa_this_case->timeout > 0 ? pa_this_case->timeout : 10;

	return (int)(t * timeout_scale() + 0.5);
}

static enum pa_outcome finish(enum pa_outcome o, const char *detail)
{
	pa_ktap_result(stdout, 1, pa_this_case_name, o, detail);
	return o;
}

/* What the case asserts, and where that is written. */
static void print_case_lines(const struct pa_case *c)
{
	printf("# %s: %s\n", pa_this_case_name, c->assertion ? c->assertion : "(no assertion)");
	if (c->ref)
		printf("# ref: %s\n", c->ref);
}

/* The KTAP header, and what the case asserts. */
static void print_header(const struct pa_case *c)
{
	pa_ktap_header(stdout, 1);
	print_case_lines(c);
	fflush(stdout);
}

/* Read the context into ctx and say why the case cannot run in it (why
 * holds the text where the requirements wrote one), or NULL when it can.
 * *defect: the reason is a defect of the case, not of the context. */
static const char *unmet_requirement(const struct pa_case *c, struct pa_context *ctx,
				     char *why, size_t len, bool *defect)
{
	const char *unmet;

	pa_context_read(ctx);
	if (c->hw_pmu) {
		const char *r = NULL;

		ctx->hw_pmu = pa_hw_pmu_present(&r);
		if (r)
			snprintf(ctx->hw_pmu_reason, sizeof(ctx->hw_pmu_reason), "%s", r);
	}
	unmet = pa_requirements_unmet(c, ctx, why, len);
	if (!unmet && c->features) {
		unmet = pa_features_missing(c->features);
		if (unmet && !strncmp(unmet, "unknown feature", 15)) {
			*defect = true;
			return unmet;
		}
	}
	if (!unmet && c->probe)
		unmet = c->probe();
	return unmet;
}

/* The state the body shares with this supervisor, zeroed; NULL when it
 * cannot be mapped. */
static struct pa_shared *map_shared(void)
{
	struct pa_shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (sh == MAP_FAILED)
		return NULL;
	memset(sh, 0, sizeof(*sh));
	return sh;
}

/* Catch the timeout and the signals that end a run, and become the
 * subreaper of whatever the body leaves behind. */
static void supervise_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: waitpid returns EINTR */
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

/* Run the body in a forked child, in a process group of its own, and wait
 * for it until it ends, the timeout passes or a signal comes; then kill
 * what it left behind. -1 when it could not fork. */
static int run_body(const struct pa_case *c, int timeout, int *status)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGALRM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		c->body();
		fflush(NULL);
		exit(PA_PASS);
	}
	setpgid(pid, pid);
	alarm((unsigned)timeout);
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR || got_alarm || got_signal)
			break;
	}
	alarm(0);
	kill_leftovers(pid);
	return 0;
}

/* The outcome of a body that neither timed out nor skipped, before the
 * known-bug classification, from its wait status and what it recorded;
 * detail says why. */
static enum pa_outcome body_outcome(const struct pa_case *c, const struct pa_shared *sh,
				    int status, char *detail, size_t len)
{
	if (WIFSIGNALED(status)) {
		snprintf(detail, len, "body killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
		pa_diag("harness: %s", detail);
		return PA_FAIL;
	}
	if (sh->failures) {
		snprintf(detail, len, "%d check(s) failed: %s",
			 sh->failures, sh->first_failure);
		return PA_FAIL;
	}
	if (sh->global_actions && !c->alone && getenv("PERFABI_PARALLEL") &&
	    !strcmp(getenv("PERFABI_PARALLEL"), "1")) {
		/* a defect of the case: its result cannot be trusted beside
		 * others, nor theirs beside it */
		snprintf(detail, len,
			 "harness: the case %s while other cases ran beside it (perfabi-run -j): declare .alone = true",
			 sh->global_what);
		pa_diag("%s", detail);
		return PA_FAIL;
	}
	if (WEXITSTATUS(status) != PA_PASS) {
		snprintf(detail, len, "body exited with status %d",
			 WEXITSTATUS(status));
		return PA_FAIL;
	}
	if (!sh->checks) {
		snprintf(detail, len,
			 "the body passed without evaluating a single check (a case must be able to fail)");
		pa_diag("harness: %s", detail);
		return PA_FAIL;
	}
	snprintf(detail, len, "%s", sh->variant);
	return PA_PASS;
}

/* The detail of the classified outcome o: a failing regression case names
 * the fix, a known bug's outcome says which bug. */
static void explain_outcome(const struct pa_case *c, enum pa_outcome o,
			    char *detail, size_t len)
{
	if (o == PA_FAIL && c->fix.commit) {
		/* a regression case: name the fix this kernel may lack */
		size_t n = strlen(detail);

		snprintf(detail + n, len - n,
			 "%sthis kernel may lack fix %s (\"%s\", %s%s%s)",
			 n ? "; " : "", c->fix.commit, c->fix.subject ? c->fix.subject : "?",
			 c->fix.release ? c->fix.release : "?",
			 c->fix.cve ? ", " : "", c->fix.cve ? c->fix.cve : "");
	}
	if (o == PA_XFAIL || o == PA_XPASS) {
		char range[160];

		pa_known_bug_range(&c->xfail, range, sizeof(range));
		snprintf(detail, len, "%s (kernel %s, fix %s)",
			 c->xfail.why ? c->xfail.why : "known kernel bug", range,
			 c->xfail.fix ? c->xfail.fix : "none yet");
	}
}

static enum pa_outcome run(void)
{
	const struct pa_case *c = pa_this_case;
	struct pa_context ctx;
	char why[512], detail[512];
	const char *unmet;
	struct pa_shared *sh;
	int status = 0, timeout = case_timeout();
	bool defect = false;
	enum pa_outcome o;

	print_header(c);
	unmet = unmet_requirement(c, &ctx, why, sizeof(why), &defect);
	if (unmet)	/* a FAIL where the case itself is at fault */
		return finish(defect ? PA_FAIL : PA_SKIP, unmet);

	/* for the body and what it forks; a skip above needs none of it */
	pa_textmap_init();
	sh = map_shared();
	if (!sh)
		return finish(PA_FAIL, "harness: cannot map shared state");
	pa_state = sh;
	supervise_signals();
	if (run_body(c, timeout, &status))
		return finish(PA_FAIL, "harness: fork failed");
	if (pa_restore_sysctls(sh))
		pa_diag("harness: could not restore a sysctl the case changed");

	if (got_signal) {
		pa_diag("harness: interrupted by signal %d", (int)got_signal);
		finish(PA_FAIL, "interrupted");
		signal(got_signal, SIG_DFL);
		raise(got_signal);
		return PA_FAIL;
	}
	if (got_alarm) {
		snprintf(detail, sizeof(detail), "timed out after %d s", timeout);
		pa_diag("harness: %s; killed", detail);
		return finish(pa_classify(PA_FAIL, &c->xfail, ctx.kernel), detail);
	}
	if (sh->skipped && !sh->failures)
		return finish(PA_SKIP, sh->skip_reason);

	o = pa_classify(body_outcome(c, sh, status, detail, sizeof(detail)),
			&c->xfail, ctx.kernel);
	explain_outcome(c, o, detail, sizeof(detail));
	return finish(o, detail[0] ? detail : NULL);
}

/* "<area>/<name>" of the source file cases/<area>/<name>.c */
static void entry_name(const struct pa_case_entry *e, char *buf, size_t len)
{
	const char *f = e->file, *end = f + strlen(f), *p = end;
	int slashes = 0;

	if (end - f > 2 && !strcmp(end - 2, ".c"))
		end -= 2;
	while (p > f && slashes < 2)
		if (*--p == '/' && ++slashes == 2)
			p++;
	snprintf(buf, len, "%.*s", (int)(end - p), p);
}

static size_t case_count(void)
{
	return __start_pa_cases ? (size_t)(__stop_pa_cases - __start_pa_cases) : 0;
}

/* the case named "<area>/<name>"; or, for a name without its area (a case
 * copied out of its folder), the one case of that name */
static const struct pa_case_entry *find_case(const char *want)
{
	const struct pa_case_entry *only = NULL;
	char name[256];
	int alike = 0;

	for (size_t i = 0; i < case_count(); i++) {
		const char *slash;

		entry_name(&__start_pa_cases[i], name, sizeof(name));
		if (!strcmp(name, want))
			return &__start_pa_cases[i];
		slash = strchr(name, '/');
		if (!strchr(want, '/') && slash && !strcmp(slash + 1, want)) {
			only = &__start_pa_cases[i];
			alike++;
		}
	}
	return alike == 1 ? only : NULL;
}

/* The case of a program run as DIR/<area>/<name> (a link in the build's
 * cases/ folder, or kselftest's "./<name>" run inside <area>/) */
static const struct pa_case_entry *case_of_argv0(const char *argv0)
{
	char dir[PATH_MAX], real[PATH_MAX], want[300];
	const char *base = strrchr(argv0, '/'), *area;
	char *slash;

	if (!base)
		return find_case(argv0);
	snprintf(dir, sizeof(dir), "%.*s", (int)(base - argv0), argv0);
	base++;
	if (!dir[0])
		snprintf(dir, sizeof(dir), "/");
	slash = strrchr(dir, '/');
	area = slash ? slash + 1 : dir;
	if (!strcmp(area, ".") || !strcmp(area, "..") || !area[0]) {
		if (!realpath(dir, real))
			return find_case(base);
		slash = strrchr(real, '/');
		area = slash ? slash + 1 : real;
	}
	snprintf(want, sizeof(want), "%s/%s", area, base);
	return find_case(want);
}

static void set_case(const struct pa_case_entry *e)
{
	pa_this_case = e->c;
	pa_tracepoint_unkept = e->c->tracepoint_unkept;
	entry_name(e, pa_this_case_name, sizeof(pa_this_case_name));
}

/* perfabi-cases --list (each name) and --info-all (every case's --info,
 * each after a line "case: <area>/<name>", for the runner's discovery in
 * one exec) */
static int list_cases(bool info)
{
	char name[256];

	for (size_t i = 0; i < case_count(); i++) {
		entry_name(&__start_pa_cases[i], name, sizeof(name));
		printf(info ? "case: %s\n" : "%s\n", name);
		if (info)
			pa_info_print(stdout, __start_pa_cases[i].c, name);
	}
	return ferror(stdout) || fflush(stdout) ? PA_FAIL : 0;
}

/*
 * perfabi-cases --unmet=<area>/<name>,... (or any case of the program
 * with that option): for the runner, once per matrix cell (run as the
 * cell's identity, at its paranoid level, as the case path it runs that
 * cell's cases by, which that identity can reach): each named
 * case whose requirements this context does not meet, found as the case
 * finds them at its own start (unmet_requirement()), after the header
 * lines it would print there:
 *   # <area>/<name>: <assertion>
 *   # ref: <ref>
 *   unmet: <area>/<name><TAB><reason>
 * The runner reports those SKIPs without running each case (an exec and
 * a start-up each, for the same answer). A case at fault (no assertion,
 * an unknown feature) is left out: its own run fails.
 */
static int list_unmet(const char *names)
{
	char *list = strdup(names), *save = NULL;

	if (!list)
		return PA_FAIL;
	for (char *n = strtok_r(list, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
		const struct pa_case_entry *e = find_case(n);
		struct pa_context ctx;
		char why[512], reason[512];
		const char *unmet;
		bool defect = false;

		if (!e || !e->c->assertion || !e->c->assertion[0])
			continue;
		set_case(e);
		unmet = unmet_requirement(pa_this_case, &ctx, why, sizeof(why), &defect);
		if (!unmet || defect)
			continue;
		snprintf(reason, sizeof(reason), "%s", unmet);
		pa_text_sanitize(reason, false);
		print_case_lines(pa_this_case);
		printf("unmet: %s\t%s\n", pa_this_case_name, reason);
	}
	free(list);
	return ferror(stdout) || fflush(stdout) ? PA_FAIL : 0;
}

static int multi_usage(const char *prog, FILE *f, int status)
{
	fprintf(f, "usage: %s <area>/<name> [--info]   run one case (as if run as cases/<area>/<name>)\n"
		   "       %s --list                   the names of the %zu cases in this program\n"
		   "       %s --info-all               every case's --info, each after \"case: <area>/<name>\"\n"
		   "       %s --unmet=<a>/<n>,...      those of the cases whose requirements are unmet here, and why\n",
		prog, prog, case_count(), prog, prog);
	return status;
}

int main(int argc, char **argv)
{
	const struct pa_case_entry *e = case_count() == 1 ? __start_pa_cases : NULL;
	const char *prog = argv[0] ? argv[0] : "perfabi-cases";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!e && argc > 0)
		e = case_of_argv0(prog);
	if (!e) {
		/* the program run by its own name (or a name it does not hold) */
		if (argc < 2)
			return multi_usage(prog, stderr, 64);
		if (!strcmp(argv[1], "--list") || !strcmp(argv[1], "--info-all"))
			return list_cases(!strcmp(argv[1], "--info-all"));
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
			return multi_usage(prog, stdout, 0);
		if (!strncmp(argv[1], "--unmet=", 8))
			return list_unmet(argv[1] + 8);
		if (argv[1][0] == '-' || !(e = find_case(argv[1]))) {
			fprintf(stderr, "%s: no case named '%s' in this program (%s --list names them)\n",
				prog, argv[1], prog);
			return 64;	/* EX_USAGE: 0-4 are outcomes */
		}
		argv++;
		argc--;
	}
	set_case(e);
	if (argc > 1) {
		if (!strncmp(argv[1], "--unmet=", 8))	/* any case answers for all */
			return list_unmet(argv[1] + 8);
		if (!strcmp(argv[1], "--info")) {
			pa_info_print(stdout, pa_this_case, pa_this_case_name);
			return 0;
		}
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			printf("usage: %s [--info]\n"
			       "Runs the case %s and prints KTAP.\n"
			       "Exit status: 0 pass, 1 fail, 2 xfail, 3 xpass, 4 skip, 64 bad usage.\n"
			       "Environment: PERFABI_TIMEOUT_SCALE multiplies the timeout.\n",
			       argv[0], pa_this_case_name);
			return 0;
		}
		fprintf(stderr, "%s: unknown option '%s' (try --help)\n", argv[0], argv[1]);
		return 64;	/* EX_USAGE: 0-4 are outcomes */
	}
	if (!pa_this_case->assertion || !pa_this_case->assertion[0]) {
		fprintf(stderr, "%s: the case declares no .assertion\n", pa_this_case_name);
		return PA_FAIL;
	}
	return (int)run();
}
