#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * perf_event_open() refuses a sample_period with bit 63 set (0819b2e30ccb);
 * 913a90bc5a3a made PERF_EVENT_IOC_PERIOD refuse it too. Before it the
 * ioctl took any non-zero u64. Every value with bit 63 set is refused,
 * whatever its low bits; the largest 63-bit period is still accepted.
 */
PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD on a sampling (non-freq) event fails with EINVAL for every period with bit 63 set, like perf_event_open() does for attr.sample_period, and accepts 2^63 - 1",
	.ref = "\"perf/ioctl: Add check for the sample_period value\" 913a90bc5a3a (v5.2); kernel/events/core.c _perf_event_period()",
	.covers = "ioctl.PERIOD attr.sample_period errno.EINVAL",
	.fix = { .commit = "913a90bc5a3a", .subject = "perf/ioctl: Add check for the sample_period value", .release = "5.2" },
	.probe = pa_probe_self_perf,
) {
	static const uint64_t bad[] = {
		1ULL << 63,
		(1ULL << 63) | 1,
		(1ULL << 63) | 1000,
		~0ULL,
	};
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);
	uint64_t v;
	int fd;

	/* the open-time rule the ioctl now mirrors */
	attr.disabled = 1;
	attr.sample_period = 1ULL << 63;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);

	attr.sample_period = 1000;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = bad[i];
		if (!EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_PERIOD, &v), EINVAL))
			pa_diag("period %#llx was accepted", (unsigned long long)bad[i]);
	}
	v = (1ULL << 63) - 1;
	EXPECT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	close(fd);
}
