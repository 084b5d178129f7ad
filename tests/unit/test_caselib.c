// SPDX-License-Identifier: GPL-2.0
/*
 * The case library's checks and helpers on inputs made here: what each
 * failed check prints and counts, the open expectations, the attr.size
 * check, features, tracepoint format fields, fixtures, threads.
 */
#include "unit.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

static int saved_stdout = -1;

/* The failed checks below print their "# FAIL" diagnostics: not into
 * this program's output, where they would read as failures of its own. */
static int reset_state(void **state)
{
	int null = open("/dev/null", O_WRONLY);

	(void)state;
	memset(pa_state, 0, sizeof(*pa_state));
	fflush(stdout);
	saved_stdout = dup(1);
	dup2(null, 1);
	close(null);
	return 0;
}

static int restore_stdout(void **state)
{
	(void)state;
	fflush(stdout);
	dup2(saved_stdout, 1);
	close(saved_stdout);
	return 0;
}

/* ---- assertions ---- */
static void failed_checks_name_both_sides(void **state)
{
	(void)state;
	assert_false(pa_check_true(false, "x == 1", "f.c", 3));
	assert_int_equal(pa_state->failures, 1);
	assert_string_equal(pa_state->first_failure, "f.c:3: expected x == 1 to be true");
	assert_true(pa_check_true(true, "y", "f.c", 4));
	/* the first failure stays the one summarised */
	assert_false(pa_check_cmp(PA_VAL(-5), PA_GT, PA_VAL(2u), "a", "b", "g.c", 9));
	assert_string_equal(pa_state->first_failure, "f.c:3: expected x == 1 to be true");
	assert_int_equal(pa_state->failures, 2);
	assert_int_equal(pa_state->checks, 3);
	assert_false(pa_cmp(PA_VAL(1), (enum pa_op)42, PA_VAL(1)));
}

static void negative_values_print_signed(void **state)
{
	char line[256];

	(void)state;
	assert_false(pa_check_cmp(PA_VAL((int64_t)-5), PA_EQ, PA_VAL(70000), "a", "b", "h.c", 1));
	/* the summary is the first line; the values follow in the diagnostic */
	snprintf(line, sizeof(line), "%s", pa_state->first_failure);
	assert_string_equal(line, "h.c:1: expected a == b   a = -5   b = 70000 (0x11170)");
}

static void errno_checks(void **state)
{
	(void)state;
	assert_true(pa_check_errno(-1, EINVAL, EINVAL, "open()", "e.c", 1));
	assert_false(pa_check_errno(3, 0, EINVAL, "open()", "e.c", 2));
	assert_string_equal(pa_state->first_failure,
			    "e.c:2: open() returned 3, expected it to fail with EINVAL");
	memset(pa_state, 0, sizeof(*pa_state));
	assert_false(pa_check_errno(-1, EPERM, EINVAL, "open()", "e.c", 3));
	assert_string_equal(pa_state->first_failure,
			    "e.c:3: open() failed with EPERM, expected EINVAL");
	memset(pa_state, 0, sizeof(*pa_state));
	assert_true(pa_check_ok(0, 0, "close()", "e.c", 4));
	assert_false(pa_check_ok(-1, EBADF, "close()", "e.c", 5));
	assert_string_equal(pa_state->first_failure,
			    "e.c:5: close() failed with EBADF, expected success");
	assert_int_equal(pa_state->checks, 2);	/* since the last reset */
	assert_string_equal(pa_errno_name(0), "0 (no error)");
	assert_string_equal(pa_outcome_name(PA_FAIL), "fail");
}

static void do_abort(void *p)
{
	(void)p;
	printf("before");	/* no newline: pa_abort must flush it */
	pa_abort();
}

static void do_skip(void *p)
{
	(void)p;
	pa_skip("no %s here\nsecond line", "widget");
}

static void abort_and_skip_end_the_body(void **state)
{
	struct child c;

	(void)state;
	run_child(&c, do_abort, NULL);
	assert_int_equal(c.code, PA_FAIL);
	assert_string_equal(c.out, "before");
	run_child(&c, do_skip, NULL);
	assert_int_equal(c.code, PA_SKIP);
	assert_int_equal(c.st.skipped, 1);
	/* one KTAP line: the newline is made safe */
	assert_null(strchr(c.st.skip_reason, '\n'));
	assert_non_null(strstr(c.st.skip_reason, "no widget here"));
}

