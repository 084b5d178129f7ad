#include "perfabi.h"

#include <sched.h>
#include <sys/stat.h>

/*
 * With namespaces set, a task that changes its namespaces with unshare(2)
 * gets a PERF_RECORD_NAMESPACES {pid, tid, nr_namespaces, {dev, inode}[]}
 * describing the new set. After unshare(CLONE_NEWUTS) the UTS entry
 * (index 1, UTS_NS_INDEX) holds the inode of /proc/self/ns/uts. The body
 * runs in a forked child, so the new namespace dies with it. Root: unshare
 * needs CAP_SYS_ADMIN and attr.namespaces CAP_PERFMON.
 */
struct ns_rec {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t nr;
	struct { uint64_t dev, ino; } link[];
};

PERFABI_CASE(
	.assertion = "attr.namespaces: unshare(CLONE_NEWUTS) by the monitored task produces a PERF_RECORD_NAMESPACES whose pid is the task's and whose UTS entry has the inode of the new /proc/self/ns/uts",
	.ref = "perf_event_open(2), namespaces (4.12): \"enables the generation of PERF_RECORD_NAMESPACES records when a task enters a new namespace\"; kernel/fork.c ksys_unshare() perf_event_namespaces(current)",
	.features = "ns:uts",
	.covers = "attr.namespaces record.NAMESPACES",
	.min_kernel = "4.12",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct ns_rec *n;
	struct pa_ring r;
	struct stat st;
	int fd;

	attr.disabled = 0;
	attr.namespaces = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	ASSERT_OK(unshare(CLONE_NEWUTS));
	ASSERT_OK(stat("/proc/self/ns/uts", &st));
	h = pa_ring_find(&r, PERF_RECORD_NAMESPACES);
	ASSERT_TRUE(h != NULL);
	n = (const struct ns_rec *)h;
	EXPECT_EQ(n->pid, (uint32_t)getpid());
	ASSERT_GE(n->nr, 2);
	EXPECT_EQ(n->link[1].ino, (uint64_t)st.st_ino);
	pa_ring_unmap(&r);
	close(fd);
}
