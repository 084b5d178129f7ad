#include "perfabi.h"

#include <sched.h>
#include <sys/stat.h>

/*
 * A thread that is not the main thread leaves its UTS namespace with
 * unshare(CLONE_NEWUTS) while an event with attr.namespaces is attached to
 * it: kernel/fork.c ksys_unshare() calls perf_event_namespaces(current),
 * which writes {pid, tid, nr_namespaces = NR_NAMESPACES (7), {dev,
 * inode}[7]} in the order of include/uapi/linux/perf_event.h (NET_NS_INDEX
 * 0, UTS 1, IPC 2, PID 3, USER 4, MNT 5, CGROUP 6). Each entry is the nsfs
 * inode of the task's namespace (perf_fill_ns_link_info(): dev =
 * new_encode_dev(), the encoding stat() gives in st_dev); the UTS entry is
 * the thread's new namespace, the others the process's. A namespace type
 * the kernel is built without (no /proc/self/ns/<name>) is left {0, 0}:
 * the record is zero-initialised and only configured types are filled.
 */
struct ns_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t nr_namespaces;
	struct { uint64_t dev, inode; } ns[7];
	uint32_t sid_pid, sid_tid;	/* sample_id: PERF_SAMPLE_TID */
};

static const char *const names[7] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
static int unshare_err = -1;
static struct stat new_uts;

/* The record is written by the unshare() itself (ksys_unshare()); the
 * thread's exit writes none, so it may end before the ring is read. */
static void unshare_uts(void *unused)
{
	(void)unused;
	unshare_err = unshare(CLONE_NEWUTS) ? errno : 0;
	if (!unshare_err && stat("/proc/thread-self/ns/uts", &new_uts))
		unshare_err = -2;
}

PERFABI_CASE(
	.assertion = "attr.namespaces: unshare(CLONE_NEWUTS) in a thread that is not the main thread produces one PERF_RECORD_NAMESPACES {pid, tid, nr_namespaces, {dev, inode}[nr]} with pid the process, tid the thread, nr_namespaces 7, and at each index (net 0, uts 1, ipc 2, pid 3, user 4, mnt 5, cgroup 6) the st_dev and st_ino of that namespace's /proc/<thread>/ns file: the thread's new UTS namespace at index 1, the process's at the others, {0, 0} for a type the kernel is built without",
	.ref = "perf_event_open(2), namespaces (4.11): \"enables the generation of PERF_RECORD_NAMESPACES records when a task enters a new namespace\"; include/uapi/linux/perf_event.h NET_NS_INDEX..CGROUP_NS_INDEX, NR_NAMESPACES; kernel/fork.c ksys_unshare(); kernel/events/core.c perf_event_namespaces(), perf_fill_ns_link_info()",
	.covers = "attr.namespaces record.NAMESPACES attr.sample_id_all sample.TID",
	.min_kernel = "4.11",
	.features = "ns:uts",
	.root = true,	/* unshare(CLONE_NEWUTS) needs CAP_SYS_ADMIN */
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct ns_rec *n;
	struct stat st[7];
	bool have[7];
	struct pa_thread th;
	int fd, nrec = 0;
	struct pa_ring r;

	for (int i = 0; i < 7; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/self/ns/%s", names[i]);
		have[i] = !stat(path, &st[i]);
		if (!have[i])
			pa_diag("%s: %s: this kernel has no %s namespaces, the entry must be {0, 0}",
				path, pa_errno_name(errno), names[i]);
	}
	ASSERT_TRUE(have[1] && have[5]);	/* ns:uts declared; mnt always */
	pa_thread_start(&th, NULL, unshare_uts, NULL);
	attr.disabled = 0;
	attr.namespaces = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	fd = ASSERT_OPEN(&attr, th.tid, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_thread_run(&th);
	if (unshare_err > 0)
		pa_skip("unshare(CLONE_NEWUTS): %s", pa_errno_name(unshare_err));
	ASSERT_EQ(unshare_err, 0);
	EXPECT_NE((uint64_t)new_uts.st_ino, (uint64_t)st[1].st_ino);

	while ((h = pa_ring_next(&r))) {
		ASSERT_NE(h->type, (uint32_t)PERF_RECORD_LOST);
		if (h->type != PERF_RECORD_NAMESPACES)
			continue;
		n = (const struct ns_rec *)h;
		nrec++;
		EXPECT_EQ(h->misc, 0);
		ASSERT_EQ(h->size, sizeof(*n));
		EXPECT_EQ(n->pid, (uint32_t)getpid());
		EXPECT_EQ(n->tid, (uint32_t)th.tid);
		EXPECT_EQ(n->nr_namespaces, 7u);	/* NR_NAMESPACES */
		for (int i = 0; i < 7; i++) {
			const struct stat *want = i == 1 ? &new_uts : &st[i];

			if (!have[i]) {
				EXPECT_EQ(n->ns[i].dev, 0u);
				EXPECT_EQ(n->ns[i].inode, 0u);
				continue;
			}
			EXPECT_EQ(n->ns[i].dev, (uint64_t)want->st_dev);
			EXPECT_EQ(n->ns[i].inode, (uint64_t)want->st_ino);
		}
		EXPECT_EQ(n->sid_pid, (uint32_t)getpid());
		EXPECT_EQ(n->sid_tid, (uint32_t)th.tid);
	}
	EXPECT_EQ(nrec, 1);
	close(fd);
}
