// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware groups, multiplexing, pinned and exclusive events (the hw/
 * cases that watch how the kernel shares the PMU's counters): cycles
 * events of this task, enabled and disabled all at once by prctl() around
 * a loop of known length, and the counts and times they read back.
 */
#include "internal.h"

#include <sys/ioctl.h>
#include <sys/prctl.h>

struct perf_event_attr pa_sched_attr(unsigned flags, uint64_t fmt)
{
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_HW_CPU_CYCLES);

	a.type = PERF_TYPE_HARDWARE;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | fmt;
	a.pinned = !!(flags & PA_SCHED_PINNED);
	a.exclusive = !!(flags & PA_SCHED_EXCLUSIVE);
	a.disabled = !(flags & PA_SCHED_ENABLED);
	return a;
}

int pa_sched_open(unsigned flags, int group)
{
	struct perf_event_attr a = pa_sched_attr(flags, 0);
	int fd;

	if (group < 0)	/* SKIP without the event; pins on hybrid x86 */
		close(pa_hw_open_or_skip(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES));
	errno = 0;
	fd = pa_perf_open(&a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		return fd;
	if (errno == ENOENT || errno == EOPNOTSUPP)
		pa_skip("the PMU has no cycles event (%s)", pa_errno_name(errno));
	pa_fail("perf_event_open(cycles%s%s, group %d) failed with %s",
		a.pinned ? ", pinned" : "", a.exclusive ? ", exclusive" : "", group,
		pa_errno_name(errno));
	pa_abort();
}

ssize_t pa_sched_read(int fd, struct pa_sched_val *v)
{
	ssize_t n;

	memset(v, 0, sizeof(*v));
	n = read(fd, v, sizeof(*v));
	if (n != 0 && n != (ssize_t)sizeof(*v)) {
		pa_fail("read() of event fd %d returned %zd (%s)", fd, n,
			n < 0 ? pa_errno_name(errno) : "short");
		pa_abort();
	}
	return n;
}

ssize_t pa_sched_run(uint64_t k, int peek_fd, struct pa_sched_val *peek)
{
	ssize_t n = 0;

	ASSERT_OK(prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	pa_loop3(k);
	if (peek_fd >= 0)
		n = read(peek_fd, peek, sizeof(*peek));
	ASSERT_OK(prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	if (n < 0) {
		pa_fail("read() of event fd %d while enabled: %s", peek_fd, pa_errno_name(errno));
		pa_abort();
	}
	return n;
}

uint64_t pa_sched_truth(uint64_t k, bool peek)
{
	int fd = pa_sched_open(0, -1);
	struct pa_sched_val v, p;

	pa_loop3(1);	/* fault the loop in; SKIP where there is none */
	pa_sched_run(k, peek ? fd : -1, &p);
	ASSERT_EQ(pa_sched_read(fd, &v), sizeof(v));
	close(fd);
	if (!v.running || v.running != v.enabled)
		pa_skip("a lone cycles event had a counter %llu of the %llu ns it was enabled "
			"(another user holds them)", (unsigned long long)v.running,
			(unsigned long long)v.enabled);
	pa_diag("alone, one cycles event counts %llu over %llu iterations%s",
		(unsigned long long)v.value, (unsigned long long)k,
		peek ? " (with a read of itself before the disable)" : "");
	return v.value;
}

int pa_sched_mux_interval_ms(char *path, size_t len)
{
	const char *pmu = pa_core_pmu_name();
	char buf[32];
	long ms;

	if (!pmu)
		pa_skip("no core PMU in /sys/bus/event_source/devices");
	snprintf(path, len, "/sys/bus/event_source/devices/%s/perf_event_mux_interval_ms", pmu);
	if (pa_sysctl_read(path, buf, sizeof(buf)))
		pa_skip("%s cannot be read: %s", path, pa_errno_name(errno));
	ms = strtol(buf, NULL, 10);
	if (ms < 1)
		pa_skip("%s reads \"%s\"", path, buf);
	return (int)ms;
}
