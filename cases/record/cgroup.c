#include "perfabi.h"

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

struct cgroup_rec {
	struct perf_event_header h;
	uint64_t id;
	char path[];
};

/* Remove empty directories a killed earlier run of this case left. */
static void remove_leftovers(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *e;
	char p[4200];

	if (!d)
		return;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "pa-sample-cg-", 13)) {
			snprintf(p, sizeof(p), "%s/%s", root, e->d_name);
			rmdir(p);
		}
	closedir(d);
}

PERFABI_CASE(
	.assertion = "attr.cgroup: creating a cgroup produces PERF_RECORD_CGROUP {id, path} with the new cgroup's id (its directory's inode) and its path from the hierarchy root, NUL-padded to 8 bytes",
	.ref = "perf_event_open(2), cgroup (5.7): \"enables the generation of PERF_RECORD_CGROUP records when a new cgroup is created\"; kernel/events/core.c perf_event_cgroup() from perf_cgroup_css_online()",
	.covers = "attr.cgroup record.CGROUP",
	.min_kernel = "5.7",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct cgroup_rec *c = NULL;
	char root[2048], own[2048], dir[2200], name[64];
	struct pa_ring r;
	struct stat st;
	int fd;

	if (!pa_perf_cgroup(root, sizeof(root), own, sizeof(own)))
		pa_skip("no cgroup hierarchy with the perf_event controller");
	remove_leftovers(root);
	snprintf(name, sizeof(name), "/pa-sample-cg-%d", (int)getpid());
	snprintf(dir, sizeof(dir), "%s%s", root, name);
	attr.disabled = 0;
	attr.cgroup = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	if (mkdir(dir, 0755))
		pa_skip("cannot create cgroup %s: %s", dir, strerror(errno));
	if (stat(dir, &st)) {
		rmdir(dir);
		pa_fail("stat(%s): %s", dir, strerror(errno));
		pa_abort();
	}
	while ((h = pa_ring_find(&r, PERF_RECORD_CGROUP))) {
		c = (const struct cgroup_rec *)h;
		if (!strcmp(c->path, name))
			break;
	}
	rmdir(dir);
	ASSERT_TRUE(h != NULL);
	EXPECT_EQ(c->id, (uint64_t)st.st_ino);
	EXPECT_EQ(h->size, sizeof(*c) + ((strlen(name) + 1 + 7) & ~(size_t)7));
}
