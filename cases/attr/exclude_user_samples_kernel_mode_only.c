#include "perfabi.h"

#include <sys/ioctl.h>

extern char __executable_start[], etext[];

/*
 * A software page-fault event takes its sample with the registers of the
 * faulting context: perf_exclude_event() drops it when exclude_user is set
 * and user_mode(regs), and the sample's misc cpumode is
 * perf_misc_flags(regs). With exclude_user set (and exclude_kernel clear)
 * faults taken by user-space stores leave no sample; faults the kernel
 * takes while read() copies into fresh pages each leave one, in kernel
 * mode, with a kernel ip. So every sample is PERF_RECORD_MISC_KERNEL, none
 * has an ip inside this program's text, and there are exactly the 64
 * kernel faults: both workloads ran once before ENABLE, so nothing else
 * of them faults, and the 64 user faults add none. A period-1 software
 * event is never throttled (perf_swevent_overflow() with overflow 1).
 *
 * Counting the kernel needs perf_allow_kernel(): where the identity lacks
 * it the open fails with the documented errno instead.
 */
PERFABI_CASE(
	.assertion = "samples honour exclude_user: a page-fault sampler with "
		     "exclude_user set and exclude_kernel clear gives no sample for "
		     "64 faults taken in user mode and one per fault taken in kernel "
		     "mode, each with misc PERF_RECORD_MISC_KERNEL and an ip outside "
		     "the program's text (exactly 64 samples); where counting the "
		     "kernel is not allowed the open fails (EACCES)",
	.ref = "perf_event_open(2), exclude_user \"the count excludes events that "
	       "happen in user space\", PERF_RECORD_SAMPLE misc cpumode; "
	       "kernel/events/core.c perf_exclude_event(), perf_misc_flags(), "
	       "perf_event_open() perf_allow_kernel()",
	.covers = "attr.exclude_user attr.exclude_kernel record.SAMPLE sample.IP",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	int want = pa_expected_errno(PA_NEED_KERNEL);
	const struct perf_event_header *h;
	int fd, n = 0, user = 0, in_text = 0;
	struct pa_sample s;
	struct pa_ring r;

	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	attr.exclude_user = 1;
	attr.exclude_kernel = 0;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, want);
	if (want || fd < 0)
		return;
	pa_ring_map(&r, fd, 16);
	pa_touch_pages(1);	/* fault in the code of both workloads */
	pa_kernel_faults(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(64);
	pa_kernel_faults(64);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	while ((h = pa_ring_find(&r, PERF_RECORD_SAMPLE))) {
		if (!pa_sample_parse(&attr, h, &s))
			break;
		n++;
		if ((h->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL)
			user++;
		if (s.ip >= (uint64_t)(uintptr_t)__executable_start &&
		    s.ip < (uint64_t)(uintptr_t)etext)
			in_text++;
	}
	pa_diag("%d samples, %d not in kernel mode, %d with an ip in the program",
		n, user, in_text);
	EXPECT_EQ(user, 0);
	EXPECT_EQ(in_text, 0);
	EXPECT_EQ(n, 64);
	pa_ring_unmap(&r);
	close(fd);
}
