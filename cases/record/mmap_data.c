#include "perfabi.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>

/*
 * A thread that is not the main thread maps two pages of this program's
 * file at offset one page, PROT_READ only, with MAP_FIXED in the middle of
 * a PROT_NONE reservation (nothing to merge with). Two events are
 * attached to the thread: mmap alone, and mmap with mmap_data.
 */
static int efd;
static char *res, *map;
static size_t psz;

static void do_mmap(void *unused)
{
	(void)unused;
	map = mmap(res + psz, 2 * psz, PROT_READ, MAP_PRIVATE | MAP_FIXED, efd, (off_t)psz);
}

PERFABI_CASE(
	.assertion = "attr.mmap_data: a non-executable file mmap() by the monitored thread produces one PERF_RECORD_MMAP with misc exactly PERF_RECORD_MISC_USER|PERF_RECORD_MISC_MMAP_DATA and {pid, tid, addr, len, pgoff, filename} the process, the thread, the mapping's address, length and file offset in bytes and the file's path; an event with mmap but not mmap_data gets no record for it",
	.ref = "perf_event_open(2), mmap_data: \"the counterpart of the mmap option, this enables generation of PERF_RECORD_MMAP samples for mmap() calls that do not have PROT_EXEC set\" (2.6.36); PERF_RECORD_MISC_MMAP_DATA",
	.covers = "attr.mmap_data record.MMAP",
	.min_kernel = "2.6.36",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct pa_mmap_rec *m;
	char exe[PATH_MAX];
	struct pa_thread th;
	struct pa_ring r, r2;
	size_t fl;
	ssize_t n;
	int fd, fd2, found = 0;

	psz = (size_t)sysconf(_SC_PAGESIZE);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_GT(n, 0);
	exe[n] = 0;
	fl = ((size_t)n + 1 + 7) & ~(size_t)7;
	efd = ASSERT_OK(open(exe, O_RDONLY));
	res = mmap(NULL, 4 * psz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(res != MAP_FAILED);
	pa_thread_start(&th, NULL, do_mmap, NULL);
	attr.disabled = 0;
	attr.mmap = 1;
	fd2 = ASSERT_OPEN(&attr, th.tid, -1, -1, 0);	/* mmap only */
	pa_ring_map(&r2, fd2, 4);
	attr.mmap_data = 1;
	fd = ASSERT_OPEN(&attr, th.tid, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_thread_run(&th);
	ASSERT_TRUE(map == res + psz);
	while ((h = pa_ring_find(&r, PERF_RECORD_MMAP))) {
		m = (const void *)h;
		found++;
		EXPECT_EQ(h->misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
		ASSERT_EQ((size_t)h->size, sizeof(*m) + fl);
		EXPECT_EQ(m->pid, (uint32_t)getpid());
		EXPECT_EQ(m->tid, (uint32_t)th.tid);
		EXPECT_EQ(m->addr, (uint64_t)(uintptr_t)map);
		EXPECT_EQ(m->len, (uint64_t)(2 * psz));
		EXPECT_EQ(m->pgoff, (uint64_t)psz);
		EXPECT_TRUE(strcmp(m->filename, exe) == 0);
	}
	EXPECT_EQ(found, 1);
	EXPECT_EQ(pa_ring_count(&r2, PERF_RECORD_MMAP), 0);
	close(fd);
	close(fd2);
}
