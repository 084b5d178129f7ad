#include "perfabi.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/*
 * A thread that is not the main thread maps two pages of a memfd at file
 * offset one page, PROT_READ|PROT_EXEC, MAP_PRIVATE, with MAP_FIXED in the
 * middle of a PROT_NONE reservation (no neighbour to merge with), while an
 * event attached to that thread records MMAP2 with sample_id_all {tid,
 * time}. Every field has its own oracle: pid = getpid(), tid = the thread,
 * addr/len/pgoff of the call, maj/min/ino from fstat(), ino_generation the
 * inode's i_generation (word 0 of shmem's file handle, shmem_encode_fh()),
 * prot/flags as mapped, the filename the kernel's d_path() gives (the same
 * as readlink of /proc/self/fd/N: "/memfd:<name> (deleted)").
 */
struct trailer {
	uint32_t pid, tid;
	uint64_t time;
};

static int efd, map_err;
static char *res, *map;
static size_t psz;
static uint64_t t_before, t_after;

static void do_mmap(void *unused)
{
	(void)unused;
	t_before = pa_clock_ns(CLOCK_MONOTONIC);
	map = mmap(res + psz, 2 * psz, PROT_READ | PROT_EXEC,
		   MAP_PRIVATE | MAP_FIXED, efd, (off_t)psz);
	map_err = errno;
	t_after = pa_clock_ns(CLOCK_MONOTONIC);
}

PERFABI_CASE(
	.assertion = "attr.mmap2: a PROT_READ|PROT_EXEC MAP_PRIVATE file mapping made by a thread that is not the main thread produces one PERF_RECORD_MMAP2 {pid, tid, addr, len, pgoff, maj, min, ino, ino_generation, prot, flags, filename} with pid the process, tid the thread, the mapping's address, length and file offset in bytes, the file's device major/minor, inode and inode generation, prot PROT_READ|PROT_EXEC, flags exactly MAP_PRIVATE, and the file's path, NUL-padded to 8 bytes, then the sample_id trailer",
	.ref = "perf_event_open(2), PERF_RECORD_MMAP2 {pid, tid, addr, len, pgoff, maj, min, ino, ino_generation, prot, flags, filename}; kernel/events/core.c perf_event_mmap_event() (flags = MAP_SHARED or MAP_PRIVATE, | MAP_LOCKED, | MAP_HUGETLB; MAP_EXECUTABLE dropped in 5.15, \"perf: MAP_EXECUTABLE does not indicate VM_MAYEXEC\"); mm/shmem.c shmem_encode_fh()",
	.covers = "attr.mmap2 record.MMAP2 attr.sample_id_all sample.TID sample.TIME attr.use_clockid",
	.min_kernel = "5.15",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct pa_mmap2_rec *m;
	const struct trailer *t;
	char path[64], want[256];
	union {
		struct file_handle fh;
		char buf[sizeof(struct file_handle) + 64];
	} fh;
	struct pa_thread th;
	struct pa_ring r;
	struct stat st;
	ssize_t wl;
	size_t fl;
	int fd, mnt_id, n = 0;

	psz = (size_t)sysconf(_SC_PAGESIZE);
	efd = memfd_create("pa-mmap2-thr", MFD_CLOEXEC);
	if (efd < 0)
		pa_skip("memfd_create: %s", strerror(errno));
	ASSERT_OK(ftruncate(efd, (off_t)(4 * psz)));
	ASSERT_OK(fstat(efd, &st));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", efd);
	wl = readlink(path, want, sizeof(want) - 1);
	ASSERT_GT(wl, 0);
	want[wl] = 0;
	fh.fh.handle_bytes = 64;
	if (name_to_handle_at(efd, "", &fh.fh, &mnt_id, AT_EMPTY_PATH))
		pa_skip("no file handle for a memfd (%s): its inode generation is not known", pa_errno_name(errno));
	ASSERT_EQ(fh.fh.handle_bytes, 12u);	/* {i_generation, ino lo, ino hi} */
	res = mmap(NULL, 4 * psz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(res != MAP_FAILED);

	pa_thread_start(&th, NULL, do_mmap, NULL);
	attr.disabled = 0;
	attr.mmap = 1;
	attr.mmap2 = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	ASSERT_EQ(pa_sample_id_size(&attr), sizeof(*t));
	fd = ASSERT_OPEN(&attr, th.tid, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_thread_run(&th);
	if (map == MAP_FAILED)
		pa_skip("executable mapping of a memfd refused: %s", strerror(map_err));
	ASSERT_TRUE(map == res + psz);

	fl = ((size_t)wl + 1 + 7) & ~(size_t)7;
	while ((h = pa_ring_next(&r))) {
		ASSERT_NE(h->type, (uint32_t)PERF_RECORD_LOST);
		EXPECT_NE(h->type, (uint32_t)PERF_RECORD_MMAP);
		if (h->type != PERF_RECORD_MMAP2)
			continue;
		m = (const struct pa_mmap2_rec *)h;
		n++;
		EXPECT_EQ(h->misc, PERF_RECORD_MISC_USER);
		ASSERT_EQ((size_t)h->size, sizeof(*m) + fl + sizeof(*t));
		EXPECT_EQ(m->pid, (uint32_t)getpid());
		EXPECT_EQ(m->tid, (uint32_t)th.tid);
		EXPECT_EQ(m->addr, (uint64_t)(uintptr_t)map);
		EXPECT_EQ(m->len, (uint64_t)(2 * psz));
		EXPECT_EQ(m->pgoff, (uint64_t)psz);
		EXPECT_EQ(m->maj, (uint32_t)major(st.st_dev));
		EXPECT_EQ(m->min, (uint32_t)minor(st.st_dev));
		EXPECT_EQ(m->ino, (uint64_t)st.st_ino);
		EXPECT_EQ(m->ino_generation, (uint64_t)*(const uint32_t *)fh.fh.f_handle);
		EXPECT_EQ(m->prot, (uint32_t)(PROT_READ | PROT_EXEC));
		EXPECT_EQ(m->flags, (uint32_t)MAP_PRIVATE);
		EXPECT_TRUE(strcmp(m->filename, want) == 0);
		for (size_t i = (size_t)wl; i < fl; i++)
			EXPECT_EQ(m->filename[i], 0);
		t = (const void *)((const char *)h + h->size - sizeof(*t));
		EXPECT_EQ(t->pid, (uint32_t)getpid());
		EXPECT_EQ(t->tid, (uint32_t)th.tid);
		EXPECT_GE(t->time, t_before);
		EXPECT_LE(t->time, t_after);
		pa_diag("MMAP2 %s ino %llu gen %llu", m->filename,
			(unsigned long long)m->ino, (unsigned long long)m->ino_generation);
	}
	EXPECT_EQ(n, 1);
	close(fd);
}
