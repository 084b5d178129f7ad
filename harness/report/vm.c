// SPDX-License-Identifier: GPL-2.0
/*
 * What a ./run.sh --vm guest left, read in C (harness/tools/vm.sh runs the
 * guests and calls these):
 *
 *   perfabi-report vm-stream
 *       the guest's console on stdin, its KTAP stream on stdout indented as
 *       the kernel's subtest, kernel trouble as diagnostics (live progress)
 *   perfabi-report vm-collect [options] DIR
 *       DIR/console.log after the guest ended: the kernel's state (ok,
 *       hung, panic, kernel-warning, no-boot, no-results), the kernel log's
 *       trouble in DIR/kernel-trouble.txt, the results salvaged from the
 *       streamed KTAP when none came back, the case that was running when
 *       the guest broke failed, DIR/vm.json; prints the kernel's KTAP result
 *   perfabi-report vm-summary RUNDIR LABEL...
 *       the run's closing lines: one per kernel, then the failures
 */
#include "report.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define VM_PROG "vm.sh"

/* Kernel trouble on the console: printk lines (with or without the time)
 * that say panic, oops, WARN, BUG or show a call trace; not case output. */
#define KTROUBLE "^(\\[ *[0-9]+\\.[0-9]+\\] )?([A-Za-z0-9_]+: )?(Kernel panic - not syncing|Oops|WARNING:|BUG:|kernel BUG at|general protection fault|Call Trace)"

struct console {
	char **l;	/* lines, without their newline */
	int n;
};

static int console_read(struct console *c, const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	c->l = NULL;
	c->n = 0;
	if (!f)
		return -1;
	while ((len = getline(&line, &cap, f)) >= 0) {
		char **nl;

		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		nl = realloc(c->l, (size_t)(c->n + 1) * sizeof(*nl));
		if (!nl)
			break;
		c->l = nl;
		c->l[c->n++] = strdup(line);
	}
	free(line);
	fclose(f);
	return 0;
}

static void console_free(struct console *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->l[i]);
	free(c->l);
}

/* the first line index at or after `from` that starts with `prefix`, or -1 */
static int find(const struct console *c, int from, const char *prefix)
{
	for (int i = from < 0 ? 0 : from; i < c->n; i++)
		if (!strncmp(c->l[i], prefix, strlen(prefix)))
			return i;
	return -1;
}

static int find_last(const struct console *c, const char *prefix)
{
	for (int i = c->n - 1; i >= 0; i--)
		if (!strncmp(c->l[i], prefix, strlen(prefix)))
			return i;
	return -1;
}

/* the text after the last "[ 123.456] " of a printk line */
static const char *after_time(const char *s)
{
	const char *best = s;

	for (const char *p = strchr(s, '['); p; p = strchr(p + 1, '[')) {
		const char *q = p + 1;

		while (*q == ' ')
			q++;
		if (!isdigit((unsigned char)*q))
			continue;
		while (isdigit((unsigned char)*q))
			q++;
		if (*q != '.' || !isdigit((unsigned char)q[1]))
			continue;
		q++;
		while (isdigit((unsigned char)*q))
			q++;
		if (q[0] == ']' && q[1] == ' ')
			best = q + 2;
	}
	return best;
}

/* the first line in [from, to] (to -1: the end) matching re, or -1 */
static int grep_first(const struct console *c, int from, int to, const regex_t *re,
		      const char *also)
{
	for (int i = from < 0 ? 0 : from; i < c->n && (to < 0 || i <= to); i++)
		if (!regexec(re, c->l[i], 0, NULL, 0) || (also && strstr(c->l[i], also)))
			return i;
	return -1;
}

/* "perfabi-vm: init at 1.50s uptime, kernel R, paranoid P" and the like:
 * the text between `key` and `end` on the first (or last) line with prefix */
static void field(const struct console *c, const char *prefix, bool last, const char *key,
		  const char *end, char *out, size_t len)
{
	int i = last ? find_last(c, prefix) : find(c, 0, prefix);
	const char *p = i < 0 ? NULL : strstr(c->l[i], key);

	out[0] = 0;
	if (!p)
		return;
	p += strlen(key);
	snprintf(out, len, "%.*s", (int)(end[0] ? strcspn(p, end) : strlen(p)), p);
}

static bool result_name(const char *line, char *name, size_t len)
{
	enum pa_outcome o;
	char detail[8];
	int n;

	return pa_ktap_parse_result(line, &n, name, len, &o, detail, sizeof(detail));
}

/* ---- vm-stream --------------------------------------------------------- */

