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
	.assertion = "attr.namespaces: a fork by the monitored task produces PERF_RECORD_NAMESPACES {pid, tid, nr_namespaces, {dev, inode}[nr]} for the new task, whose entry at each index (net 0, uts 1, ipc 2, pid 3, user 4, mnt 5, cgroup 6) is the device and inode of /proc/self/ns/<name> (the child shares them), nr_namespaces exactly 7 and {0, 0} for a type the kernel is built without; opening it needs CAP_PERFMON or CAP_SYS_ADMIN (EACCES otherwise)",
	.ref = "perf_event_open(2), namespaces (4.11): \"enables the generation of PERF_RECORD_NAMESPACES records when a task enters a new namespace\"; include/uapi/linux/perf_event.h NET_NS_INDEX = 0; kernel/events/core.c perf_event_namespaces() on fork, perf_fill_ns_link_info()",
	.covers = "attr.namespaces record.NAMESPACES",
	.min_kernel = "4.11",
	.privileged = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct ns_rec *n = NULL;
	struct pa_ring r;
	static const char *const names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	struct stat st[7];
	bool have[7];
	int fd, want = pa_expected_errno(PA_NEED_NAMESPACES), wst;
	pid_t child;

	attr.disabled = 0;
	attr.namespaces = 1;
	if (want) {
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want);
		return;
	}
	/* a kernel without a namespace type has no /proc/self/ns/<name>
	 * (CONFIG_NET_NS=n, say); the entries of those that exist are checked */
	for (int i = 0; i < 7; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/self/ns/%s", names[i]);
		have[i] = !stat(path, &st[i]);
		if (!have[i])
			pa_diag("%s: %s: no %s namespaces here, the entry must be {0, 0}",
				path, pa_errno_name(errno), names[i]);
	}
	ASSERT_TRUE(have[5]);		/* mount namespaces are always built */
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
	EXPECT_EQ(h->misc, 0);
	/* NR_NAMESPACES: net uts ipc pid user mnt cgroup */
	ASSERT_EQ(n->nr_namespaces, 7u);
	EXPECT_EQ(h->size, sizeof(*n) + 16 * 7);
	for (int i = 0; i < 7; i++) {
		/* perf_fill_ns_link_info() fills only the configured types
		 * of a zeroed record */
		if (!have[i]) {
			EXPECT_EQ(n->ns[i].dev, 0u);
			EXPECT_EQ(n->ns[i].inode, 0u);
			continue;
		}
		EXPECT_EQ(n->ns[i].inode, (uint64_t)st[i].st_ino);
		EXPECT_EQ(n->ns[i].dev, (uint64_t)st[i].st_dev);
	}
}
