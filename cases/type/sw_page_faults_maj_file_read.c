#include "perfabi.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/vfs.h>

#define PAGES 32

static int disk_file(char *path, size_t len)
{
	static const char *const dirs[] = { "/var/tmp", "/tmp" };
	struct statfs sf;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		int fd;

		/* tmpfs/ramfs pages live in RAM: no I/O, no major fault */
		if (statfs(dirs[i], &sf) || sf.f_type == 0x01021994 ||
		    sf.f_type == (typeof(sf.f_type))0x858458f6)
			continue;
		snprintf(path, len, "%s/perfabi-majfault-XXXXXX", dirs[i]);
		fd = mkstemp(path);
		if (fd >= 0)
			return fd;
	}
	return -1;
}

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_PAGE_FAULTS_MAJ counts faults that needed disk "
		     "I/O: reading a file mapping whose pages were dropped from "
		     "the page cache counts at least one, and at most one per page",
	.ref = "perf_event_open(2), PERF_COUNT_SW_PAGE_FAULTS_MAJ; "
	       "mm/filemap.c filemap_fault() VM_FAULT_MAJOR",
	.covers = "sw.PAGE_FAULTS_MAJ attr.config",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MAJ);
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)PAGES * (size_t)psz;
	unsigned char vec[PAGES];
	char path[128], *buf;
	volatile char *map;
	uint64_t n;
	int ffd, fd;

	ffd = disk_file(path, sizeof(path));
	if (ffd < 0)
		pa_skip("no writable disk-backed directory (/var/tmp, /tmp)");
	unlink(path);
	buf = malloc(len);
	ASSERT_TRUE(buf);
	memset(buf, 0x5a, len);
	ASSERT_EQ(write(ffd, buf, len), (ssize_t)len);
	ASSERT_OK(fsync(ffd));
	ASSERT_EQ(posix_fadvise(ffd, 0, 0, POSIX_FADV_DONTNEED), 0);
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, ffd, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_OK(mincore((void *)map, len, vec));
	for (int i = 0; i < PAGES; i++)
		if (vec[i] & 1)
			pa_skip("the file system kept page %d in the page cache "
				"after POSIX_FADV_DONTNEED", i);

	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < PAGES; i++)
		(void)map[(size_t)i * (size_t)psz];
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &n, 1);
	pa_diag("%llu major faults over %d pages", (unsigned long long)n, PAGES);
	EXPECT_GE(n, 1);
	EXPECT_LE(n, PAGES);
}
