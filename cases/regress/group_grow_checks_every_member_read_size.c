#include "perfabi.h"

#include <sys/resource.h>

/*
 * 382c27f4ed28: adding a sibling grows the PERF_FORMAT_GROUP read of every
 * member that has it, not only the new event's. Before the fix only the
 * new event's own read size was checked, so siblings with read_format 0
 * (8 bytes each, whatever the group size) could be added without limit
 * while the leader's (or an earlier sibling's) group read grew past 16 KiB.
 *
 * The big member has GROUP | ID | LOST | TOTAL_TIME_ENABLED |
 * TOTAL_TIME_RUNNING: 8 + 16 + 24 n bytes for n members, so n = 681 is
 * the largest group it may be in, whichever member it is.
 */
#define FMT (PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST | \
	     PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define MAX_MEMBERS 681

/*
 * A group of MAX_MEMBERS events where member `big` (0: the leader) has FMT
 * and all others read_format 0; then one more 0-format sibling must fail
 * with E2BIG. Every fd is closed before returning.
 */
static void grow(unsigned big)
{
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	int fds[MAX_MEMBERS];
	unsigned n = 0;

	for (; n < MAX_MEMBERS; n++) {
		attr.read_format = n == big ? FMT : 0;
		fds[n] = pa_perf_open(&attr, 0, -1, n ? fds[0] : -1, 0);
		if (fds[n] < 0) {
			pa_fail("big member %u: member %u of %u failed: %s", big,
				n + 1, MAX_MEMBERS, pa_errno_name(errno));
			break;
		}
	}
	if (n == MAX_MEMBERS) {
		attr.read_format = 0;
		pa_diag("member %u has the group read format; adding member %u",
			big, MAX_MEMBERS + 1);
		EXPECT_OPEN_FAIL(&attr, 0, -1, fds[0], 0, E2BIG);
	}
	while (n--)
		close(fds[n]);
}

PERFABI_CASE(
	.assertion = "a sibling whose own read is small is refused with E2BIG when it would push the PERF_FORMAT_GROUP read of an existing member (the leader, or an earlier sibling) over 16 KiB: with 24-byte entries the 682nd member fails",
	.ref = "\"perf: Fix perf_event_validate_size()\" 382c27f4ed28 (6.7, CVE-2023-6931; stable 6.1.68): kernel/events/core.c perf_event_validate_size() checks the leader's and every sibling's read_format at nr_siblings + 1",
	.covers = "arg.group_fd errno.E2BIG read_format.GROUP",
	.fix = { .commit = "382c27f4ed28", .subject = "perf: Fix perf_event_validate_size()", .release = "6.7",
		 .cve = "CVE-2023-6931", .stable = "6.6.7 6.1.68 5.15.143 5.10.204 5.4.264" },
	.min_kernel = "6.0",	/* PERF_FORMAT_LOST */
	.probe = pa_probe_self_perf,
	.xfail = {
		.from = "6.0",
		.to = "6.7",
		.why = "perf_event_validate_size() checked only the new event's own read size, so 0-format siblings joined without limit while another member's group read grew past 16 KiB",
		.fix = "382c27f4ed28",
		/* the stable pushes of 6.6.7 (cfe9295db093) and 6.1.68
		 * (06dec254c59a); the 5.x branches lie below `from` */
		.fixed_in = "6.6.7 6.1.68",
	},
	.timeout = 30,
) {
	struct rlimit rl;

	ASSERT_OK(getrlimit(RLIMIT_NOFILE, &rl));
	if (rl.rlim_cur < MAX_MEMBERS + 64) {
		if (rl.rlim_max < MAX_MEMBERS + 64)
			pa_skip("RLIMIT_NOFILE hard limit %llu < %u",
				(unsigned long long)rl.rlim_max, MAX_MEMBERS + 64);
		rl.rlim_cur = MAX_MEMBERS + 64;
		ASSERT_OK(setrlimit(RLIMIT_NOFILE, &rl));
	}
	grow(0);	/* the leader's group read grows */
	grow(1);	/* an earlier sibling's group read grows */
}
