// SPDX-License-Identifier: GPL-2.0
/* harness/lib/open.c: the open/, type/ and hw/ helpers, their skip and
 * failure paths included (run in a child: they end the process). */
#include "unit.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>

static char fake[256];		/* a fake sysfs PMU directory */
static char fake_rel[512];	/* the same, as a PMU name below the real
				 * /sys/bus/event_source/devices */

static void put(const char *sub, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fake, sub);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int fake_pmu_setup(void **state)
{
	char path[512];

	(void)state;
	snprintf(fake, sizeof(fake), "/tmp/perfabi-unit-pmu-XXXXXX");
	assert_non_null(mkdtemp(fake));
	snprintf(path, sizeof(path), "%s/events", fake);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/format", fake);
	assert_int_equal(mkdir(path, 0755), 0);
	/* devices/../../../.. is / */
	snprintf(fake_rel, sizeof(fake_rel), "../../../..%s", fake);
	put("format/event", "config:0-7\n");
	put("format/umask", "config:8-15\n");
	put("format/any", "config:21\n");
	put("format/ldlat", "config1:0-15\n");
	put("format/split", "config2:0-3,8-11\n");
	put("format/wide", "config:60-63\n");
	put("format/bad_reg", "cfg:0-7\n");
	put("format/bad_lo", "config:x\n");
	put("format/bad_hi", "config:7-3\n");
	put("format/bad_sep", "config:1;2\n");
	put("format/too_high", "config:64\n");
	put("format/empty", "");
	put("events/cycles", "event=0x3c\n");
	put("events/mem", "event=0xcd,umask=0x1,ldlat=3\n");
	put("events/anyth", "event=0x3c, any\n");
	put("events/split", "split=0xab\n");
	put("events/param", "event=0x3c,umask=?\n");
	put("events/nofmt", "nosuch=1\n");
	put("events/regname", "bad_reg=1\n");
	put("events/lo", "bad_lo=1\n");
	put("events/hi", "bad_hi=1\n");
	put("events/sep", "bad_sep=1\n");
	put("events/high", "too_high=1\n");
	put("events/toobig", "wide=0x1f\n");
	put("events/emptyfmt", "empty=1\n");
	put("events/emptyev", "");
	return 0;
}

static int fake_pmu_teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake);
	return system(cmd) ? -1 : 0;
}

static void pmu_event_config_places_terms(void **state)
{
	uint64_t cfg[3] = { 7, 7, 7 };

	(void)state;
	assert_int_equal(pa_pmu_event_config(fake_rel, "cycles", cfg), 0);
	assert_int_equal(cfg[0], 0x3c);
	assert_int_equal(cfg[1], 0);
	assert_int_equal(cfg[2], 0);
	assert_int_equal(pa_pmu_event_config(fake_rel, "mem", cfg), 0);
	assert_int_equal(cfg[0], 0x01cd);
	assert_int_equal(cfg[1], 3);
	/* a bare term is 1; spaces after the comma are allowed */
	assert_int_equal(pa_pmu_event_config(fake_rel, "anyth", cfg), 0);
	assert_int_equal(cfg[0], 0x3c | (1u << 21));
	/* a split field: the low nibble at 0-3, the next at 8-11 */
	assert_int_equal(pa_pmu_event_config(fake_rel, "split", cfg), 0);
	assert_int_equal(cfg[2], 0x0a0b);
}