/* ---- pa_retry: noise is retried, the same wrong thing every time fails ---- */
struct tries {
	int n;			/* attempts made */
	int good_at;		/* the attempt that gets to its checks (0: none) */
	bool vary;		/* each spoiled attempt says something else */
};

static bool try_once(void *arg, char *seen, size_t len)
{
	struct tries *t = arg;

	if (++t->n == t->good_at)
		return true;
	snprintf(seen, len, "step 3 wrote %d bytes", t->vary ? 32 * t->n : 32);
	return false;
}

static void do_retry(void *p)
{
	pa_retry(3, try_once, p, "noise");
	printf("returned after %d", ((struct tries *)p)->n);
}

static void retry_fails_only_what_repeats(void **state)
{
	struct tries t = { 0 };
	struct child c;

	(void)state;
	/* a stand-in kernel that writes the wrong amount the same way each time */
	run_child(&c, do_retry, &t);
	assert_int_equal(c.code, PA_FAIL);
	assert_string_equal(c.st.first_failure, "every one of 3 tries: step 3 wrote 32 bytes");
	/* noise: each try spoiled differently */
	t = (struct tries){ .vary = true };
	run_child(&c, do_retry, &t);
	assert_int_equal(c.code, PA_SKIP);
	assert_string_equal(c.st.skip_reason,
			    "noise (3 tries, spoiled differently; the first: step 3 wrote 32 bytes)");
	assert_int_equal(c.st.failures, 0);
	/* the third try got through: its checks decide */
	t = (struct tries){ .good_at = 3 };
	run_child(&c, do_retry, &t);
	assert_int_equal(c.code, 0);
	assert_non_null(strstr(c.out, "returned after 3"));
}

/* ---- pa_throttle_check: the sample rate decides whether a throttle is
 * the environment's or the kernel's (root, a writable rate) ---- */
static void do_throttle_check(void *p)
{
	printf("rate %ld", pa_throttle_check(*(int *)p));
}

static int write_rate(const char *v)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "w");
	int bad;

	if (!f)
		return -1;
	bad = fputs(v, f) < 0;
	return fclose(f) || bad ? -1 : 0;
}

static void throttle_rule_follows_the_rate(void **state)
{
	char saved[32] = "";
	struct child c, c4;
	int burst;
	FILE *f;

	(void)state;
	f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	if (!f || !fgets(saved, sizeof(saved), f) || geteuid()) {
		if (f)
			fclose(f);
		skip();
	}
	fclose(f);
	if (write_rate("5000"))
		skip();
	/* 5000/s is 5 overflows a tick at HZ 1000: a burst of 5 may be throttled */
	burst = 5;
	run_child(&c, do_throttle_check, &burst);
	/* ... a burst of 4 may not: the kernel's fault */
	burst = 4;
	run_child(&c4, do_throttle_check, &burst);
	(void)write_rate(saved);
	assert_int_equal(c.code, 0);
	assert_string_equal(c.out, "rate 5000");
	assert_int_equal(c4.code, PA_FAIL);
	assert_string_equal(c4.st.first_failure,
			    "PERF_RECORD_THROTTLE within a burst of 4 overflows while kernel.perf_event_max_sample_rate is 5000: "
			    "at HZ <= 1000 an event may take at least 5 overflows a tick");
}

/* ---- pa_open_expect ---- */
struct oe {
	uint32_t type;
	int want;
};

static void do_open_expect(void *p)
{
	struct oe *o = p;
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int r;

	a.type = o->type;
	r = pa_open_expect(&a, 0, -1, -1, 0, o->want, "o.c", 7);
	printf("ret %d\n", r < 0 ? r : 0);
}

