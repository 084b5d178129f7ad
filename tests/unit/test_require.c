// SPDX-License-Identifier: GPL-2.0
/* Requirement evaluation: each unmet requirement names itself. */
#include "unit.h"

static struct pa_context ctx;

static int setup(void **state)
{
	(void)state;
	memset(&ctx, 0, sizeof(ctx));
	ctx.kernel = (struct pa_kver){ 6, 12, 117 };
	ctx.paranoid = 2;
	ctx.uid = 1000;
	ctx.caps = 0;
	ctx.ncpus = 2;
	ctx.npmus = 2;
	snprintf(ctx.pmus[0].name, 64, "software");
	ctx.pmus[0].type = 1;
	snprintf(ctx.pmus[1].name, 64, "breakpoint");
	ctx.pmus[1].type = 5;
	ctx.tracefs = "/sys/kernel/tracing";
	ctx.hw_pmu = 0;
	snprintf(ctx.hw_pmu_reason, sizeof(ctx.hw_pmu_reason), "open fails with ENOENT");
	return 0;
}

static const char *unmet(struct pa_case c)
{
	static char buf[256];

	return pa_requirements_unmet(&c, &ctx, buf, sizeof(buf));
}

static void nothing_required_runs(void **state)
{
	(void)state;
	assert_null(unmet((struct pa_case){ .assertion = "x" }));
}

static void kernel_range(void **state)
{
	(void)state;
	assert_null(unmet((struct pa_case){ .min_kernel = "6.12" }));
	assert_string_equal(unmet((struct pa_case){ .min_kernel = "6.13" }),
			    "kernel 6.12.117 is older than 6.13");
	assert_null(unmet((struct pa_case){ .max_kernel = "6.13" }));
	assert_string_equal(unmet((struct pa_case){ .max_kernel = "6.12.117" }),
			    "kernel 6.12.117 is 6.12.117 or newer");
	assert_string_equal(unmet((struct pa_case){ .min_kernel = "soon" }),
			    "bad min_kernel 'soon' in the case");
}

static void identity(void **state)
{
	(void)state;
	assert_string_equal(unmet((struct pa_case){ .root = true }),
			    "needs root (running as uid 1000)");
	assert_string_equal(unmet((struct pa_case){ .caps = PA_CAP(PA_CAP_PERFMON) }),
			    "needs CAP_PERFMON in the effective set");
	ctx.caps = PA_CAP(PA_CAP_PERFMON);
	assert_null(unmet((struct pa_case){ .caps = PA_CAP(PA_CAP_PERFMON) }));
	assert_string_equal(unmet((struct pa_case){ .caps = PA_CAP(PA_CAP_PERFMON) | PA_CAP(PA_CAP_SYS_ADMIN) }),
			    "needs CAP_SYS_ADMIN in the effective set");
}

static void paranoid_ranges(void **state)
{
	int lo, hi;

	(void)state;
	assert_null(unmet((struct pa_case){ .paranoid = "..2" }));
	assert_null(unmet((struct pa_case){ .paranoid = "2" }));
	assert_string_equal(unmet((struct pa_case){ .paranoid = "-1..1" }),
			    "needs perf_event_paranoid in -1..1 (it is 2)");
	assert_string_equal(unmet((struct pa_case){ .paranoid = "3.." }),
			    "needs perf_event_paranoid in 3.. (it is 2)");
	assert_string_equal(unmet((struct pa_case){ .paranoid = "x" }),
			    "bad paranoid range 'x' in the case");
	assert_int_equal(pa_range_parse("2..1", &lo, &hi), -1);
	assert_int_equal(pa_range_parse("-1..", &lo, &hi), 0);
	assert_int_equal(lo, -1);
	assert_int_equal(hi, INT_MAX);
}

static void hardware(void **state)
{
	(void)state;
	assert_string_equal(unmet((struct pa_case){ .pmu = "uprobe" }),
			    "no 'uprobe' PMU in /sys/bus/event_source/devices");
	assert_null(unmet((struct pa_case){ .pmu = "breakpoint" }));
	assert_string_equal(unmet((struct pa_case){ .hw_pmu = true }),
			    "no hardware PMU: open fails with ENOENT");
	ctx.hw_pmu = 1;
	assert_null(unmet((struct pa_case){ .hw_pmu = true }));
	assert_string_equal(unmet((struct pa_case){ .min_cpus = 4 }),
			    "needs 4 online CPUs (2 online)");
	ctx.tracefs = NULL;
	assert_non_null(strstr(unmet((struct pa_case){ .tracefs = true }), "not readable by uid 1000"));
	ctx.uid = 0;
	assert_non_null(strstr(unmet((struct pa_case){ .tracefs = true }), "tracefs is not mounted"));
	assert_int_equal(pa_context_pmu_type(&ctx, "software"), 1);
	assert_int_equal(pa_context_pmu_type(&ctx, "msr"), -1);
}

/* Every capability a case may ask for is named; any other by number. */
static void capability_names(void **state)
{
	static const struct { int cap; const char *name; } t[] = {
		{ PA_CAP_KILL, "CAP_KILL" }, { PA_CAP_SETUID, "CAP_SETUID" },
		{ PA_CAP_IPC_LOCK, "CAP_IPC_LOCK" }, { PA_CAP_SYS_PTRACE, "CAP_SYS_PTRACE" },
		{ PA_CAP_SYSLOG, "CAP_SYSLOG" }, { 1, "a capability" },
	};
	char want[80];
	int lo, hi;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(want, sizeof(want), "needs %s in the effective set", t[i].name);
		assert_string_equal(unmet((struct pa_case){ .caps = PA_CAP(t[i].cap) }), want);
	}
	assert_string_equal(unmet((struct pa_case){ .max_kernel = "later" }),
			    "bad max_kernel 'later' in the case");
	/* version and range parsing refuse what is not one */
	assert_int_equal(pa_range_parse("1..x", &lo, &hi), -1);
	assert_int_equal(pa_range_parse("x..1", &lo, &hi), -1);
	assert_int_equal(pa_range_parse("..", &lo, &hi), 0);
	assert_int_equal(pa_kver_parse("6.", &(struct pa_kver){ 0 }), -1);
	assert_int_equal(pa_kver_parse("6.999999999", &(struct pa_kver){ 0 }), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(nothing_required_runs, setup),
		cmocka_unit_test_setup(kernel_range, setup),
		cmocka_unit_test_setup(identity, setup),
		cmocka_unit_test_setup(paranoid_ranges, setup),
		cmocka_unit_test_setup(hardware, setup),
		cmocka_unit_test_setup(capability_names, setup),
	};
	return cmocka_run_group_tests_name("requirements", tests, NULL, NULL);
}
