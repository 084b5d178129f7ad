#include "perfabi.h"

#include <sys/stat.h>
#include <sys/wait.h>

struct ns_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t nr_namespaces;
	struct { uint64_t dev, inode; } ns[];
};

PERFABI_CASE(
	.assertion = "attr.namespaces: a fork by the monitored task produces PERF_RECORD_NAMESPACES {pid, tid, nr_namespaces, {dev, inode}[nr]} for the new task, whose net namespace entry (index 0) is the inode of /proc/self/ns/net; opening it needs CAP_PERFMON or CAP_SYS_ADMIN (EACCES otherwise)",
	.ref = "perf_event_open(2), namespaces (4.11): \"enables the generation of PERF_RECORD_NAMESPACES records when a task enters a new namespace\"; include/uapi/linux/perf_event.h NET_NS_INDEX = 0; kernel/events/core.c perf_event_namespaces() on fork",
	.covers = "attr.namespaces record.NAMESPACES",
	.min_kernel = "4.11",
	.privileged = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct ns_rec *n = NULL;
	struct pa_ring r;
	struct stat st;
	int fd, want = pa_expected_errno(PA_NEED_NAMESPACES), wst;
	pid_t child;

	attr.disabled = 0;
	attr.namespaces = 1;
	if (want) {
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want);
		return;
	}
	ASSERT_OK(stat("/proc/self/ns/net", &st));
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0)
		_exit(0);
	ASSERT_EQ(waitpid(child, &wst, 0), child);
	while ((h = pa_ring_find(&r, PERF_RECORD_NAMESPACES))) {
		n = (const struct ns_rec *)h;
		if (n->pid == (uint32_t)child)
			break;
	}
	ASSERT_TRUE(h != NULL);
	EXPECT_EQ(n->tid, (uint32_t)child);
	ASSERT_GE(n->nr_namespaces, 7u);	/* net uts ipc pid user mnt cgroup */
	EXPECT_EQ(h->size, sizeof(*n) + 16 * n->nr_namespaces);
	EXPECT_EQ(n->ns[0].inode, (uint64_t)st.st_ino);
}