static void pmu_event_config_refuses(void **state)
{
	uint64_t cfg[3];

	(void)state;
	assert_int_equal(pa_pmu_event_config(fake_rel, "nosuch", cfg), -1);
	assert_int_equal(pa_pmu_event_config(fake_rel, "emptyev", cfg), -1);
	assert_int_equal(pa_pmu_event_config(fake_rel, "param", cfg), -1);
	assert_int_equal(pa_pmu_event_config(fake_rel, "nofmt", cfg), -1);
	assert_int_equal(pa_pmu_event_config(fake_rel, "regname", cfg), -1);
	assert_int_equal(pa_pmu_event_config(fake_rel, "lo", cfg), -1);
	assert_int_equal(pa_pmu_event_config(fake_rel, "hi", cfg), -1);
	assert_int_equal(pa_pmu_event_config(fake_rel, "sep", cfg), -1);
	assert_int_equal(pa_pmu_event_config(fake_rel, "high", cfg), -1);
	/* 0x1f needs 5 bits, the field has 4 */
	assert_int_equal(pa_pmu_event_config(fake_rel, "toobig", cfg), -1);
	assert_int_equal(pa_pmu_event_config(fake_rel, "emptyfmt", cfg), -1);
	assert_int_equal(pa_pmu_event_config("perfabi-no-such-pmu", "cycles", cfg), -1);
}

static void core_pmu_name_is_a_pmu(void **state)
{
	const char *n = pa_core_pmu_name();

	(void)state;
	if (n)
		assert_true(pa_pmu_type(n) >= 0);
}

/* ---- the pointer chase: one cycle through every line ---- */
static void cache_chase_is_one_cycle(void **state)
{
	enum { LINES = 1024 };
	char *buf = pa_cache_chase_build(LINES * 64);
	unsigned char seen[LINES] = { 0 };
	void *p = buf;

	(void)state;
	assert_non_null(buf);
	assert_int_equal((uintptr_t)buf % 64, 0);
	for (int i = 0; i < LINES; i++) {
		size_t off = (size_t)((char *)p - buf);

		assert_true(off < LINES * 64 && off % 64 == 0);
		assert_int_equal(seen[off / 64], 0);
		seen[off / 64] = 1;
		p = pa_cache_chase(p, 1);
	}
	assert_ptr_equal(p, buf);
	assert_ptr_equal(pa_cache_chase(buf, LINES), buf);
	assert_ptr_equal(pa_cache_chase(buf, 0), buf);
	assert_ptr_not_equal(pa_cache_chase(buf, 1), buf);
	free(buf);
}

static void loop3_returns(void **state)
{
	(void)state;
#if defined(__x86_64__) || defined(__aarch64__)
	pa_loop3(1);
	pa_loop3(100000);
#endif
	assert_true(pa_busy_loop(0) == 0);
	assert_true(pa_busy_loop(3) == 3);	/* acc += i ^ (acc >> 3): 0, 1, 3 */
}

/* ---- pa_hw_open_or_skip / pa_hw_open_member / pa_hw_read_group ---- */
struct openarg {
	uint32_t type;
	uint64_t config;
	int rlimit;		/* > 0: RLIMIT_NOFILE for the open */
};

static struct rlimit saved_nofile;

/* at exit, before the coverage counts are written: fds again */
static void unlimit_fds(void)
{
	setrlimit(RLIMIT_NOFILE, &saved_nofile);
}

/* the soft limit only: the hard one stays, so it can be raised again */
static void limit_fds(int n)
{
	struct rlimit rl;

	getrlimit(RLIMIT_NOFILE, &saved_nofile);
	rl = saved_nofile;
	rl.rlim_cur = (rlim_t)n;
	atexit(unlimit_fds);
	setrlimit(RLIMIT_NOFILE, &rl);
}

static void do_hw_open(void *p)
{
	struct openarg *a = p;
	uint64_t v;
	int fd;

	if (a->rlimit)
		limit_fds(a->rlimit);
	fd = pa_hw_open_or_skip(a->type, a->config);
	v = pa_count_over(fd, pa_work_loop, 1);
	printf("fd %d count %s\n", fd, v ? "nonzero" : "zero");
}

static void hw_open_software_event_counts(void **state)
{
	struct openarg a = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0 };
	struct child c;

	(void)state;
	if (pa_probe_self_perf())
		skip();
	run_child(&c, do_hw_open, &a);
	assert_int_equal(c.code, 0);
	assert_non_null(strstr(c.out, "count nonzero"));
}

