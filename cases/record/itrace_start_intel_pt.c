#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>

struct itrace_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
};

PERFABI_CASE(
	.assertion = "when an instruction-tracing event (intel_pt) starts tracing a task it writes PERF_RECORD_ITRACE_START {pid, tid} naming that task",
	.ref = "perf_event_open(2), PERF_RECORD_ITRACE_START (4.1): \"This record indicates which process has initiated an instruction trace event\"",
	.covers = "record.ITRACE_START",
	.min_kernel = "4.1",
	.pmu = "intel_pt",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr;
	const struct perf_event_header *h;
	const struct itrace_rec *t;
	struct pa_ring r;
	int fd;

	pa_intel_pt_attr(&attr);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 8);
	pa_ring_map_aux(&r, 16);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(4);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	h = pa_ring_find(&r, PERF_RECORD_ITRACE_START);
	ASSERT_TRUE(h != NULL);
	t = (const struct itrace_rec *)h;
	EXPECT_EQ(h->size, sizeof(*t));
	EXPECT_EQ(t->pid, (uint32_t)getpid());
	EXPECT_EQ(t->tid, (uint32_t)syscall(SYS_gettid));
}