static void open_expectations(void **state)
{
	struct oe o = { PERF_TYPE_SOFTWARE, EINVAL };
	struct child c;

	(void)state;
	if (pa_probe_self_perf())
		skip();
	run_child(&c, do_open_expect, &o);
	assert_non_null(strstr(c.out, "ret -1"));
	assert_non_null(strstr(c.st.first_failure, "o.c:7: perf_event_open(type=1 config=0x1, pid=0, cpu=-1, group_fd=-1, flags=0) returned fd "));
	assert_non_null(strstr(c.st.first_failure, ", expected EINVAL"));
	o.type = 0x7ffffff0u;	/* no such PMU: ENOENT */
	run_child(&c, do_open_expect, &o);
	assert_non_null(strstr(c.out, "ret -1"));
	assert_string_equal(c.st.first_failure, "o.c:7: perf_event_open(type=2147483632 config=0x1, pid=0, cpu=-1, group_fd=-1, flags=0) failed with ENOENT, expected EINVAL");
	o.want = 0;
	run_child(&c, do_open_expect, &o);
	assert_non_null(strstr(c.out, "ret -1"));
	assert_string_equal(c.st.first_failure, "o.c:7: perf_event_open(type=2147483632 config=0x1, pid=0, cpu=-1, group_fd=-1, flags=0) failed with ENOENT, expected an fd");
	o.want = ENOENT;
	run_child(&c, do_open_expect, &o);
	assert_non_null(strstr(c.out, "ret -2"));
	assert_int_equal(c.st.failures, 0);
	assert_int_equal(c.st.checks, 1);
}

/* ---- EXPECT_E2BIG_SIZE ---- */
struct e2 {
	uint32_t type, size;
	const char *kernel;
};

static void do_e2big(void *p)
{
	struct e2 *e = p;
	union { struct perf_event_attr a; char b[sizeof(struct perf_event_attr) + 64]; } u;

	if (e->kernel)
		setenv("PERFABI_KERNEL_VERSION", e->kernel, 1);
	memset(&u, 0, sizeof(u));
	u.a = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	u.a.type = e->type;
	u.a.size = e->size;
	u.b[sizeof(u) - 1] = 1;		/* a non-zero byte the kernel does not know */
	printf("e2big %s\n", pa_expect_e2big_size(&u.a, "s.c", 5) ? "yes" : "no");
}

static void e2big_size_check(void **state)
{
	struct e2 e = { PERF_TYPE_SOFTWARE, sizeof(struct perf_event_attr) + 64, NULL };
	char want[200];
	struct child c;

	(void)state;
	if (pa_probe_self_perf())
		skip();
	run_child(&c, do_e2big, &e);
	assert_non_null(strstr(c.out, "e2big yes"));
	assert_int_equal(c.st.failures, 0);
	/* a size the kernel takes: an fd, not E2BIG */
	e.size = sizeof(struct perf_event_attr);
	run_child(&c, do_e2big, &e);
	assert_non_null(strstr(c.out, "e2big no"));
	snprintf(want, sizeof(want), "s.c:5: perf_event_open(attr.size=%u) returned fd ", e.size);
	assert_non_null(strstr(c.st.first_failure, want));
	/* another error */
	e.type = 0x7ffffff0u;
	run_child(&c, do_e2big, &e);
	snprintf(want, sizeof(want), "s.c:5: perf_event_open(attr.size=%u) failed with ENOENT, expected E2BIG", e.size);
	assert_string_equal(c.st.first_failure, want);
	/* the kernel's size differs from what this version should have:
	 * 2.6.32 had PERF_ATTR_SIZE_VER0 */
	e.type = PERF_TYPE_SOFTWARE;
	e.size = sizeof(struct perf_event_attr) + 64;
	e.kernel = "2.6.32";
	run_child(&c, do_e2big, &e);
	assert_non_null(strstr(c.out, "e2big no"));
	assert_non_null(strstr(c.st.first_failure, ", expected the kernel's own size 64 (sent "));
}

/* ---- features ---- */
static void features_unknown_and_known(void **state)
{
	(void)state;
	assert_null(pa_features_missing(NULL));
	assert_null(pa_features_missing(""));
	assert_string_equal(pa_features_missing("bogus ns:net"),
			    "unknown feature 'bogus' in the case's .features");
	assert_string_equal(pa_features_missing("ns:bogus"),
			    "unknown feature 'ns:bogus' in the case's .features");
	assert_false(pa_feature_known("ns:"));
	assert_true(pa_feature_known("hrtimer"));
	/* mnt namespaces are always built */
	assert_null(pa_features_missing("ns:mnt"));
}

/* ---- tracepoint format fields on a raw entry made here ---- */
static struct pa_tp_format fmt;
static unsigned char raw[64];