static bool starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static int cmd_vm_stream(void)
{
	char *line = NULL, name[512];
	size_t cap = 0;
	ssize_t len;

	while ((len = getline(&line, &cap, stdin)) >= 0) {
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (starts(line, "TAP version ") || starts(line, "KTAP version ") ||
		    (starts(line, "1..") && isdigit((unsigned char)line[3])) ||
		    result_name(line, name, sizeof(name)) || !strcmp(line, "#") || starts(line, "# "))
			printf("    %s\n", line);
		else if (strstr(line, " passed") && isdigit((unsigned char)line[0]))
			printf("    # %s\n", line);
		else if (starts(line, "perfabi-vm: init") || starts(line, "perfabi-vm: runner") ||
			 starts(line, "perfabi-vm: starting") || strstr(line, "Kernel panic") ||
			 strstr(line, "Oops") || strstr(line, "WARNING:") || strstr(line, "BUG:"))
			printf("    # %s\n", line);
		else
			continue;
		fflush(stdout);
	}
	free(line);
	return 0;
}

/* ---- vm-collect ---------------------------------------------------------- */

/* What vm.sh knows of the guest, each one option; written to vm.json in
 * this order (numbers bare, the rest as strings), around what the console
 * says. */
enum { F_KERNEL, F_PACKAGE, F_PACKAGE_VERSION, F_IMAGE, F_ACCEL, F_CPUS, F_MAX_CPUS,
       F_MEMORY, F_CMDLINE, F_RUNNER_ARGS, F_ATTEMPTS, F_WALL, F_LIMIT, F_INITRAMFS,
       F_CONFIG, F_CONFIG_NAME, F_QEMU_EXIT, F_RUN_ID, F_NUMBER, F_CASES, F_RUNNER,
       F_STATE, F_DETAIL, F_N };
static const struct {
	const char *opt, *key;
	bool num;
} facts[F_N] = {
	[F_KERNEL] = { "--label", "kernel", false },
	[F_PACKAGE] = { "--package", "package", false },
	[F_PACKAGE_VERSION] = { "--package-version", "package_version", false },
	[F_IMAGE] = { "--image", "image", false },
	[F_ACCEL] = { "--accel", "accelerator", false },
	[F_CPUS] = { "--cpus", "cpus", true },
	[F_MAX_CPUS] = { "--max-cpus", "max_cpus", true },
	[F_MEMORY] = { "--memory", "memory", false },
	[F_CMDLINE] = { "--cmdline", "cmdline", false },
	[F_RUNNER_ARGS] = { "--runner-args", "runner_args", false },
	[F_ATTEMPTS] = { "--attempts", "boot_attempts", true },
	[F_WALL] = { "--wall-s", "wall_s", true },
	[F_LIMIT] = { "--limit-s", "limit_s", true },
	[F_INITRAMFS] = { "--initramfs", NULL, false },	/* FORMAT:MB:BUILD_S:PACK_S */
	[F_CONFIG] = { "--config", NULL, false },	/* the kernel's .config, if any */
	[F_CONFIG_NAME] = { "--config-name", "config_name", false },
	[F_QEMU_EXIT] = { "--qemu-exit", "qemu_exit", true },
	[F_RUN_ID] = { "--run-id", NULL, false },
	[F_NUMBER] = { "--number", NULL, true },	/* the kernel's KTAP number */
	[F_CASES] = { "--cases", NULL, false },		/* build/cases: for an oops's Comm: */
	[F_RUNNER] = { "--runner", NULL, false },	/* perfabi-run: a case's [privilege] */
	[F_STATE] = { "--state", NULL, false },		/* no guest ran: why (build-failed) */
	[F_DETAIL] = { "--detail", NULL, false },
};

struct guest {
	const char *f[F_N];
	const char *dir;
	struct console c;
	char boot[32], suite_s[32], release[256], paranoid[32], runner_rc[16];
	bool have_results;
	int trouble;		/* line index, or -1 */
	char boot_trouble[512], late_trouble[512];
	const char *state;
	char detail[2048];
	int sub_n, sub_plan;
	bool sub_started;
};

