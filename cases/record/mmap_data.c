#include "perfabi.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>

struct mmap_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	char filename[];
};

PERFABI_CASE(
	.assertion = "attr.mmap_data: a non-executable mmap() produces PERF_RECORD_MMAP with PERF_RECORD_MISC_MMAP_DATA set in misc; without mmap_data it produces none",
	.ref = "perf_event_open(2), mmap_data: \"the counterpart of the mmap option, this enables generation of PERF_RECORD_MMAP samples for mmap() calls that do not have PROT_EXEC set\" (2.6.36); PERF_RECORD_MISC_MMAP_DATA",
	.covers = "attr.mmap_data record.MMAP",
	.min_kernel = "2.6.36",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	char exe[PATH_MAX];
	struct pa_ring r, r2;
	ssize_t n;
	void *p;
	int fd, fd2, efd, found = 0;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_GT(n, 0);
	exe[n] = 0;
	efd = ASSERT_OK(open(exe, O_RDONLY));
	attr.disabled = 0;
	attr.mmap = 1;
	fd2 = ASSERT_OPEN(&attr, 0, -1, -1, 0);		/* mmap only */
	pa_ring_map(&r2, fd2, 4);
	attr.mmap_data = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	p = mmap(NULL, (size_t)psz, PROT_READ, MAP_PRIVATE, efd, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	while ((h = pa_ring_find(&r, PERF_RECORD_MMAP))) {
		const struct mmap_rec *m = (const void *)h;

		if (m->addr != (uint64_t)(uintptr_t)p)
			continue;
		found++;
		EXPECT_TRUE(h->misc & PERF_RECORD_MISC_MMAP_DATA);
		EXPECT_TRUE(strcmp(m->filename, exe) == 0);
	}
	EXPECT_EQ(found, 1);
	while ((h = pa_ring_find(&r2, PERF_RECORD_MMAP)))
		EXPECT_NE(((const struct mmap_rec *)h)->addr, (uint64_t)(uintptr_t)p);
}
