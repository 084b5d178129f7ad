#include "perfabi.h"

#include <poll.h>
#include <sys/wait.h>

/*
 * "Starting with Linux 3.18, POLL_HUP is indicated if the event being
 * monitored is attached to a different process and that process exits."
 * An event on a child (pid > 0, with a one-page ring so that poll() has a
 * state to report) is not readable while the child lives; when it exits,
 * perf_event_exit_event() wakes the poller (perf_event_wakeup()) and
 * perf_poll() reports EPOLLHUP (is_event_hup(): state EXIT, no children).
 * The poll() waiting for it is bounded at 10 s.
 */
PERFABI_CASE(
	.assertion = "poll() on an event attached to another process (pid > 0) returns POLLHUP, and nothing else, when that process exits; "
		     "before, it is not readable",
	.ref = "perf_event_open(2), Overflow handling: \"Starting with Linux 3.18, POLL_HUP is indicated if the event being monitored is attached to "
	       "a different process and that process exits\"; kernel/events/core.c perf_event_exit_event(), perf_poll(), is_event_hup()",
	.covers = "fd.poll arg.pid",
	.min_kernel = "3.18",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int go[2], status, fd, n;
	struct pollfd p;
	struct pa_ring r;
	pid_t pid;
	char c;

	ASSERT_OK(pipe(go));
	pid = ASSERT_OK(fork());
	if (pid == 0) {
		close(go[1]);
		/* live until told (or until the pipe closes), then exit */
		if (read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	attr.disabled = 0;
	fd = ASSERT_OPEN(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	p.fd = fd;
	p.events = POLLIN;
	p.revents = 0;
	EXPECT_EQ(poll(&p, 1, 0), 0);		/* the child lives */
	ASSERT_EQ(write(go[1], "x", 1), 1);
	p.revents = 0;
	n = poll(&p, 1, 10000);
	if (n == 0) {
		pa_fail("poll() did not return within 10 s of the target's exit");
		pa_abort();
	}
	ASSERT_EQ(n, 1);
	pa_diag("revents at the target's exit: %#x", p.revents);
	EXPECT_EQ(p.revents, POLLHUP);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* and it stays so */
	p.revents = 0;
	EXPECT_EQ(poll(&p, 1, 0), 1);
	EXPECT_EQ(p.revents, POLLHUP);
	pa_ring_unmap(&r);
	close(fd);
	close(go[1]);
}
