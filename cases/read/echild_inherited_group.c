#include "perfabi.h"
#include <sys/wait.h>

static const char *echild_probe(void)
{
	const char *r = pa_probe_self_perf();

	if (r)
		return r;
	/* 32671e3799ca: 6.6-rc7; in the 6.1 branch (present in 6.1.158) */
	if (pa_kernel_at_least("6.6"))
		return NULL;
	if (pa_kernel_at_least("6.1.158") && !pa_kernel_at_least("6.2"))
		return NULL;
	return "kernel may predate 32671e3799ca (mis-matched inherited group reads)";
}

PERFABI_CASE(
	.assertion = "a PERF_FORMAT_GROUP read of an inherited group fails with ECHILD when the parent's group changed after a child inherited it (the child's copy no longer matches)",
	.ref = "kernel/events/core.c __perf_read_group_add(): parent->group_generation/nr_siblings != leader's -> -ECHILD; commit 32671e3799ca (6.6-rc7, backported to 6.1.y)",
	.covers = "read.ECHILD read_format.GROUP attr.inherit",
	.tags = "linux-git=32671e3799ca",
	.probe = echild_probe,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[16];
	int p2c[2], c2p[2], lead, sib, extra;
	char ch = 0;
	pid_t pid;

	attr.inherit = 1;
	attr.disabled = 0;
	attr.read_format = PERF_FORMAT_GROUP;
	lead = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	sib = ASSERT_OPEN(&attr, 0, -1, lead, 0);
	ASSERT_OK(pipe(p2c));
	ASSERT_OK(pipe(c2p));
	pid = fork();
	ASSERT_NE(pid, -1);
	if (pid == 0) {
		/* the child holds the inherited copy of the 2-member group */
		if (write(c2p[1], &ch, 1) != 1 || read(p2c[0], &ch, 1) != 1)
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(read(c2p[0], &ch, 1), 1);
	/*
	 * The original group grows while the inherited copy does not. The
	 * kernel may have swapped the two (equivalent) contexts between the
	 * tasks at a context switch, so the original group can sit on the
	 * child task: then opening into it for pid 0 is EINVAL and it must be
	 * opened for the child's pid. The child sleeps in read() meanwhile,
	 * so no further swap happens.
	 */
	extra = pa_perf_open(&attr, 0, -1, lead, 0);
	if (extra < 0 && errno == EINVAL) {
		pa_diag("contexts were swapped: growing the group on the child");
		extra = pa_perf_open(&attr, pid, -1, lead, 0);
	}
	EXPECT_TRUE(extra >= 0);
	if (extra >= 0)
		EXPECT_ERRNO(read(lead, b, sizeof(b)), ECHILD);
	ASSERT_EQ(write(p2c[1], &ch, 1), 1);
	ASSERT_EQ(waitpid(pid, NULL, 0), pid);
	if (extra >= 0)
		close(extra);
	close(sib);
	close(lead);
}
