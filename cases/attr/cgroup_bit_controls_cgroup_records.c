#include "perfabi.h"

#include <dirent.h>
#include <sys/stat.h>

/*
 * Creating a cgroup produces PERF_RECORD_CGROUP in events with cgroup set
 * and nothing in an otherwise identical event without it. Root: creating a
 * cgroup. The directory is removed at the end and leftovers of a killed
 * run (pa-attr-cg-*) are removed first.
 */
static void remove_leftovers(const char *root)
{
	char path[4200];
	struct dirent *d;
	DIR *dir = opendir(root);

	if (!dir)
		return;
	while ((d = readdir(dir)))
		if (!strncmp(d->d_name, "pa-attr-cg-", 11)) {
			snprintf(path, sizeof(path), "%s/%s", root, d->d_name);
			rmdir(path);
		}
	closedir(dir);
}

PERFABI_CASE(
	.assertion = "attr.cgroup: creating a cgroup produces a PERF_RECORD_CGROUP in an event with cgroup set and none in an otherwise identical event without it",
	.ref = "perf_event_open(2), cgroup (5.7): \"enables the generation of PERF_RECORD_CGROUP records when a new cgroup is created\"; kernel/events/core.c perf_event_cgroup_match()",
	.covers = "attr.cgroup record.CGROUP",
	.min_kernel = "5.7",
	.root = true,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr b = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	char root[2048], own[2048], dir[2200];
	struct pa_ring ra, rb;
	int fa, fb, na, nb;

	if (!pa_perf_cgroup(root, sizeof(root), own, sizeof(own)))
		pa_skip("no cgroup hierarchy with the perf_event controller");
	remove_leftovers(root);
	snprintf(dir, sizeof(dir), "%s/pa-attr-cg-%d", root, (int)getpid());
	a.disabled = b.disabled = 0;
	a.cgroup = 1;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, -1, 0);
	pa_ring_map(&ra, fa, 4);
	pa_ring_map(&rb, fb, 4);
	if (mkdir(dir, 0755))
		pa_skip("cannot create cgroup %s: %s", dir, pa_errno_name(errno));
	rmdir(dir);
	na = pa_ring_count(&ra, PERF_RECORD_CGROUP);
	nb = pa_ring_count(&rb, PERF_RECORD_CGROUP);
	EXPECT_GE(na, 1);
	EXPECT_EQ(nb, 0);
	pa_ring_unmap(&ra);
	pa_ring_unmap(&rb);
	close(fa);
	close(fb);
}
