#include "perfabi.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/syscall.h>

struct mmap_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	char filename[];
};

PERFABI_CASE(
	.assertion = "attr.mmap: an executable mmap() of a file by the monitored task produces PERF_RECORD_MMAP {pid, tid, addr, len, pgoff (bytes), filename}",
	.ref = "perf_event_open(2), mmap: \"enables generation of PERF_RECORD_MMAP samples for every mmap() call that has PROT_EXEC set\"; PERF_RECORD_MMAP layout",
	.covers = "record.MMAP attr.mmap sw.DUMMY",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	const struct mmap_rec *m = NULL;
	char exe[PATH_MAX];
	struct pa_ring r;
	ssize_t n;
	void *p;
	int fd, efd;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_GT(n, 0);
	exe[n] = 0;
	efd = ASSERT_OK(open(exe, O_RDONLY));
	attr.disabled = 0;
	attr.mmap = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	p = mmap(NULL, (size_t)psz, PROT_READ | PROT_EXEC, MAP_PRIVATE, efd, psz);
	ASSERT_TRUE(p != MAP_FAILED);
	while ((h = pa_ring_find(&r, PERF_RECORD_MMAP))) {
		m = (const struct mmap_rec *)h;
		if (m->addr == (uint64_t)(uintptr_t)p)
			break;
	}
	ASSERT_TRUE(h != NULL);
	EXPECT_EQ(m->pid, (uint32_t)getpid());
	EXPECT_EQ(m->tid, (uint32_t)syscall(SYS_gettid));
	EXPECT_EQ(m->len, (uint64_t)psz);
	EXPECT_EQ(m->pgoff, (uint64_t)psz);
	EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
	EXPECT_TRUE(strnlen(m->filename, h->size - sizeof(*m)) < h->size - sizeof(*m));
	EXPECT_TRUE(strcmp(m->filename, exe) == 0);
	EXPECT_EQ(h->size % 8, 0u);
}
