// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware counting helpers for the hw/ cases that check exact counts on a
 * PMU that counts every retired instruction (QEMU -icount shift=0, one
 * vCPU: PERFABI_PMU_EXACT=1): opening an attr of one's own, counting a
 * group over pa_loop3(), and counting what a forked child adds to an
 * inherited counter. Each measurement is one run of the same code with
 * only the loop's length changed, so that the user instructions around
 * the loop cancel out of a difference of two runs.
 */
#include "internal.h"

#include <sys/ioctl.h>
#include <sys/wait.h>

struct perf_event_attr pa_hw_attr(uint64_t config)
{
	struct perf_event_attr a = pa_sw_attr(config);

	a.type = PERF_TYPE_HARDWARE;
	return a;
}

int pa_hw_open_attr(struct perf_event_attr *a, pid_t pid, int cpu, int group)
{
	int fd;

	/* through pa_hw_open_or_skip() first: its SKIP where the generic
	 * event is not supported, its CPU pinning on hybrid x86 */
	if (a->type == PERF_TYPE_HARDWARE && !(a->config >> 32))
		close(pa_hw_open_or_skip(PERF_TYPE_HARDWARE, a->config));
	errno = 0;
	fd = pa_perf_open(a, pid, cpu, group, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		return fd;
	if (errno == ENOENT || errno == EOPNOTSUPP)
		pa_skip("the PMU does not support type %u config %#llx (%s)", a->type,
			(unsigned long long)a->config, pa_errno_name(errno));
	pa_fail("perf_event_open(type %u, config %#llx, pid %d, cpu %d, group %d) failed with %s",
		a->type, (unsigned long long)a->config, (int)pid, cpu, group, pa_errno_name(errno));
	pa_abort();
}

void pa_hw_group_loop(int leader, uint64_t k, uint64_t *v, unsigned n)
{
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(k);
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	pa_hw_read_group(leader, v, n, true);
}

void pa_loop3_int(int k)
{
	pa_loop3((uint64_t)k);
}

uint64_t pa_hw_fork_count(int fd, uint64_t k)
{
	int status;
	pid_t pid;

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pid = fork();
	if (pid == 0) {
		pa_loop3(k);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		pa_fail("fork/waitpid: %s", pa_errno_name(errno));
		pa_abort();
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		pa_fail("the child did not exit with 0 (status %#x)", status);
		pa_abort();
	}
	return pa_read_one(fd);
}

uint64_t pa_hw_fork_delta(int fd, uint64_t k)
{
	uint64_t one, two;

	pa_loop3(1);	/* SKIP where there is no loop */
	(void)pa_hw_fork_count(fd, 1);	/* the same path once before */
	one = pa_hw_fork_count(fd, k);
	two = pa_hw_fork_count(fd, 2 * k);
	pa_diag("%llu counted with a child of %llu iterations, %llu with one of %llu",
		(unsigned long long)one, (unsigned long long)k,
		(unsigned long long)two, (unsigned long long)(2 * k));
	return two - one;
}