static int fmt_setup(void **state)
{
	static const struct pa_tp_field f[] = {
		{ .name = "s8", .offset = 0, .size = 1, .is_signed = true },
		{ .name = "u8", .offset = 1, .size = 1 },
		{ .name = "s16", .offset = 2, .size = 2, .is_signed = true },
		{ .name = "odd", .offset = 4, .size = 3 },
		{ .name = "arr", .offset = 8, .size = 8, .array = true },
		{ .name = "loc", .offset = 16, .size = 4, .data_loc = true },
		{ .name = "rel", .offset = 20, .size = 4, .rel_loc = true },
		{ .name = "far", .offset = 60, .size = 8 },
		{ .name = "nonul", .offset = 24, .size = 4, .array = true },
	};
	uint32_t loc = (8u << 16) | 40, rel = (4u << 16) | 24;

	(void)state;
	reset_state(state);
	memset(&fmt, 0, sizeof(fmt));
	memcpy(fmt.f, f, sizeof(f));
	fmt.nr = sizeof(f) / sizeof(f[0]);
	memset(raw, 0, sizeof(raw));
	raw[0] = 0xfe;
	raw[1] = 0xfe;
	raw[2] = 0xff; raw[3] = 0xff;
	memcpy(raw + 8, "comm\0xyz", 8);
	memcpy(raw + 16, &loc, 4);
	memcpy(raw + 20, &rel, 4);		/* rel: counts from 24 */
	memcpy(raw + 24, "abcd", 4);		/* no NUL: nonul */
	memcpy(raw + 48, "rel\0", 4);		/* 24 + 24 */
	memcpy(raw + 40, "dataloc", 8);
	return 0;
}

static void tp_fields_read(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(pa_tp_get_u64(raw, pa_tp_field(&fmt, "s8")), (uint64_t)-2);
	assert_int_equal(pa_tp_get_u64(raw, pa_tp_field(&fmt, "u8")), 0xfe);
	assert_int_equal(pa_tp_get_u64(raw, pa_tp_field(&fmt, "s16")), (uint64_t)-1);
	assert_null(pa_tp_field(&fmt, "nosuch"));
	assert_string_equal(pa_tp_get_str(raw, sizeof(raw), pa_tp_need(&fmt, "arr", sizeof(raw)),
					  buf, sizeof(buf)), "comm");
	assert_string_equal(pa_tp_get_str(raw, sizeof(raw), pa_tp_field(&fmt, "loc"), buf,
					  sizeof(buf)), "dataloc");
	assert_string_equal(pa_tp_get_str(raw, sizeof(raw), pa_tp_field(&fmt, "rel"), buf,
					  sizeof(buf)), "rel");
	PA_TP_EXPECT_INT(&fmt, raw, sizeof(raw), "u8", 0xfe);
	PA_TP_EXPECT_STR(&fmt, raw, sizeof(raw), "arr", "comm");
	assert_int_equal(pa_state->failures, 0);
}

struct tpa {
	int what;
	uint32_t size;
};

static void do_tp(void *p)
{
	struct tpa *t = p;
	char buf[32];

	switch (t->what) {
	case 0: pa_tp_need(&fmt, "nosuch", t->size); break;
	case 1: pa_tp_need(&fmt, "far", t->size); break;
	case 2: pa_tp_get_u64(raw, pa_tp_field(&fmt, "odd")); break;
	case 3: pa_tp_get_str(raw, t->size, pa_tp_field(&fmt, "loc"), buf, sizeof(buf)); break;
	case 4: pa_tp_get_str(raw, t->size, pa_tp_field(&fmt, "nonul"), buf, sizeof(buf)); break;
	case 5: PA_TP_EXPECT_STR(&fmt, raw, t->size, "arr", "other"); break;
	}
	printf("returned\n");
}

static void tp_fields_refused(void **state)
{
	static const struct { int what; uint32_t size; int code; const char *msg; } t[] = {
		{ 0, 64, PA_FAIL, "field 'nosuch' is not in the format file" },
		{ 1, 64, PA_FAIL, "field 'far' (offset 60, size 8) lies outside the 64-byte raw entry" },
		{ 2, 64, PA_FAIL, "field 'odd' has size 3, not an integer size" },
		{ 3, 44, PA_FAIL, "string field 'loc' (at 40, 8 bytes) lies outside the 44-byte raw entry" },
		{ 4, 64, PA_FAIL, "string field 'nonul' has no NUL in its 4 bytes" },
		{ 5, 64, 0, "" },
	};
	struct child c;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct tpa a = { t[i].what, t[i].size };

		run_child(&c, do_tp, &a);
		assert_int_equal(c.code, t[i].code);
		if (t[i].code) {
			assert_string_equal(c.st.first_failure, t[i].msg);
			assert_null(strstr(c.out, "returned"));
		}
	}
	/* a string that differs: a failure that names both */
	assert_int_equal(c.st.failures, 1);
	assert_non_null(strstr(c.out, "# raw field arr is \"comm\", expected \"other\""));
}

