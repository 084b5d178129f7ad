#include "perfabi.h"

#include <sys/mman.h>
#include <sys/wait.h>

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_PHYS_ADDR needs the kernel-profiling permission (paranoid < 2 or CAP_PERFMON): EACCES otherwise; when allowed, a write fault on a mapped page reports a physical address with the same offset in the page as the virtual one",
	.ref = "kernel/events/core.c perf_event_open(): \"Only privileged users can get physical addresses\" perf_allow_kernel(); perf_event_open(2) PERF_SAMPLE_PHYS_ADDR (4.13)",
	.covers = "sample.PHYS_ADDR errno.EACCES",
	.min_kernel = "4.13",
	.privileged = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	struct pa_ring r;
	struct pa_sample s;
	volatile char *p;
	pid_t child;
	int st, fd, want = pa_expected_errno(PA_NEED_KERNEL);

	attr.sample_type = PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR;
	if (want) {
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want);
		return;
	}
	p = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	p[0] = 1;			/* a real page ... */
	child = fork();			/* ... write-protected for copy-on-write */
	ASSERT_GE(child, 0);
	if (child == 0)
		_exit(0);
	ASSERT_EQ(waitpid(child, &st, 0), child);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_ring_count(&r, PERF_RECORD_SAMPLE);
	p[200] = 1;			/* write fault on the present page */
	while ((h = pa_ring_find(&r, PERF_RECORD_SAMPLE))) {
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		if (s.addr == (uint64_t)(uintptr_t)(p + 200))
			break;
	}
	ASSERT_TRUE(h != NULL);
	EXPECT_NE(s.phys_addr, 0u);
	EXPECT_EQ(s.phys_addr & (uint64_t)(psz - 1), 200u);
}
