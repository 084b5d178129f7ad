#include "perfabi.h"
#include <sys/wait.h>

/*
 * 32671e3799ca (6.6-rc7, CVE-2023-5717) and the stable releases that took
 * it, each the first of its branch with the ECHILD rule: 6.5.9, 6.1.60,
 * 5.15.137, 5.10.199, 5.4.259 (all released 2023-10-25). Other branches
 * (6.2..6.4 ended before it) are not known to have it.
 */
static const char *const echild_fixed[] = {
	"6.5.9", "6.1.60", "5.15.137", "5.10.199", "5.4.259",
};

static const char *echild_probe(void)
{
	static char why[96];
	const char *r = pa_probe_self_perf();
	struct pa_kver k = pa_kernel(), f;

	if (r)
		return r;
	if (pa_kernel_at_least("6.6"))
		return NULL;
	for (size_t i = 0; i < sizeof(echild_fixed) / sizeof(echild_fixed[0]); i++) {
		if (pa_kver_parse(echild_fixed[i], &f) || f.major != k.major ||
		    f.minor != k.minor)
			continue;
		if (pa_kernel_at_least(echild_fixed[i]))
			return NULL;
		snprintf(why, sizeof(why), "kernel predates %s, the first %d.%d.y "
			 "release with 32671e3799ca", echild_fixed[i], k.major, k.minor);
		return why;
	}
	return "no known stable release of this branch has 32671e3799ca "
	       "(mis-matched inherited group reads)";
}

PERFABI_CASE(
	.assertion = "a PERF_FORMAT_GROUP read of an inherited group fails with ECHILD when the parent's group changed after a child inherited it (the child's copy no longer matches)",
	.ref = "kernel/events/core.c __perf_read_group_add(): parent->group_generation/nr_siblings != leader's -> -ECHILD; commit 32671e3799ca (6.6-rc7; stable 6.5.9, 6.1.60, 5.15.137, 5.10.199, 5.4.259)",
	.fix = { .commit = "32671e3799ca", .subject = "perf: Disallow mis-matched inherited group reads", .release = "6.6", .cve = "CVE-2023-5717", .stable = "6.5.9 6.1.60 5.15.137 5.10.199 5.4.259" },
	.covers = "read.ECHILD read_format.GROUP attr.inherit",
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