static void do_format_or_skip(void *p)
{
	struct pa_tp_format f;

	printf("loaded %d\n", pa_tp_format_or_skip("perfabi_nosuch", "nosuch", &f, *(int *)p));
}

static void tp_format_of_a_missing_event(void **state)
{
	struct child c;
	int want = 0;

	(void)state;
	run_child(&c, do_format_or_skip, &want);
	assert_int_equal(c.code, PA_SKIP);
	assert_non_null(strstr(c.st.skip_reason, "perfabi_nosuch/nosuch/format not readable by uid"));
	want = EACCES;
	run_child(&c, do_format_or_skip, &want);
	assert_int_equal(c.code, 0);
	assert_non_null(strstr(c.out, "loaded 0"));
}

/* ---- fixtures that cannot be run ---- */
static void do_fixture(void *p)
{
	int *which = p;
	int go = -1, st;
	pid_t pid;

	setenv("PERFABI_FIXTURES", "/nonexistent-perfabi", 1);
	switch (*which) {
	case 0:
		printf("path %s\n", pa_fixture("spin"));
		printf("status %d\n", pa_run_fixture("spin", "1"));
		break;
	case 1:
		pid = pa_exec_child_start(&go, 0, "spin", "1");
		printf("status %d\n", pa_exec_child_go(pid, go));
		break;
	case 2:
		/* nothing reads the pipe: the write fails (EBADF) */
		pid = pa_exec_child_start(&go, 0, "spin", "1");
		st = pa_exec_child_go(pid, -1);
		printf("status %d\n", st);
		close(go);
		waitpid(pid, NULL, 0);
		break;
	case 3:
		/* not our child */
		st = pa_exec_child_go(getpid(), open("/dev/null", O_WRONLY));
		printf("status %d\n", st);
		break;
	}
}

static void fixtures_that_cannot_run(void **state)
{
	struct child c;
	int which = 0;

	(void)state;
	run_child(&c, do_fixture, &which);
	assert_non_null(strstr(c.out, "path /nonexistent-perfabi/spin\n"));
	assert_non_null(strstr(c.out, "# fixture /nonexistent-perfabi/spin: exec failed (exit 127)"));
	assert_non_null(strstr(c.out, "status 127"));
	which = 1;
	run_child(&c, do_fixture, &which);
	assert_non_null(strstr(c.out, "status 127"));
	assert_non_null(strstr(c.st.first_failure, ": exec of the fixture failed (exit 127)"));
	which = 2;
	run_child(&c, do_fixture, &which);
	assert_non_null(strstr(c.out, "status -1"));
	assert_non_null(strstr(c.st.first_failure, ": EBADF"));
	which = 3;
	run_child(&c, do_fixture, &which);
	assert_non_null(strstr(c.out, "status -1"));
	assert_string_equal(c.st.first_failure, "waitpid: ECHILD");
}

/* ---- an event in a thread that cannot be set up ---- */
static void nop(void *p)
{
	(void)p;
}

static void do_thread_event(void *p)
{
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct pa_thread_event te;
	int *pages = p;

	if (*pages < 0)
		a.type = 0x7ffffff0u;
	pa_thread_event_start(&te, &a, *pages < 0 ? 1 : *pages, NULL, nop, NULL);
	pa_thread_event_run(&te);
	printf("count %llu\n", (unsigned long long)pa_thread_event_end(&te));
}

