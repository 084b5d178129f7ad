#include "perfabi.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>

/*
 * A thread that is not the main thread maps one page of this program's
 * file at offset one page, PROT_READ|PROT_EXEC, with MAP_FIXED in the
 * middle of a PROT_NONE reservation (nothing to merge with), so the
 * record's addr and len are exactly the call's; the event is attached to
 * that thread, so pid (the process) and tid (the thread) differ.
 */
static int efd;
static char *res, *map;
static size_t psz;

static void do_mmap(void *unused)
{
	(void)unused;
	map = mmap(res + psz, psz, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED,
		   efd, (off_t)psz);
}

PERFABI_CASE(
	.assertion = "attr.mmap: an executable mmap() of a file by the monitored thread (not the main thread) produces one PERF_RECORD_MMAP {pid, tid, addr, len, pgoff (bytes), filename} with pid the process, tid the thread, the mapping's address, length and file offset, and the file's path NUL-padded to 8 bytes, from user space",
	.ref = "perf_event_open(2), mmap: \"enables generation of PERF_RECORD_MMAP samples for every mmap() call that has PROT_EXEC set\"; PERF_RECORD_MMAP layout",
	.covers = "record.MMAP attr.mmap sw.DUMMY",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct pa_mmap_rec *m;
	char exe[PATH_MAX];
	struct pa_thread th;
	struct pa_ring r;
	size_t fl;
	ssize_t n;
	int fd, nrec = 0;

	psz = (size_t)sysconf(_SC_PAGESIZE);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_GT(n, 0);
	exe[n] = 0;
	fl = ((size_t)n + 1 + 7) & ~(size_t)7;
	efd = ASSERT_OK(open(exe, O_RDONLY));
	res = mmap(NULL, 3 * psz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(res != MAP_FAILED);
	pa_thread_start(&th, NULL, do_mmap, NULL);
	attr.disabled = 0;
	attr.mmap = 1;
	fd = ASSERT_OPEN(&attr, th.tid, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_thread_run(&th);
	ASSERT_TRUE(map == res + psz);
	while ((h = pa_ring_find(&r, PERF_RECORD_MMAP))) {
		m = (const struct pa_mmap_rec *)h;
		nrec++;
		EXPECT_EQ(h->misc, PERF_RECORD_MISC_USER);
		ASSERT_EQ((size_t)h->size, sizeof(*m) + fl);
		EXPECT_EQ(m->pid, (uint32_t)getpid());
		EXPECT_EQ(m->tid, (uint32_t)th.tid);
		EXPECT_EQ(m->addr, (uint64_t)(uintptr_t)map);
		EXPECT_EQ(m->len, (uint64_t)psz);
		EXPECT_EQ(m->pgoff, (uint64_t)psz);
		EXPECT_TRUE(strcmp(m->filename, exe) == 0);
		for (size_t i = (size_t)n; i < fl; i++)
			EXPECT_EQ(m->filename[i], 0);
	}
	EXPECT_EQ(nrec, 1);
	close(fd);
}
