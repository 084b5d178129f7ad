#include "perfabi.h"

/*
 * The rule is attr.sample_freq > perf_event_max_sample_rate -> EINVAL, so
 * the sysctl's value itself (the boundary) and 1 (the least) are accepted.
 * The kernel may lower the sysctl on its own (perf_sample_event_took())
 * between our read and the open: an EINVAL is then retried with the new
 * value, a few times at most.
 */
static void expect_freq_accepted(bool at_max)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 0);
	long max = 0;
	int fd = -1, err = 0;

	attr.freq = 1;
	attr.disabled = 1;
	for (int i = 0; i < 5; i++) {
		max = pa_sysctl_long("kernel/perf_event_max_sample_rate");
		if (max < 1)
			pa_skip("kernel.perf_event_max_sample_rate is unreadable or 0");
		attr.sample_freq = at_max ? (uint64_t)max : 1;
		errno = 0;
		fd = pa_perf_open(&attr, 0, -1, -1, 0);
		err = errno;
		if (fd >= 0 || err != EINVAL ||
		    pa_sysctl_long("kernel/perf_event_max_sample_rate") >= max)
			break;
		pa_diag("perf_event_max_sample_rate went down from %ld: again", max);
	}
	pa_diag("perf_event_max_sample_rate %ld, sample_freq %llu", max,
		(unsigned long long)attr.sample_freq);
	if (fd < 0)
		pa_diag("perf_event_open() failed with %s", pa_errno_name(err));
	EXPECT_GE(fd, 0);
	if (fd >= 0)
		close(fd);
}

PERFABI_CASE(
	.assertion = "with freq set, a sample_freq at or below /proc/sys/kernel/perf_event_max_sample_rate is accepted: both sample_freq equal to it (the boundary) and sample_freq 1",
	.ref = "perf_event_open(2), sample_freq: \"can be used if you wish to use frequency rather than period\"; kernel/events/core.c perf_event_open(): only attr.sample_freq > sysctl_perf_event_sample_rate is refused",
	.covers = "attr.sample_freq attr.freq",
	.probe = pa_probe_self_perf,
) {
	expect_freq_accepted(true);
	expect_freq_accepted(false);
}
