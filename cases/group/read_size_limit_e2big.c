#include "perfabi.h"

#include <sys/resource.h>

/*
 * perf_event_validate_size(): a member may join only while the group's
 * read_format block stays within 16 KiB. With read_format GROUP | ID |
 * LOST | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING on every member (and
 * sample_type 0) the block for n members is 8 + 16 + 24 n bytes. Both
 * forms of the check give the same limit for this format:
 *   6.7+ (and stable backports, 382c27f4ed28): read_size > 16384 fails;
 *   before: read_size + header_size(0) + id_header_size(0) +
 *           sizeof(struct perf_event_header) >= 16384 fails.
 * So exactly max_members() events (leader included) open, the next E2BIG.
 */
#define FMT (PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST | \
	     PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static size_t read_size(unsigned n)
{
	return 8 + 16 + (size_t)n * 24;
}

static unsigned max_members(void)
{
	unsigned n = 1, old = 1;

	while (read_size(n + 1) <= 16 * 1024)
		n++;
	while (read_size(old + 1) + 8 < 16 * 1024)
		old++;
	if (n != old)
		pa_skip("the two forms of the size check disagree (%u vs %u)", n, old);
	return n;
}

PERFABI_CASE(
	.assertion = "a group grows only while its PERF_FORMAT_GROUP read size stays within 16 KiB: with 24-byte entries exactly 681 members open and the next sibling fails with E2BIG",
	.ref = "kernel/events/core.c perf_event_validate_size() (\"check that the read_size for the event does not exceed 16k\") -> -E2BIG in perf_event_open(); perf_event_open(2), E2BIG",
	.fix = { .commit = "a723968c0ed3", .subject = "perf: Fix u16 overflows", .release = "4.3" },
	.covers = "arg.group_fd errno.E2BIG read_format.GROUP",
	.min_kernel = "6.0",	/* PERF_FORMAT_LOST */
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	unsigned max = max_members();
	struct rlimit rl;
	int leader;

	ASSERT_EQ(max, 681);
	ASSERT_OK(getrlimit(RLIMIT_NOFILE, &rl));
	if (rl.rlim_cur < max + 64) {
		if (rl.rlim_max < max + 64)
			pa_skip("RLIMIT_NOFILE hard limit %llu < %u",
				(unsigned long long)rl.rlim_max, max + 64);
		rl.rlim_cur = max + 64;
		ASSERT_OK(setrlimit(RLIMIT_NOFILE, &rl));
	}
	attr.read_format = FMT;
	leader = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	for (unsigned i = 1; i < max; i++) {
		int fd = pa_perf_open(&attr, 0, -1, leader, 0);

		if (fd < 0) {
			pa_fail("member %u of %u: %s", i + 1, max, pa_errno_name(errno));
			pa_abort();
		}
	}
	EXPECT_OPEN_FAIL(&attr, 0, -1, leader, 0, E2BIG);
}
