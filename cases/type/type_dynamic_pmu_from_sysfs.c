#include "perfabi.h"

static const char *msr_usable(void)
{
	static char why[112];

	if (pa_pmu_type("msr") < 0)
		return "no msr PMU (x86 only) to take a dynamic type from";
	/* msr cannot exclude the kernel (PERF_PMU_CAP_NO_EXCLUDE): it needs
	 * kernel profiling rights */
	if (!pa_expected_errno(PA_NEED_KERNEL))
		return NULL;
	snprintf(why, sizeof(why), "the msr PMU counts the kernel too, which "
		 "paranoid %d forbids this identity", pa_paranoid());
	return why;
}

PERFABI_CASE(
	.assertion = "a dynamic PMU's type number, read from its sysfs type file "
		     "(>= PERF_TYPE_MAX), is a valid attr.type: msr's tsc event, "
		     "its config built from events/tsc and format/, opens and counts",
	.ref = "perf_event_open(2), type: \"dynamic PMU ... /sys/bus/event_source/"
	       "devices/*/type\"; sysfs-bus-event_source-devices-events/-format",
	.covers = "type.dynamic attr.type attr.config",
	.probe = msr_usable,
) {
	struct perf_event_attr attr = pa_sw_attr(0);
	int type = pa_pmu_type("msr");
	uint64_t cfg[3], n;
	int fd;

	EXPECT_GE(type, PERF_TYPE_MAX);
	if (pa_pmu_event_config("msr", "tsc", cfg))
		pa_skip("msr/events/tsc missing or unparsable");
	attr.type = (uint32_t)type;
	attr.config = cfg[0];
	attr.config1 = cfg[1];
	attr.config2 = cfg[2];
	attr.exclude_kernel = 0;
	attr.exclude_hv = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	n = pa_count_over(fd, pa_work_loop, 10);
	pa_diag("tsc advanced %llu", (unsigned long long)n);
	EXPECT_GT(n, 0);
}
