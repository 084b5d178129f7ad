#include "perfabi.h"

/*
 * comm_exec is documented as a pure feature-detection bit: it changes no
 * kernel behaviour. With comm set and comm_exec clear, the COMM record of an
 * execve still carries PERF_RECORD_MISC_COMM_EXEC.
 */
PERFABI_CASE(
	.assertion = "attr.comm_exec does not change behaviour: with attr.comm set and comm_exec clear, the PERF_RECORD_COMM caused by an execve still has PERF_RECORD_MISC_COMM_EXEC in its misc field",
	.ref = "perf_event_open(2), comm_exec (3.16): \"This is purely a feature-detection flag, it does not change kernel behavior. If this flag can successfully be set, then, when comm is enabled, the PERF_RECORD_MISC_COMM_EXEC flag will be set ... if the rename event being reported was caused by a call to execve(2)\"",
	.covers = "attr.comm_exec attr.comm record.COMM",
	.min_kernel = "3.16",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	struct pa_ring r;
	int go, fd, n = 0;
	pid_t pid = pa_exec_child_start(&go, 0, "touch_pages", "1");

	attr.disabled = 0;
	attr.comm = 1;
	attr.comm_exec = 0;
	fd = ASSERT_OPEN(&attr, pid, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	ASSERT_EQ(pa_exec_child_go(pid, go), 0);
	while ((h = pa_ring_find(&r, PERF_RECORD_COMM))) {
		n++;
		EXPECT_TRUE(h->misc & PERF_RECORD_MISC_COMM_EXEC);
	}
	EXPECT_EQ(n, 1);
	pa_ring_unmap(&r);
	close(fd);
}
