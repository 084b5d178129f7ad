#include "perfabi.h"

#include <sys/wait.h>

/*
 * The man page warns that inherit "does not work for all combinations of
 * read_formats, such as PERF_FORMAT_GROUP". On the kernels this suite
 * targets (6.1+) perf_event_open() has no such restriction: an inherited
 * group read with PERF_FORMAT_GROUP returns every member with the exited
 * children's counts summed in (perf_read_group() adds each child's
 * values). Group built before the fork (context-swap pitfall, §8.3).
 */
PERFABI_CASE(
	.assertion = "attr.inherit with read_format PERF_FORMAT_GROUP is accepted and the group read includes the counts of exited children: a child's 64 page faults appear in the inherited sibling's value",
	.ref = "perf_event_open(2), inherit (\"Inherit does not work for all combinations of read_formats, such as PERF_FORMAT_GROUP\": not so on 6.x); kernel/events/core.c perf_read_group() sums child_list values",
	.covers = "attr.inherit read_format.GROUP",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr la = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr sa = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t v[3];
	int leader, sib, st;
	pid_t pid;

	la.inherit = sa.inherit = 1;
	la.disabled = sa.disabled = 0;
	la.read_format = sa.read_format = PERF_FORMAT_GROUP;
	leader = ASSERT_OPEN(&la, 0, -1, -1, 0);
	sib = ASSERT_OPEN(&sa, 0, -1, leader, 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		pa_touch_pages(64);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	pa_read_u64(leader, v, 3);
	EXPECT_EQ(v[0], 2);
	EXPECT_EQ(v[1], 0);
	EXPECT_GE(v[2], 64);
	close(sib);
	close(leader);
}