static void hw_open_unknown_type_skips(void **state)
{
	struct openarg a = { 0x7ffffff0u, 0x42, 0 };
	struct child c;

	(void)state;
	if (pa_probe_self_perf())
		skip();
	run_child(&c, do_hw_open, &a);
	assert_int_equal(c.code, PA_SKIP);
	assert_string_equal(c.st.skip_reason,
			    "the PMU does not support type 2147483632 config 0x42 (ENOENT)");
}

static void hw_open_other_error_fails(void **state)
{
	/* no fd left: EMFILE comes before the PMU is even looked at */
	struct openarg a = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 3 };
	struct child c;

	(void)state;
	run_child(&c, do_hw_open, &a);
	assert_int_equal(c.code, PA_FAIL);
	assert_int_equal(c.st.failures, 1);
	assert_string_equal(c.st.first_failure,
			    "perf_event_open(type 1, config 0x1) failed with EMFILE");
}

static void do_member(void *p)
{
	struct openarg *a = p;
	struct perf_event_attr l = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int leader = a->rlimit >= 0 ? pa_perf_open(&l, 0, -1, -1, 0) : -1;
	int fd;

	if (a->rlimit > 0)
		limit_fds(leader + 1);
	fd = pa_hw_open_member(a->config, leader, PA_HW_GROUP_FMT);
	printf("member fd %d\n", fd);
}

static void hw_open_member_paths(void **state)
{
	struct openarg a = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0 };
	struct child c;
	bool hw;

	(void)state;
	if (pa_probe_self_perf())
		skip();
	hw = pa_hw_pmu_present(NULL);
	/* a member of a software group */
	run_child(&c, do_member, &a);
	if (hw) {
		assert_int_equal(c.code, 0);
	} else {
		assert_int_equal(c.code, PA_SKIP);
		assert_non_null(strstr(c.st.skip_reason,
				       "the PMU does not support generic hardware event 0x1 ("));
	}
	/* a leader of its own */
	a.rlimit = -1;
	run_child(&c, do_member, &a);
	if (hw) {
		assert_int_equal(c.code, 0);
	} else {
		assert_int_equal(c.code, PA_SKIP);
		assert_non_null(strstr(c.st.skip_reason, "the PMU does not support type 0 config 0x1 ("));
	}
	/* any other error fails */
	a.rlimit = 1;
	run_child(&c, do_member, &a);
	assert_int_equal(c.code, PA_FAIL);
	assert_string_equal(c.st.first_failure,
			    "perf_event_open(PERF_TYPE_HARDWARE, config 0x1) failed with EMFILE");
}

struct grouparg {
	bool enable;
	unsigned n;
	bool whole;
};

static void do_read_group(void *p)
{
	struct grouparg *g = p;
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	uint64_t v[4] = { 0 };
	int leader, m;

	a.read_format = PA_HW_GROUP_FMT;
	leader = pa_perf_open(&a, 0, -1, -1, 0);
	a.disabled = 0;
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	m = pa_perf_open(&a, 0, -1, leader, 0);
	if (leader < 0 || m < 0)
		exit(99);
	if (g->enable) {
		ioctl(leader, PERF_EVENT_IOC_ENABLE, 0);
		pa_touch_pages(3);
		pa_work_cpu_ms(2);
		ioctl(leader, PERF_EVENT_IOC_DISABLE, 0);
	}
	pa_hw_read_group(leader, v, g->n, g->whole);
	printf("values %s %s\n", v[0] ? "nonzero" : "zero", v[1] >= 3 ? "faults" : "nofaults");
}

