#include "perfabi.h"

#include <grp.h>
#include <sys/wait.h>

/*
 * perf_event_paranoid is consulted by perf_event_open() (perf_allow_kernel()
 * and friends) and nowhere on the paths that count into an open event. So
 * raising it does not touch events already open: an unprivileged task that
 * opened a page-fault counter with exclude_kernel clear at level 1 keeps
 * counting the faults it takes in kernel mode after root raised the level
 * to 2, where the same open now fails with EACCES. The child is uid 65534
 * without capabilities (setresuid() from root clears them); read() of
 * /dev/zero into 64 fresh pages makes exactly 64 kernel-mode faults, one
 * per fresh page, and nothing else faults: the same read ran once before,
 * so its code and stack are mapped.
 */
struct report {
	int open_errno;		/* of the first open, at level 1 */
	int reopen_errno;	/* of the same open at level 2 (0: it opened) */
	uint64_t delta;		/* what the first fd counted at level 2 */
};

static void child(int tell, int wait_fd)
{
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct report rep = { 0, 0, 0 };
	uint64_t before;
	char c;
	int fd, fd2;

	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534))
		_exit(3);
	attr.disabled = 0;
	attr.exclude_kernel = 0;
	fd = pa_perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	rep.open_errno = fd < 0 ? errno : 0;
	if (write(tell, &rep, sizeof(rep)) != (ssize_t)sizeof(rep) || fd < 0)
		_exit(0);
	if (read(wait_fd, &c, 1) != 1)	/* root raised the level */
		_exit(4);
	fd2 = pa_perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	rep.reopen_errno = fd2 < 0 ? errno : 0;
	pa_kernel_faults(1);	/* fault in the code first */
	before = pa_read_one(fd);
	pa_kernel_faults(64);
	rep.delta = pa_read_one(fd) - before;
	if (write(tell, &rep, sizeof(rep)) != (ssize_t)sizeof(rep))
		_exit(5);
	_exit(0);
}

PERFABI_CASE(
	.assertion = "raising perf_event_paranoid does not affect events already "
		     "open: a counter with exclude_kernel clear that an unprivileged "
		     "task opened at level 1 still counts its 64 kernel-mode page "
		     "faults (exactly 64) after the level went to 2, where the same "
		     "open now fails with EACCES",
	.ref = "perf_event_open(2), /proc/sys/kernel/perf_event_paranoid; "
	       "kernel/events/core.c perf_event_open() perf_allow_kernel() (the "
	       "only reader of the level on this path)",
	.alone = true,
	.covers = "sysctl.perf_event_paranoid attr.exclude_kernel errno.EACCES",
	.root = true,
) {
	int up[2], down[2], st;
	struct report rep;
	pid_t pid;
	char c = 'g';

	ASSERT_OK(pa_sysctl_write("kernel/perf_event_paranoid", "1"));
	ASSERT_OK(pipe(up));
	ASSERT_OK(pipe(down));
	pid = fork();
	ASSERT_OK(pid);
	if (pid == 0) {
		close(up[0]);
		close(down[1]);
		child(up[1], down[0]);
	}
	close(up[1]);
	close(down[0]);
	ASSERT_EQ(read(up[0], &rep, sizeof(rep)), (ssize_t)sizeof(rep));
	if (rep.open_errno) {
		waitpid(pid, NULL, 0);
		pa_fail("uid 65534 could not open a kernel-counting event at "
			"paranoid 1: %s", pa_errno_name(rep.open_errno));
		pa_abort();
	}
	ASSERT_OK(pa_sysctl_write("kernel/perf_event_paranoid", "2"));
	ASSERT_EQ(write(down[1], &c, 1), 1);
	ASSERT_EQ(read(up[0], &rep, sizeof(rep)), (ssize_t)sizeof(rep));
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	pa_diag("after the raise: a new open fails with %s, the open fd counted "
		"%llu faults", rep.reopen_errno ? pa_errno_name(rep.reopen_errno) :
		"nothing (it opened)", (unsigned long long)rep.delta);
	EXPECT_EQ(rep.reopen_errno, EACCES);
	EXPECT_EQ(rep.delta, 64);
}
