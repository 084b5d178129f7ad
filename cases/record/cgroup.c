#include "perfabi.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>

/*
 * pa_cgroup_new() creates the cgroup with mkdir() in this thread, so
 * perf_event_cgroup() (from perf_cgroup_css_online()) runs in this task:
 * the sample_id trailer carries our pid/tid and a time between clock
 * readings around the mkdir. The record's id is cgroup_id(), the kernfs
 * node id: what name_to_handle_at() gives as the directory's handle
 * (kernfs_encode_fh(): the u64 id) and, on 64-bit, its st_ino
 * (kernfs_id_ino()).
 */
struct cgroup_rec {
	struct perf_event_header h;
	uint64_t id;
	char path[];
};

struct trailer {
	uint32_t pid, tid;
	uint64_t time;
};

PERFABI_CASE(
	.assertion = "attr.cgroup: creating a cgroup produces one PERF_RECORD_CGROUP {id, path} for it with id the new cgroup's id (its directory's file handle, and inode on 64-bit) and path exactly its path from the hierarchy root, NUL-padded to 8 bytes, then the sample_id trailer of the task that created it",
	.ref = "perf_event_open(2), cgroup (5.7): \"enables the generation of PERF_RECORD_CGROUP records when a new cgroup is created\"; include/uapi/linux/perf_event.h PERF_RECORD_CGROUP {id, path[]}; kernel/events/core.c perf_event_cgroup() from perf_cgroup_css_online(); fs/kernfs/mount.c kernfs_encode_fh()",
	.alone = true,
	.covers = "attr.cgroup record.CGROUP attr.sample_id_all sample.TID sample.TIME",
	.features = "cgroup",
	.min_kernel = "5.7",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct cgroup_rec *c;
	const struct trailer *t;
	union {
		struct file_handle fh;
		char buf[sizeof(struct file_handle) + 64];
	} fh;
	uint64_t before, after, hid = 0;
	bool have_handle = false;
	struct pa_cgroup cg;
	struct pa_ring r;
	struct stat st;
	size_t pl;
	int fd, err, mnt_id, n = 0;

	attr.disabled = 0;
	attr.cgroup = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	ASSERT_EQ(pa_sample_id_size(&attr), sizeof(*t));
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	before = pa_clock_ns(CLOCK_MONOTONIC);
	pa_cgroup_new(&cg, "pa-sample-cg-", false);
	after = pa_clock_ns(CLOCK_MONOTONIC);
	if (stat(cg.dir, &st)) {
		err = errno;
		pa_cgroup_remove(&cg);
		pa_fail("stat(%s): %s", cg.dir, pa_errno_name(err));
		pa_abort();
	}
	fh.fh.handle_bytes = 64;
	if (!name_to_handle_at(AT_FDCWD, cg.dir, &fh.fh, &mnt_id, 0)) {
		have_handle = true;
		EXPECT_EQ(fh.fh.handle_bytes, 8u);
		memcpy(&hid, fh.fh.f_handle, 8);
	} else {
		/* kernfs without export support: the inode is the oracle */
		pa_diag("name_to_handle_at(%s): %s", cg.dir, pa_errno_name(errno));
	}
	pl = (strlen(cg.name) + 1 + 7) & ~(size_t)7;
	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_CGROUP)
			continue;
		c = (const struct cgroup_rec *)h;
		if (strcmp(c->path, cg.name))
			continue;	/* another cgroup made meanwhile */
		n++;
		EXPECT_EQ(h->misc, 0);
		EXPECT_EQ((size_t)h->size, sizeof(*c) + pl + sizeof(*t));
		for (size_t i = strlen(cg.name); i < pl; i++)
			EXPECT_EQ(c->path[i], 0);
		if (have_handle)
			EXPECT_EQ(c->id, hid);
		if (sizeof(ino_t) >= 8)
			EXPECT_EQ(c->id, (uint64_t)st.st_ino);
		t = (const void *)((const char *)h + h->size - sizeof(*t));
		EXPECT_EQ(t->pid, (uint32_t)getpid());
		EXPECT_EQ(t->tid, (uint32_t)syscall(SYS_gettid));
		EXPECT_GE(t->time, before);
		EXPECT_LE(t->time, after);
		pa_diag("CGROUP %s id %llu", c->path, (unsigned long long)c->id);
	}
	pa_cgroup_remove(&cg);
	EXPECT_EQ(n, 1);
	close(fd);
}
