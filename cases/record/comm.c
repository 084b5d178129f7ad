#include "perfabi.h"

#include <sys/prctl.h>
#include <sys/syscall.h>

struct comm_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
	char comm[];
};

PERFABI_CASE(
	.assertion = "attr.comm: renaming the task with prctl(PR_SET_NAME) produces PERF_RECORD_COMM {pid, tid, comm} with the new name, padded to 8 bytes, without PERF_RECORD_MISC_COMM_EXEC",
	.ref = "perf_event_open(2), comm: \"enables tracking of process command name as modified by the exec(2) and prctl(PR_SET_NAME) system calls\"; PERF_RECORD_COMM",
	.covers = "attr.comm record.COMM",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct comm_rec *c;
	struct pa_ring r;
	int fd;

	attr.disabled = 0;
	attr.comm = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	ASSERT_OK(prctl(PR_SET_NAME, "pa-comm-test"));
	h = pa_ring_find(&r, PERF_RECORD_COMM);
	ASSERT_TRUE(h != NULL);
	c = (const struct comm_rec *)h;
	EXPECT_EQ(c->pid, (uint32_t)getpid());
	EXPECT_EQ(c->tid, (uint32_t)syscall(SYS_gettid));
	EXPECT_TRUE(strcmp(c->comm, "pa-comm-test") == 0);
	EXPECT_EQ(h->size, sizeof(*c) + 16);	/* 13 bytes with the NUL, padded */
	EXPECT_FALSE(h->misc & PERF_RECORD_MISC_COMM_EXEC);
}
