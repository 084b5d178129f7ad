#include "perfabi.h"

#include <poll.h>
#include <sched.h>
#include <sys/wait.h>
#include <time.h>

PERFABI_CASE(
	.assertion = "poll() on an event attached to another process reports "
		     "POLLHUP once that process exits: not before (a counting event "
		     "with a ring buffer has nothing to report), a poll() already "
		     "waiting is woken by the exit, and POLLHUP stays after the reap",
	.ref = "perf_event_open(2), Overflow handling: \"Starting with Linux 3.18, "
	       "POLLHUP is indicated if the event being monitored is attached to a "
	       "different process and that process exits\"; kernel/events/core.c "
	       "perf_poll() is_event_hup(), perf_event_exit_event() wakeup",
	.covers = "fd.poll arg.pid mmap.size",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int ready[2], go[2], fd;
	struct pa_ring ring;
	struct pollfd p;
	char c = 'g';
	pid_t pid;

	ASSERT_OK(pipe(ready));
	ASSERT_OK(pipe(go));
	pid = fork();
	ASSERT_NE(pid, -1);
	if (pid == 0) {
		uint64_t end;

		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		/* exit once the parent sleeps in poll(), so the exit wakes it
		 * (a parent not yet asleep after 5 s: exit anyway) */
		end = pa_clock_ns(CLOCK_MONOTONIC) + 5000000000ull;
		while (pa_task_state(getppid(), 0, NULL) != 'S' &&
		       pa_clock_ns(CLOCK_MONOTONIC) < end)
			sched_yield();
		_exit(0);
	}
	ASSERT_EQ(read(ready[0], &c, 1), 1);
	attr.disabled = 0;
	fd = ASSERT_OPEN(&attr, pid, -1, -1, 0);
	/* without a ring perf_poll() answers POLLHUP at once: map one */
	pa_ring_map(&ring, fd, 1);
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	EXPECT_EQ(poll(&p, 1, 0), 0);		/* alive: nothing */
	EXPECT_EQ(p.revents, 0);
	ASSERT_EQ(write(go[1], &c, 1), 1);
	p.revents = 0;
	EXPECT_EQ(poll(&p, 1, 5000), 1);	/* woken by the exit */
	EXPECT_EQ(p.revents, POLLHUP);
	ASSERT_EQ(waitpid(pid, NULL, 0), pid);
	p.revents = 0;
	EXPECT_EQ(poll(&p, 1, 0), 1);
	EXPECT_EQ(p.revents, POLLHUP);
	pa_ring_unmap(&ring);
	close(fd);
}