static const char *fact(const struct guest *g, int i)
{
	return g->f[i] ? g->f[i] : "";
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	fputs(VM_PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static FILE *open_in(const struct guest *g, const char *name, const char *mode)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", g->dir, name);
	f = fopen(path, mode);
	if (!f)
		say("cannot write %s: %s", path, strerror(errno));
	return f;
}

/* the facts the console gives: times, release, level, the runner's exit */
static void read_markers(struct guest *g)
{
	const struct console *c = &g->c;
	char s0[32], s1[32];
	struct stat st;
	char path[4200];

	field(c, "perfabi-vm: init at ", false, "at ", "s", g->boot, sizeof(g->boot));
	field(c, "perfabi-vm: init at ", false, ", kernel ", ",", g->release, sizeof(g->release));
	field(c, "perfabi-vm: init at ", false, ", paranoid ", "", g->paranoid, sizeof(g->paranoid));
	field(c, "perfabi-vm: suite at ", false, "at ", "s", s0, sizeof(s0));
	field(c, "perfabi-vm: runner exited ", false, " at ", "s", s1, sizeof(s1));
	g->suite_s[0] = 0;
	if (s0[0] && s1[0])
		snprintf(g->suite_s, sizeof(g->suite_s), "%.1f", strtod(s1, NULL) - strtod(s0, NULL));
	field(c, "===PERFABI-RESULTS-END rc=", true, "rc=", "=", g->runner_rc, sizeof(g->runner_rc));
	snprintf(path, sizeof(path), "%s/results.tsv", g->dir);
	g->have_results = g->runner_rc[0] && !stat(path, &st);
	for (int i = 0; i < c->n; i++) {
		char name[512];

		if (starts(c->l[i], "TAP version ") || starts(c->l[i], "KTAP version "))
			g->sub_started = true;
		else if (starts(c->l[i], "1..") && isdigit((unsigned char)c->l[i][3]))
			g->sub_plan = atoi(c->l[i] + 3);
		else if (result_name(c->l[i], name, sizeof(name)))
			g->sub_n++;
	}
}

/* Kernel trouble: from the suite's start to the runner's exit it is a
 * case's doing; while booting, or after the runner exited (while the
 * results are dumped over the serial port: an -rt kernel under TCG can
 * report "irq 4: nobody cared" for the 8250 then), it is only noted. */
static void read_trouble(struct guest *g, const regex_t *re)
{
	const struct console *c = &g->c;
	int start = find(c, 0, "perfabi-vm: starting perfabi-run");
	int end = start < 0 ? -1 : find(c, start, "perfabi-vm: runner exited");
	int i;

	g->trouble = start < 0 ? -1 : grep_first(c, start, end, re, NULL);
	i = grep_first(c, 0, start, re, NULL);
	snprintf(g->boot_trouble, sizeof(g->boot_trouble), "%s", i < 0 ? "" : after_time(c->l[i]));
	if (g->boot_trouble[0])
		say("%s: while booting the kernel logged: %s", fact(g, F_KERNEL), g->boot_trouble);
	end = find(c, 0, "perfabi-vm: runner exited");
	i = end < 0 ? -1 : grep_first(c, end, -1, re, "nobody cared");
	snprintf(g->late_trouble, sizeof(g->late_trouble), "%s", i < 0 ? "" : after_time(c->l[i]));
	if (g->late_trouble[0])
		say("%s: after the suite ended the kernel logged: %s (not counted against a case)",
		    fact(g, F_KERNEL), g->late_trouble);
}

static void classify(struct guest *g)
{
	const char *q = fact(g, F_QEMU_EXIT);
	bool panic = false;
	int i;

	for (i = 0; i < g->c.n && !panic; i++)
		panic = strstr(g->c.l[i], "Kernel panic") != NULL;
	g->state = "ok";
	g->detail[0] = 0;
	if (!strcmp(q, "124") || !strcmp(q, "137")) {
		g->state = "hung";
		snprintf(g->detail, sizeof(g->detail), "guest killed after the %ld min limit",
			 strtol(fact(g, F_LIMIT), NULL, 10) / 60);
	} else if (g->trouble >= 0) {
		g->state = panic ? "panic" : "kernel-warning";
	} else if (!g->boot[0]) {
		i = find(&g->c, 0, "qemu-system");
		g->state = "no-boot";
		snprintf(g->detail, sizeof(g->detail), "the guest never reached the perfabi init (qemu exit %s%s%s)",
			 q, i < 0 ? "" : ": ", i < 0 ? "" : g->c.l[i]);
	} else if (!g->have_results) {
		g->state = "no-results";
		snprintf(g->detail, sizeof(g->detail), "no results came back from the guest (qemu exit %s)", q);
	}
	if (g->trouble < 0)
		return;
	FILE *f = open_in(g, "kernel-trouble.txt", "we");

	for (i = g->trouble > 5 ? g->trouble - 5 : 0; f && i < g->c.n && i <= g->trouble + 30; i++)
		fprintf(f, "%s\n", g->c.l[i]);
	if (f)
		fclose(f);
	if (!g->detail[0]) {
		const char *t = g->c.l[g->trouble];

		if (t[0] == '[' && strchr(t, ']') && strspn(t + 1, " 0123456789.") == (size_t)(strchr(t, ']') - t - 1))
			t = strchr(t, ']') + 1 + (strchr(t, ']')[1] == ' ');
		snprintf(g->detail, sizeof(g->detail), "%s", t);
	}
}

/* The result name of the case that was running when the guest died: the
 * init's "running" line, or the oops's "Comm:" matched against the case
 * binaries (with the cell inferred: the oops's UID, the level of that
 * case's previous result or the boot level), else "". */
static bool running_from_comm(struct guest *g, const char *comm, const char *run,
			      const char *last, char *out, size_t len)
{
	const struct console *c = &g->c;
	struct dirent **areas = NULL, **names = NULL;
	int na, nn = 0;
	bool found = false;

	na = scandir(fact(g, F_CASES), &areas, NULL, alphasort);
	for (int a = 0; a < na; a++) {
		char adir[4200];

		if (areas[a]->d_name[0] == '.' || found)
			continue;
		snprintf(adir, sizeof(adir), "%s/%s", fact(g, F_CASES), areas[a]->d_name);
		nn = scandir(adir, &names, NULL, alphasort);
		for (int k = 0; k < nn; k++) {
			char n[600], uid[32], level[32] = "";
			const char *id, *at;
			int i;

			if (found || names[k]->d_name[0] == '.' ||
			    strncmp(names[k]->d_name, comm, strlen(comm)))
				continue;
			found = true;
			snprintf(n, sizeof(n), "%s/%s", areas[a]->d_name, names[k]->d_name);
			at = strchr(run, '@');
			if (at && !strncmp(run, n, (size_t)(at - run)) && !n[at - run] && strcmp(run, last)) {
				snprintf(out, len, "%s", run);
				continue;
			}
			uid[0] = 0;
			for (i = 0; i < c->n && !uid[0]; i++) {
				const char *u = strstr(c->l[i], "UID: ");

				if (u)
					snprintf(uid, sizeof(uid), "%.*s", (int)strspn(u + 5, "0123456789"), u + 5);
			}
			id = !uid[0] ? "unknown" : strcmp(uid, "0") ? "user" : "root";
			at = strchr(last, '@');
			if (at && !strncmp(last, n, (size_t)(at - last)) && !n[at - last] && strstr(last, "paranoid=")) {
				snprintf(level, sizeof(level), "%s", strstr(last, "paranoid=") + 9);
			} else if (!strcmp(id, "unknown")) {
				/* its first run: the runner starts every case as
				 * root, privilege-sensitive ones at the lowest level */
				char cmd[5000], line[1024];
				FILE *p;

				id = "root";
				snprintf(cmd, sizeof(cmd), "'%s' --list '%s' 2>/dev/null", fact(g, F_RUNNER), n);
				p = g->f[F_RUNNER] && !strchr(n, '\'') ? popen(cmd, "r") : NULL;
				while (p && fgets(line, sizeof(line), p))
					if (strstr(line, "[privilege]"))
						snprintf(level, sizeof(level), "-1");
				if (p)
					pclose(p);
			}
			if (!level[0])
				snprintf(level, sizeof(level), "%s", g->paranoid);
			snprintf(out, len, "%s@%s,paranoid=%s", n, id, level[0] ? level : "unknown");
		}
		for (int k = 0; k < nn; k++)
			free(names[k]);
		free(names);
		names = NULL;
	}
	for (int a = 0; a < na; a++)
		free(areas[a]);
	free(areas);
	return found;
}

static void running_case(struct guest *g, char *out, size_t len)
{
	const struct console *c = &g->c;
	char run[600] = "", last[600] = "", comm[64] = "";
	int i;

	i = find_last(c, "perfabi-vm: running ");
	if (i >= 0 && strchr(c->l[i] + 20, '@') && !strchr(c->l[i] + 20, ' '))
		snprintf(run, sizeof(run), "%s", c->l[i] + 20);
	for (i = c->n - 1; i >= 0 && !result_name(c->l[i], last, sizeof(last)); i--)
		;
	if (i < 0)
		last[0] = 0;
	for (i = 0; i < c->n && !comm[0]; i++) {
		const char *p = strstr(c->l[i], "Comm: ");

		if (p)
			snprintf(comm, sizeof(comm), "%.*s", (int)strcspn(p + 6, " "), p + 6);
	}
	out[0] = 0;
	if (comm[0] && running_from_comm(g, comm, run, last, out, len))
		return;
	if (run[0] && strcmp(run, last))
		snprintf(out, len, "%s", run);
}

/* No results came back: those of the KTAP the guest streamed, in
 * kselftest's forms and the older ones (pa_ktap_parse_result()). */
static int salvage(struct guest *g, char *lastres, size_t len)
{
	const struct console *c = &g->c;
	FILE *tap = open_in(g, "run.tap", "we"), *tsv = open_in(g, "results.tsv", "we");
	const char *pending = "";
	int n = 0, i = 0;

	lastres[0] = 0;
	while (i < c->n && !starts(c->l[i], "TAP version") && !starts(c->l[i], "KTAP version"))
		i++;
	for (; tap && i < c->n; i++)
		if (starts(c->l[i], "TAP version") || starts(c->l[i], "KTAP version") ||
		    starts(c->l[i], "1..") || starts(c->l[i], "ok ") ||
		    starts(c->l[i], "not ok ") || starts(c->l[i], "#"))
			fprintf(tap, "%s\n", c->l[i]);
	for (i = 0; tsv && i < c->n; i++) {
		char name[600], detail[2048];
		enum pa_outcome o;
		int num;

		if (pa_ktap_detail_line(c->l[i])) {
			pending = pa_ktap_detail_line(c->l[i]);
			continue;
		}
		if (!pa_ktap_parse_result(c->l[i], &num, name, sizeof(name), &o, detail, sizeof(detail)))
			continue;
		fprintf(tsv, "%s\t%s\t0\t%s\n", name, pa_outcome_name(o),
			detail[0] || (o != PA_PASS && o != PA_FAIL) ? detail : pending);
		pending = "";
		snprintf(lastres, len, "%s", name);
		n++;
	}
	if (tap)
		fclose(tap);
	if (tsv)
		fclose(tsv);
	return n;
}

/* The guest broke before its results came back: they come from its
 * stream, and the case that was running then fails. */
static void broke(struct guest *g)
{
	char who[700], lastres[600], line[4096];
	int n = salvage(g, lastres, sizeof(lastres));
	size_t dl = strlen(g->detail);
	FILE *f;

	if (!strcmp(g->state, "ok"))
		return;
	if (find(&g->c, 0, "perfabi-vm: runner exited") >= 0) {
		/* a runner that exited ran every case: only the transfer of
		 * its results broke, which is no case's doing */
		snprintf(who, sizeof(who), "vm/%s@%s", g->state, fact(g, F_KERNEL));
		snprintf(g->detail + dl, sizeof(g->detail) - dl,
			 " after the runner exited (the results above are from the console)");
	} else {
		running_case(g, who, sizeof(who));
	}
	if (!who[0])
		snprintf(who, sizeof(who), "vm/%s@unknown", g->state);
	dl = strlen(g->detail);
	snprintf(g->detail + dl, sizeof(g->detail) - dl, "; last result before it: %s",
		 lastres[0] ? lastres : "none");
	snprintf(line, sizeof(line), "%s: %s (kernel %s, see console.log%s)", g->state, g->detail,
		 fact(g, F_KERNEL), g->trouble >= 0 ? " and kernel-trouble.txt" : "");
	if ((f = open_in(g, "results.tsv", "ae"))) {
		fprintf(f, "%s\tfail\t0\t%s\n", who, line);
		fclose(f);
	}
	if ((f = open_in(g, "run.tap", "ae"))) {
		fprintf(f, PA_KTAP_DETAIL "%s: %s\nnot ok %d %s\n", g->state, g->detail, n + 1, who);
		fclose(f);
	}
	/* in this kernel's subtest, where the guest's stream began and its
	 * plan has room (else the kernel's line says it) */
	if (g->sub_started && g->sub_n < g->sub_plan)
		printf("    " PA_KTAP_DETAIL "%s: %s\n    not ok %d %s\n", g->state, g->detail,
		       g->sub_n + 1, who);
	if ((f = open_in(g, "summary.json", "we"))) {
		char rid[1024];

		snprintf(rid, sizeof(rid), "%s/%s", fact(g, F_RUN_ID), fact(g, F_KERNEL));
		fputs("{\n  \"perfabi\": 1,\n  \"run_id\": ", f);
		pa_json_str(f, rid);
		fputs(",\n  \"kernel\": ", f);
		pa_json_str(f, g->release[0] ? g->release : "unknown");
		fputs(",\n  \"incomplete\": true,\n  \"vm_state\": ", f);
		pa_json_str(f, g->state);
		fputs("\n}\n", f);
		fclose(f);
	}
}

/* The guest survived an oops or a WARN. The runner fails a case that
 * taints the kernel, but not when the taint bit was already set: the
 * result printed next after the message is the case that was running
 * then, and it fails here whatever it said. */
static void survived(struct guest *g)
{
	char who[600] = "", path[4200], tmp[4300], why[3000], *line = NULL;
	size_t cap = 0;
	FILE *f, *in;

	for (int i = g->trouble + 1; i < g->c.n && !who[0]; i++)
		if (!result_name(g->c.l[i], who, sizeof(who)))
			who[0] = 0;
	say("%s: kernel trouble while %s ran: %s", fact(g, F_KERNEL), who[0] ? who : "the suite", g->detail);
	if (!who[0])
		return;
	snprintf(why, sizeof(why), "the kernel logged trouble while it ran (%s): %s (see kernel-trouble.txt)",
		 g->state, g->detail);
	snprintf(path, sizeof(path), "%s/results.tsv", g->dir);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	in = fopen(path, "re");
	f = in ? fopen(tmp, "we") : NULL;
	while (f && getline(&line, &cap, in) >= 0) {
		char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
		char *t3 = t2 ? strchr(t2 + 1, '\t') : NULL;

		if (t3 && (size_t)(t1 - line) == strlen(who) && !strncmp(line, who, strlen(who)) &&
		    strncmp(t1 + 1, "fail\t", 5))
			fprintf(f, "%s\tfail\t%.*s\t%s\n", who, (int)(t3 - t2 - 1), t2 + 1, why);
		else
			fputs(line, f);
	}
	free(line);
	if (in)
		fclose(in);
	if (!f || fclose(f) || rename(tmp, path))
		say("cannot rewrite %s: %s", path, strerror(errno));
	if ((f = open_in(g, "run.tap", "ae"))) {
		fprintf(f, "# vm.sh: %s failed: the kernel logged trouble while it ran (%s): %s\n",
			who, g->state, g->detail);
		fclose(f);
	}
}

/* "3076 pass 0 fail 881 skip 6 xfail 0 xpass" of DIR/results.tsv; returns
 * the failures */
static int counts(const char *dir, char *out, size_t len)
{
	static const char *const word[] = { "pass", "fail", "skip", "xfail", "xpass" };
	char path[4200], *line = NULL;
	int n[5] = { 0 };
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/results.tsv", dir);
	f = fopen(path, "re");
	while (f && getline(&line, &cap, f) >= 0) {
		char *t = strchr(line, '\t');

		for (int k = 0; t && k < 5; k++)
			if (!strncmp(t + 1, word[k], strlen(word[k])) &&
			    strchr("\t\n", t[1 + strlen(word[k])]))
				n[k]++;
	}
	free(line);
	if (f)
		fclose(f);
	snprintf(out, len, "%d pass %d fail %d skip %d xfail %d xpass", n[0], n[1], n[2], n[3], n[4]);
	return n[1];
}

/* The options of the kernel's config that say what the suite can do
 * there, as {"CONFIG_X": "y", ...}: "n" for one the config lacks; {}
 * without a config. */
static void config_json(FILE *f, const char *cfg)
{
	static const char *const opt[] = {
		"PERF_EVENTS", "HAVE_HW_BREAKPOINT", "UPROBE_EVENTS", "KPROBE_EVENTS", "CGROUP_PERF",
		"BPF_EVENTS", "PREEMPT_RT", "FTRACE", "TRACEPOINTS", "SECURITY_PERF_EVENTS_RESTRICT",
		"PERF_EVENTS_INTEL_UNCORE", "HZ",
	};
	FILE *c = cfg && cfg[0] ? fopen(cfg, "re") : NULL;
	char *line = NULL;
	size_t cap = 0;

	fputc('{', f);
	for (size_t k = 0; c && k < sizeof(opt) / sizeof(opt[0]); k++) {
		char want[64], v[256] = "n";

		snprintf(want, sizeof(want), "CONFIG_%s=", opt[k]);
		rewind(c);
		while (getline(&line, &cap, c) >= 0)
			if (!strncmp(line, want, strlen(want))) {
				char *p = line + strlen(want), *o = v;

				for (; *p && *p != '\n' && o < v + sizeof(v) - 1; p++)
					if (*p != '"')
						*o++ = *p;
				*o = 0;
				break;
			}
		fprintf(f, "%s\"CONFIG_%s\": ", k ? ", " : "", opt[k]);
		pa_json_str(f, v);
	}
	fputc('}', f);
	free(line);
	if (c)
		fclose(c);
}

static void kv(FILE *f, const char *key, const char *val, bool num)
{
	fprintf(f, "  \"%s\": ", key);
	if (num)
		fputs(val && val[0] ? val : "null", f);
	else
		pa_json_str(f, val ? val : "");
	fputs(",\n", f);
}

static void write_vm_json(struct guest *g)
{
	FILE *f = open_in(g, "vm.json", "we");
	char ifmt[64] = "", imb[32] = "0", ib[32] = "0", ip[32] = "0";
	int i;

	if (!f)
		return;
	sscanf(fact(g, F_INITRAMFS), "%63[^:]:%31[^:]:%31[^:]:%31s", ifmt, imb, ib, ip);
	fputs("{\n", f);
	for (i = F_KERNEL; i <= F_IMAGE; i++)
		kv(f, facts[i].key, fact(g, i), facts[i].num);
	kv(f, "release", g->release, false);
	for (i = F_ACCEL; i <= F_ATTEMPTS; i++)
		kv(f, facts[i].key, fact(g, i), facts[i].num);
	kv(f, "trouble_before_suite", g->boot_trouble, false);
	kv(f, "trouble_after_suite", g->late_trouble, false);
	kv(f, "boot_s", g->boot, true);
	kv(f, "suite_s", g->suite_s, true);
	kv(f, "wall_s", fact(g, F_WALL), true);
	kv(f, "limit_s", fact(g, F_LIMIT), true);
	/* the host's share: packing the initramfs (the files once per run,
	 * with the first kernel; the compression once per format) */
	fputs("  \"initramfs\": {\"format\": ", f);
	pa_json_str(f, ifmt);
	fprintf(f, ", \"mb\": %s, \"build_s\": %s, \"pack_s\": %s},\n", imb, ib, ip);
	kv(f, "guest_paranoid_at_boot", g->paranoid, true);
	kv(f, "state", g->state, false);
	kv(f, "detail", g->detail, false);
	kv(f, "config_name", fact(g, F_CONFIG_NAME), false);
	kv(f, "qemu_exit", fact(g, F_QEMU_EXIT), true);
	kv(f, "runner_exit", g->runner_rc, true);
	kv(f, "results_from", g->have_results ? "guest" : "console", false);
	fputs("  \"config\": ", f);
	config_json(f, fact(g, F_CONFIG));
	fputs("\n}\n", f);
	fclose(f);
}

/* the kernel's result in the run's KTAP (one test per kernel) */
static int kernel_result(struct guest *g)
{
	char c[256];
	int nfail = counts(g->dir, c, sizeof(c));
	const char *n = fact(g, F_NUMBER), *label = fact(g, F_KERNEL);

	if (g->c.n || !g->f[F_STATE])
		say("%s: %s, %s; boot %s s, suite %s s, wall %s s (%s, %.*s initramfs) -> %s", label,
		    g->state, c, g->boot[0] ? g->boot : "?", g->suite_s[0] ? g->suite_s : "?",
		    fact(g, F_WALL), fact(g, F_ACCEL), (int)strcspn(fact(g, F_INITRAMFS), ":"),
		    fact(g, F_INITRAMFS), g->dir);
	if (strcmp(g->state, "ok")) {
		printf(PA_KTAP_DETAIL "%s%s%s%s%s\nnot ok %s %s\n", g->state, g->detail[0] ? ": " : "",
		       g->detail, g->c.n ? "; " : "", g->c.n ? c : "", n, label);
		return 1;
	}
	if (nfail) {
		printf(PA_KTAP_DETAIL "%d result(s) failed; %s\nnot ok %s %s\n", nfail, c, n, label);
		return 1;
	}
	printf("# %s: %s\nok %s %s\n", label, c, n, label);
	return 0;
}

static int cmd_vm_collect(int argc, char **argv)
{
	struct guest g = { 0 };
	regex_t re;
	int i, rc;

	for (i = 0; i < argc && argv[i][0] == '-'; i++) {
		int k;

		for (k = 0; k < F_N && strcmp(argv[i], facts[k].opt); k++)
			;
		if (k == F_N || i + 1 >= argc) {
			fprintf(stderr, "perfabi-report: vm-collect: unknown option or missing argument '%s'\n", argv[i]);
			return 2;
		}
		g.f[k] = argv[++i];
	}
	if (i + 1 != argc || !g.f[F_KERNEL] || !g.f[F_NUMBER]) {
		fprintf(stderr, "perfabi-report: vm-collect needs --label, --number and one DIR (see --help)\n");
		return 2;
	}
	g.dir = argv[i];
	if (g.f[F_STATE]) {
		/* no guest ran (the kernel did not build or fetch) */
		g.state = g.f[F_STATE];
		snprintf(g.detail, sizeof(g.detail), "%s", fact(&g, F_DETAIL));
		write_vm_json(&g);
		return kernel_result(&g);
	}
	{
		char path[4200];

		snprintf(path, sizeof(path), "%s/console.log", g.dir);
		if (console_read(&g.c, path)) {
			fprintf(stderr, "perfabi-report: cannot read %s: %s\n", path, strerror(errno));
			return 2;
		}
	}
	if (regcomp(&re, KTROUBLE, REG_EXTENDED | REG_NOSUB))
		return 2;
	read_markers(&g);
	read_trouble(&g, &re);
	regfree(&re);
	classify(&g);
	if (!g.have_results)
		broke(&g);
	else if (strcmp(g.state, "ok"))
		survived(&g);
	write_vm_json(&g);
	rc = kernel_result(&g);
	console_free(&g.c);
	return rc;
}

/* ---- vm-summary ---------------------------------------------------------- */

/* the value of "key" in a vm.json (one key a line), unquoted, or "" */
static void vm_json_get(const char *dir, const char *key, char *out, size_t len)
{
	char path[4200], pat[128], *line = NULL;
	size_t cap = 0;
	FILE *f;

	out[0] = 0;
	snprintf(path, sizeof(path), "%s/vm.json", dir);
	snprintf(pat, sizeof(pat), "  \"%s\": ", key);
	f = fopen(path, "re");
	while (f && getline(&line, &cap, f) >= 0) {
		char *v = line + strlen(pat);
		size_t l;

		if (strncmp(line, pat, strlen(pat)))
			continue;
		l = strcspn(v, "\n");
		if (l && v[l - 1] == ',')
			l--;
		if (l >= 2 && v[0] == '"' && v[l - 1] == '"')
			v++, l -= 2;
		snprintf(out, len, "%.*s", (int)l, v);
		break;
	}
	free(line);
	if (f)
		fclose(f);
}

static int cmd_vm_summary(int argc, char **argv)
{
	if (argc < 1) {
		fprintf(stderr, "perfabi-report: vm-summary needs RUNDIR and the kernels' labels\n");
		return 2;
	}
	printf("#\n# perfabi VM run %s\n", argv[0]);
	for (int i = 1; i < argc; i++) {
		char dir[4200], st[64], acc[32], boot[32], wall[32], detail[512], c[256];

		snprintf(dir, sizeof(dir), "%s/%s", argv[0], argv[i]);
		vm_json_get(dir, "state", st, sizeof(st));
		vm_json_get(dir, "accelerator", acc, sizeof(acc));
		vm_json_get(dir, "boot_s", boot, sizeof(boot));
		vm_json_get(dir, "wall_s", wall, sizeof(wall));
		vm_json_get(dir, "detail", detail, sizeof(detail));
		counts(dir, c, sizeof(c));
		if (!acc[0])	/* no guest ran */
			printf("# %-14s %-8s %s\n", argv[i], "-", detail);
		else
			printf("# %-14s %-8s %-5s boot %6s s  wall %7s s  %s\n", argv[i], st, acc,
			       strcmp(boot, "null") ? boot : "?", wall, c);
	}
	for (int i = 1; i < argc; i++) {
		char path[4200], *line = NULL;
		size_t cap = 0;
		int n = 0;
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s/results.tsv", argv[0], argv[i]);
		f = fopen(path, "re");
		while (f && getline(&line, &cap, f) >= 0) {
			char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
			char *t3 = t2 ? strchr(t2 + 1, '\t') : NULL;

			if (!t3 || strncmp(t1 + 1, "fail\t", 5) || n++ >= 20)
				continue;
			t3[1 + strcspn(t3 + 1, "\n")] = 0;
			printf("# FAIL [%s] %.*s: %.200s\n", argv[i], (int)(t1 - line), line, t3 + 1);
		}
		if (n > 20)
			printf("# ... and %d more failures on %s\n", n - 20, argv[i]);
		free(line);
		if (f)
			fclose(f);
	}
	return 0;
}

int rp_vm_main(const char *cmd, int argc, char **argv)
{
	if (!strcmp(cmd, "vm-stream"))
		return cmd_vm_stream();
	if (!strcmp(cmd, "vm-collect"))
		return cmd_vm_collect(argc, argv);
	if (!strcmp(cmd, "vm-summary"))
		return cmd_vm_summary(argc, argv);
	return -1;
}
