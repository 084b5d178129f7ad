#include "perfabi.h"

#include <sys/stat.h>

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_CGROUP gives the cgroup id of the sampled task: the inode number of its directory in the hierarchy that holds the perf_event controller",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE cgroup (5.7, 96aaab686505): \"the cgroup ID (for the perf_event subsystem)\"; kernel/cgroup: cgroup_id() = kernfs node id = inode number",
	.covers = "sample.CGROUP",
	.features = "cgroup",
	.min_kernel = "5.7",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	char root[2048], own[2048];
	struct pa_ring r;
	struct pa_sample s;
	struct stat st;
	int fd;

	if (!pa_perf_cgroup(root, sizeof(root), own, sizeof(own)))
		pa_skip("no cgroup hierarchy with the perf_event controller");
	if (stat(own, &st))
		pa_skip("own cgroup directory %s not found", own);
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_CGROUP;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(s.cgroup, (uint64_t)st.st_ino);
}