static void hw_read_group_paths(void **state)
{
	struct grouparg g = { true, 2, true };
	struct child c;

	(void)state;
	if (pa_probe_self_perf())
		skip();
	run_child(&c, do_read_group, &g);
	assert_int_equal(c.code, 0);
	assert_non_null(strstr(c.out, "values nonzero faults"));
	/* never enabled: it never had the counters */
	g.enable = false;
	run_child(&c, do_read_group, &g);
	assert_int_equal(c.code, PA_SKIP);
	assert_non_null(strstr(c.st.skip_reason, "the group had the counters 0 of the 0 ns"));
	/* asking for more values than the group has: a short read */
	g.enable = true;
	g.n = 3;
	run_child(&c, do_read_group, &g);
	assert_int_equal(c.code, PA_FAIL);
	assert_non_null(strstr(c.st.first_failure, "bytes) returned 40 (short read)"));
	/* fewer: the buffer is too small for the group */
	g.n = 1;
	run_child(&c, do_read_group, &g);
	assert_int_equal(c.code, PA_FAIL);
	assert_non_null(strstr(c.st.first_failure, "32 bytes) returned -1 (ENOSPC)"));
}

/* ---- pa_count_over on a descriptor that is not an event ---- */
static void do_count_over_bad(void *p)
{
	int fd = *(int *)p;

	pa_count_over(fd, pa_work_loop, 0);
}

static void count_over_refuses_a_non_event(void **state)
{
	int fd = open("/dev/null", O_RDONLY);
	char want[64];
	struct child c;

	(void)state;
	run_child(&c, do_count_over_bad, &fd);
	assert_int_equal(c.code, PA_FAIL);
	snprintf(want, sizeof(want), "enable fd %d: ENOTTY", fd);
	assert_string_equal(c.st.first_failure, want);
	close(fd);
}

/* ---- the puppet ---- */
static void puppet_exits(int arg)
{
	_exit(arg);
}

static void puppet_write(int arg)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perfabi-unit-puppet-%d", arg);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
	}
}

static void do_puppet_dies(void *p)
{
	struct pa_puppet pp;

	(void)p;
	pa_puppet_start(&pp);
	pa_puppet_run(&pp, puppet_exits, 0);
	printf("not reached\n");
}

static void puppet_runs_and_stops(void **state)
{
	struct pa_puppet pp = { 0, -1, -1 };
	char path[64];
	FILE *f;
	int pid = 0;
	struct child c;

	(void)state;
	pa_puppet_stop(&pp);	/* not started: nothing to do */
	assert_int_equal(pp.pid, 0);
	pa_puppet_start(&pp);
	assert_true(pp.pid > 0);
	pa_puppet_run(&pp, puppet_write, (int)getpid());
	snprintf(path, sizeof(path), "/tmp/perfabi-unit-puppet-%d", (int)getpid());
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &pid), 1);
	fclose(f);
	unlink(path);
	assert_int_equal(pid, pp.pid);	/* it ran in the puppet */
	pa_puppet_stop(&pp);
	assert_int_equal(pp.pid, 0);
	assert_int_equal(kill(pid, 0), -1);	/* reaped */

	run_child(&c, do_puppet_dies, NULL);
	assert_int_equal(c.code, PA_FAIL);
	assert_non_null(strstr(c.st.first_failure, "did not run its command"));
	assert_null(strstr(c.out, "not reached"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(pmu_event_config_places_terms, fake_pmu_setup, fake_pmu_teardown),
		cmocka_unit_test_setup_teardown(pmu_event_config_refuses, fake_pmu_setup, fake_pmu_teardown),
		cmocka_unit_test(core_pmu_name_is_a_pmu),
		cmocka_unit_test(cache_chase_is_one_cycle),
		cmocka_unit_test(loop3_returns),
		cmocka_unit_test(hw_open_software_event_counts),
		cmocka_unit_test(hw_open_unknown_type_skips),
		cmocka_unit_test(hw_open_other_error_fails),
		cmocka_unit_test(hw_open_member_paths),
		cmocka_unit_test(hw_read_group_paths),
		cmocka_unit_test(count_over_refuses_a_non_event),
		cmocka_unit_test(puppet_runs_and_stops),
	};
	return cmocka_run_group_tests_name("open", tests, NULL, NULL);
}