static void thread_event_failures_name_the_step(void **state)
{
	struct child c;
	int pages = -1;

	(void)state;
	if (pa_probe_self_perf())
		skip();
	run_child(&c, do_thread_event, &pages);
	assert_int_equal(c.code, PA_FAIL);
	assert_string_equal(c.st.first_failure, "perf_event_open in the thread: ENOENT");
	pages = 3;	/* not a power of two */
	run_child(&c, do_thread_event, &pages);
	assert_int_equal(c.code, PA_FAIL);
	assert_string_equal(c.st.first_failure, "mapping the ring: EINVAL");
	pages = 1;
	run_child(&c, do_thread_event, &pages);
	assert_int_equal(c.code, 0);
	assert_non_null(strstr(c.out, "count "));
}

/* ---- faults of a child process or thread ---- */
struct fd_arg {
	bool inherit, thread;
};

static void do_faults(void *p)
{
	struct fd_arg *f = p;
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	a.inherit = f->inherit;
	printf("delta %llu\n", (unsigned long long)pa_child_faults_delta(&a, 64, f->thread));
}

static unsigned long long faults(bool inherit, bool thread)
{
	struct fd_arg f = { inherit, thread };
	unsigned long long d = 0;
	struct child c;

	run_child(&c, do_faults, &f);
	assert_int_equal(c.code, 0);
	assert_non_null(strstr(c.out, "delta "));
	sscanf(strstr(c.out, "delta "), "delta %llu", &d);
	return d;
}

static void child_faults_counted_only_when_inherited(void **state)
{
	(void)state;
	if (pa_probe_self_perf())
		skip();
	/* 64 fresh pages: at least 64 faults where the event is inherited */
	assert_true(faults(true, false) >= 64);
	assert_true(faults(true, true) >= 64);
	assert_true(faults(false, true) < 64);
}

