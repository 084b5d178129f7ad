// SPDX-License-Identifier: GPL-2.0
/* perf_event_open() helpers for case bodies. */
#include "internal.h"

#include <limits.h>
#include <sys/mman.h>
#include <sys/syscall.h>

int pa_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		 int group_fd, unsigned long flags)
{
	int fd = (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);

	if (fd >= 0 && pid == -1 && !(flags & PERF_FLAG_PID_CGROUP))
		pa_note_global("opened a CPU-wide event");
	return fd;
}

struct perf_event_attr pa_sw_attr(uint64_t config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = config;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return a;
}

struct perf_event_attr pa_sw_sampling_attr(uint64_t config, uint64_t period)
{
	struct perf_event_attr a = pa_sw_attr(config);

	a.disabled = 0;
	a.sample_period = period;
	return a;
}

int pa_open_expect(struct perf_event_attr *attr, pid_t pid, int cpu,
		   int group_fd, unsigned long flags, int want_errno,
		   const char *file, int line)
{
	int fd, err;

	pa_checked();
	errno = 0;
	fd = pa_perf_open(attr, pid, cpu, group_fd, flags);
	err = errno;
	if (want_errno == 0) {
		if (fd < 0)
			pa_fail("%s:%d: perf_event_open(type=%u config=%#llx, pid=%d, cpu=%d, group_fd=%d, flags=%#lx) failed with %s, expected an fd",
				file, line, attr->type, (unsigned long long)attr->config,
				(int)pid, cpu, group_fd, flags, pa_errno_name(err));
		return fd;
	}
	if (fd >= 0) {
		pa_fail("%s:%d: perf_event_open(type=%u config=%#llx, pid=%d, cpu=%d, group_fd=%d, flags=%#lx) returned fd %d, expected %s",
			file, line, attr->type, (unsigned long long)attr->config,
			(int)pid, cpu, group_fd, flags, fd, pa_errno_name(want_errno));
		close(fd);
		return -1;
	}
	if (err != want_errno) {
		pa_fail("%s:%d: perf_event_open(type=%u config=%#llx, pid=%d, cpu=%d, group_fd=%d, flags=%#lx) failed with %s, expected %s",
			file, line, attr->type, (unsigned long long)attr->config,
			(int)pid, cpu, group_fd, flags, pa_errno_name(err),
			pa_errno_name(want_errno));
		return -1;
	}
	return -2;
}

void pa_read_u64(int fd, uint64_t *buf, size_t n)
{
	ssize_t want = (ssize_t)(n * sizeof(uint64_t));
	ssize_t got = read(fd, buf, (size_t)want);

	if (got != want) {
		pa_fail("read(fd %d, %zd bytes) returned %zd (%s)", fd, want, got,
			got < 0 ? pa_errno_name(errno) : "short read");
		pa_abort();
	}
}

void pa_touch_pages(int pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)pages * (size_t)psz;
	volatile char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		pa_fail("mmap of %d pages failed: %s", pages, pa_errno_name(errno));
		pa_abort();
	}
	/* one fault per page: where THP is "always", a 2 MiB-aligned range
	 * would otherwise take a single huge-page fault (seen on 6.12) */
	madvise((void *)p, len, MADV_NOHUGEPAGE);
	for (int i = 0; i < pages; i++)
		p[(size_t)i * (size_t)psz] = 1;
	munmap((void *)p, len);
}

const char *pa_fixture(const char *name)
{
	static char path[PATH_MAX + 64];
	char self[PATH_MAX], usual[PATH_MAX + 64] = "";
	const char *env = getenv("PERFABI_FIXTURES");
	ssize_t n;
	char *slash;

	if (env) {
		snprintf(path, sizeof(path), "%s/%s", env, name);
		return path;
	}
	/* build/cases/perfabi-cases -> build/fixtures/<name>; a case binary
	 * that is a copy or hard link (build/cases/<area>/<case>): one more up */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		snprintf(path, sizeof(path), "fixtures/%s", name);
		return path;
	}
	self[n] = 0;
	for (int up = 1; up <= 3 && (slash = strrchr(self, '/')); up++) {
		*slash = 0;
		snprintf(path, sizeof(path), "%s/fixtures/%s", self, name);
		if (up <= 2)	/* the usual place, for the caller's error */
			snprintf(usual, sizeof(usual), "%s", path);
		if (up >= 2 && !access(path, F_OK))
			return path;
	}
	/* none there: the usual place, for the caller's error to name */
	snprintf(path, sizeof(path), "%s", usual);
	return path;
}

/*
 * sizeof(struct perf_event_attr) of the running kernel: the value it writes
 * back into attr.size on E2BIG. Each PERF_ATTR_SIZE_VER* arrived with a
 * field (abi-timeline: VER5 aux_watermark 4.1, VER6 aux_sample_size 5.5,
 * VER7 sig_data 5.13, VER8 config3 6.3, VER9 config4 6.19).
 */
uint32_t pa_kernel_attr_size(void)
{
	static const struct { const char *since; uint32_t size; } sizes[] = {
		{ "6.19", PERF_ATTR_SIZE_VER9 }, { "6.3", PERF_ATTR_SIZE_VER8 },
		{ "5.13", PERF_ATTR_SIZE_VER7 }, { "5.5", PERF_ATTR_SIZE_VER6 },
		{ "4.1", PERF_ATTR_SIZE_VER5 }, { "3.19", PERF_ATTR_SIZE_VER4 },
		{ "3.7", PERF_ATTR_SIZE_VER3 }, { "3.4", PERF_ATTR_SIZE_VER2 },
		{ "2.6.33", PERF_ATTR_SIZE_VER1 },
	};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (pa_kernel_at_least(sizes[i].since))
			return sizes[i].size;
	return PERF_ATTR_SIZE_VER0;
}
