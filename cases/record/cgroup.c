#include "perfabi.h"

#include <stdio.h>
#include <sys/stat.h>

struct cgroup_rec {
	struct perf_event_header h;
	uint64_t id;
	char path[];
};

PERFABI_CASE(
	.assertion = "attr.cgroup: creating a cgroup produces PERF_RECORD_CGROUP {id, path} with the new cgroup's id (its directory's inode) and its path from the hierarchy root, NUL-padded to 8 bytes",
	.ref = "perf_event_open(2), cgroup (5.7): \"enables the generation of PERF_RECORD_CGROUP records when a new cgroup is created\"; kernel/events/core.c perf_event_cgroup() from perf_cgroup_css_online()",
	.covers = "attr.cgroup record.CGROUP",
	.features = "cgroup",
	.min_kernel = "5.7",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct cgroup_rec *c = NULL;
	struct pa_cgroup cg;
	struct pa_ring r;
	struct stat st;
	int fd, err;

	attr.disabled = 0;
	attr.cgroup = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_cgroup_new(&cg, "pa-sample-cg-", false);
	if (stat(cg.dir, &st)) {
		err = errno;
		pa_cgroup_remove(&cg);
		pa_fail("stat(%s): %s", cg.dir, pa_errno_name(err));
		pa_abort();
	}
	while ((h = pa_ring_find(&r, PERF_RECORD_CGROUP))) {
		c = (const struct cgroup_rec *)h;
		if (!strcmp(c->path, cg.name))
			break;
	}
	pa_cgroup_remove(&cg);
	ASSERT_TRUE(h != NULL);
	EXPECT_EQ(c->id, (uint64_t)st.st_ino);
	EXPECT_EQ(h->size, sizeof(*c) + ((strlen(cg.name) + 1 + 7) & ~(size_t)7));
}
