#include "perfabi.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

PERFABI_CASE(
	.assertion = "attr.mmap2: an executable file mmap() produces PERF_RECORD_MMAP2 with the file's device major/minor and inode, the mapping's prot and flags, and its filename (no PERF_RECORD_MMAP)",
	.ref = "perf_event_open(2), mmap2 (3.16): \"generate an extended executable mmap record\"; PERF_RECORD_MMAP2 {pid, tid, addr, len, pgoff, maj, min, ino, ino_generation, prot, flags, filename}",
	.covers = "attr.mmap2 record.MMAP2",
	.min_kernel = "3.16",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	const struct pa_mmap2_rec *m = NULL;
	struct pa_ring r;
	struct stat st;
	void *p;
	int fd, efd, plain = 0;

	/* A memfd: stat() and the kernel see the same device and inode
	 * (not so on overlayfs or btrfs subvolumes). */
	efd = memfd_create("pa-mmap2", MFD_CLOEXEC);
	if (efd < 0)
		pa_skip("memfd_create: %s", strerror(errno));
	ASSERT_OK(ftruncate(efd, psz));
	ASSERT_OK(fstat(efd, &st));
	attr.disabled = 0;
	attr.mmap = 1;
	attr.mmap2 = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	p = mmap(NULL, (size_t)psz, PROT_READ | PROT_EXEC, MAP_PRIVATE, efd, 0);
	if (p == MAP_FAILED)
		pa_skip("executable mapping of a memfd refused: %s", strerror(errno));
	while ((h = pa_ring_next(&r))) {
		if (h->type == PERF_RECORD_MMAP)
			plain++;
		if (h->type != PERF_RECORD_MMAP2)
			continue;
		m = (const struct pa_mmap2_rec *)h;
		if (m->addr == (uint64_t)(uintptr_t)p)
			break;
	}
	ASSERT_TRUE(h != NULL);
	EXPECT_EQ(plain, 0);
	EXPECT_EQ(m->pid, (uint32_t)getpid());
	EXPECT_EQ(m->len, (uint64_t)psz);
	EXPECT_EQ(m->pgoff, 0u);
	EXPECT_EQ(m->maj, (uint32_t)major(st.st_dev));
	EXPECT_EQ(m->min, (uint32_t)minor(st.st_dev));
	EXPECT_EQ(m->ino, (uint64_t)st.st_ino);
	EXPECT_EQ(m->prot, (uint32_t)(PROT_READ | PROT_EXEC));
	EXPECT_EQ(m->flags & MAP_PRIVATE, (uint32_t)MAP_PRIVATE);
	EXPECT_TRUE(strncmp(m->filename, "/memfd:pa-mmap2", 15) == 0);
}