/* ---- queued signals are all taken, in order ---- */
static void signals_settle_takes_every_queued_one(void **state)
{
	struct pa_sigs s;
	union sigval v = { .sival_int = 0 };
	int sig = SIGRTMIN;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.sig = sig;
	pa_sig_block(sig);
	for (int i = 0; i < 3; i++)
		assert_int_equal(sigqueue(getpid(), sig, v), 0);
	/* two wanted, the third taken too: s.n must equal what was sent */
	pa_sigs_settle(&s, 2);
	assert_int_equal(s.n, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(s.code[i], SI_QUEUE);
	/* one overflow's signal already queued, and one more behind it */
	for (int i = 0; i < 2; i++)
		assert_int_equal(sigqueue(getpid(), sig, v), 0);
	pa_sigs_overflow_once(&s, 1);
	assert_int_equal(s.n, 5);
	assert_int_equal(pa_sig_wait(sig, NULL, 0), 0);	/* none left */
}

/* ---- sysctl files and version strings ---- */
static void do_bad_version(void *p)
{
	(void)p;
	printf("at least %d\n", pa_kernel_at_least("six"));
}

static void sysctls_and_versions_refused(void **state)
{
	char dir[] = "/tmp/perfabi-unit-sys-XXXXXX", path[64], buf[32];
	struct child c;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/empty", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/word", dir);
	f = fopen(path, "w");
	fputs("many\n", f);
	fclose(f);
	assert_int_equal(pa_sysctl_read_at(dir, "empty", buf, sizeof(buf)), -1);
	assert_int_equal(pa_sysctl_read_at(dir, "word", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "many");
	assert_int_equal(pa_sysctl_write_at(dir, "no/such/knob", "1"), -1);
	assert_int_equal(pa_sysctl_write_at(dir, "word", "few"), 0);
	assert_int_equal(pa_sysctl_read_at(dir, "word", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "few");
	assert_true(pa_sysctl_long("kernel/perfabi_no_such_knob") == LONG_MIN);
	unlink(path);
	snprintf(path, sizeof(path), "%s/empty", dir);
	unlink(path);
	rmdir(dir);
	run_child(&c, do_bad_version, NULL);
	assert_non_null(strstr(c.out, "at least 0\n"));
	assert_string_equal(c.st.first_failure, "bad kernel version 'six' in the case");
}

/* pa_freq_chance(): the second of two consecutive steps 0 < dt <= 1 ms;
 * a clock that stands still (dt 0), a step of 2 ms, or steps that are not
 * consecutive give the kernel no chance to adapt a freq period. */
/* a CPU list file as sysfs writes one: ranges, commas, a newline */
static int cpulist_file(char *path, const char *text)
{
	int fd;

	strcpy(path, "/tmp/perfabi-cpulist-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return 0;
}

static int record_range(long lo, long hi, void *arg)
{
	char *out = arg;

	snprintf(out + strlen(out), 64 - strlen(out), "[%ld,%ld]", lo, hi);
	return lo == 8;		/* stop at 8 */
}

static void cpulist_last_and_first_below(void **state)
{
	char ranges[64] = "";

	static const struct { const char *text; int nr, last, first; } t[] = {
		{ "0-3,8\n", 4, 8, 0 },
		{ "0-1\n", 2, 1, 0 },
		{ "5\n", 8, 5, 5 },
		{ "2,4-5\n", 2, 5, -1 },	/* 2 is not below nr_cpu_ids 2 */
		{ "2,4-5\n", 3, 5, 2 },
		{ "\n", 8, -1, -1 },		/* no CPU offline */
		{ ",2-7\n", 2, -1, -1 },	/* only CPUs past nr_cpu_ids */
		{ "0-63\n", 64, 63, 0 },
	};
	char path[64];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int first, last;

		cpulist_file(path, t[i].text);
		first = pa_cpulist_first_below(path, t[i].nr);
		last = pa_cpulist_last(path);
		unlink(path);
		assert_int_equal(first, t[i].first);
		assert_int_equal(last, t[i].last);
	}
	/* the walker itself, on a string: each range in order, until fn says stop */
	assert_int_equal(pa_cpulist_each("0-3,5,8-9,12\n", record_range, ranges), 1);
	assert_string_equal(ranges, "[0,3][5,5][8,9]");
	ranges[0] = 0;
	assert_int_equal(pa_cpulist_each("\n", record_range, ranges), 0);
	assert_string_equal(ranges, "");
	assert_int_equal(pa_cpulist_last("/nonexistent/possible"), -1);
	assert_int_equal(pa_cpulist_first_below("/nonexistent/offline", 8), -1);
}

static void freq_chance_needs_two_short_steps(void **state)
{
	const uint64_t still[] = { 5000, 5000, 5000, 5000 };
	const uint64_t one[] = { 5000, 5100, 5100, 5200, 3000000 };
	const uint64_t two[] = { 5000, 5000, 5100, 5200, 5300 };
	const uint64_t edge[] = { 0, 1000000, 2000000 };
	const uint64_t over[] = { 0, 1000001, 2000002 };
	const uint64_t back[] = { 9000, 8000, 8100, 8200 };

	(void)state;
	assert_int_equal(pa_freq_chance(still, 4), -1);
	assert_int_equal(pa_freq_chance(one, 5), -1);
	assert_int_equal(pa_freq_chance(two, 5), 3);
	assert_int_equal(pa_freq_chance(edge, 3), 2);
	assert_int_equal(pa_freq_chance(over, 3), -1);
	assert_int_equal(pa_freq_chance(back, 4), 3);
	assert_int_equal(pa_freq_chance(two, 0), -1);
	assert_int_equal(pa_freq_chance(two, 1), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(failed_checks_name_both_sides, reset_state, restore_stdout),
		cmocka_unit_test_setup_teardown(negative_values_print_signed, reset_state, restore_stdout),
		cmocka_unit_test_setup_teardown(errno_checks, reset_state, restore_stdout),
		cmocka_unit_test(abort_and_skip_end_the_body),
		cmocka_unit_test(retry_fails_only_what_repeats),
		cmocka_unit_test(throttle_rule_follows_the_rate),
		cmocka_unit_test(open_expectations),
		cmocka_unit_test(e2big_size_check),
		cmocka_unit_test(features_unknown_and_known),
		cmocka_unit_test_setup_teardown(tp_fields_read, fmt_setup, restore_stdout),
		cmocka_unit_test_setup_teardown(tp_fields_refused, fmt_setup, restore_stdout),
		cmocka_unit_test(tp_format_of_a_missing_event),
		cmocka_unit_test(fixtures_that_cannot_run),
		cmocka_unit_test(thread_event_failures_name_the_step),
		cmocka_unit_test(child_faults_counted_only_when_inherited),
		cmocka_unit_test(signals_settle_takes_every_queued_one),
		cmocka_unit_test(sysctls_and_versions_refused),
		cmocka_unit_test(freq_chance_needs_two_short_steps),
		cmocka_unit_test(cpulist_last_and_first_below),
	};
	return cmocka_run_group_tests_name("caselib", tests, NULL, NULL);
}
