#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>

/*
 * A reader blocked in poll() on a sampling event is woken when the wakeup
 * threshold is reached, and once it has consumed the data (data_tail moved
 * up to data_head) a new poll() blocks again until the next threshold.
 *
 * The event samples the page faults of a child (period 1, wakeup_events =
 * N). The child waits for a go byte, waits (bounded, best effort) until this
 * process is asleep, so that the poll() really blocks, then takes N faults.
 * Round 1: poll(-1 bounded at 10 s) must return POLLIN with at least N
 * samples in the ring; the case consumes them; poll() with a 100 ms timeout
 * must then time out (0). Round 2 the same, at 2N samples in all.
 * The child runs its code paths once before the event is opened, so that
 * its own copy-on-write faults are not sampled.
 */
#define N 8
#define WAIT_MS 10000

static int go[2], done[2];

static uint64_t mono_ms(void)
{
	return pa_clock_ns(CLOCK_MONOTONIC) / 1000000u;
}

/* Is the parent asleep ('S' in /proc/<ppid>/stat)? */
static bool parent_sleeping(void)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)getppid());
	f = open(path, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return false;
	n = read(f, buf, sizeof(buf) - 1);
	close(f);
	if (n <= 0)
		return false;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

static void child(void)
{
	uint64_t end;
	bool asleep;
	char c;

	close(go[1]);
	close(done[0]);
	/* warm up: the code and data pages the rounds use */
	(void)parent_sleeping();
	(void)mono_ms();
	pa_touch_pages(N);
	if (write(done[1], "r", 1) != 1)
		_exit(1);
	while (read(go[0], &c, 1) == 1) {
		end = mono_ms() + 2000;
		while (!(asleep = parent_sleeping()) && mono_ms() < end)
			sched_yield();
		pa_touch_pages(N);
		if (write(done[1], asleep ? "s" : "n", 1) != 1)
			_exit(1);
	}
	_exit(0);
}

PERFABI_CASE(
	.assertion = "a poll() blocked on a sampling event returns POLLIN when wakeup_events samples were written (by another process), "
		     "and after the reader consumed the data a new poll() blocks again (times out) until the next N samples",
	.ref = "perf_event_open(2), Overflow handling: \"Overflow conditions can be captured by monitoring the event file descriptor with poll(2)\"; "
	       "MMAP layout data_tail; kernel/events/core.c perf_poll() (atomic_xchg of rb->poll), perf_event_wakeup()",
	.covers = "fd.poll attr.wakeup_events mmap.data_tail",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pollfd p;
	struct pa_ring r;
	uint64_t rec, t0;
	pid_t pid;
	int fd, n, samples = 0;
	char c;

	ASSERT_OK(pipe(go));
	ASSERT_OK(pipe(done));
	pid = ASSERT_OK(fork());
	if (pid == 0)
		child();
	ASSERT_EQ(read(done[0], &c, 1), 1);

	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = N;
	rec = pa_sample_size(&attr, NULL);
	fd = ASSERT_OPEN(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	ASSERT_LT(2 * N * rec, r.data_size / 2);	/* the byte watermark stays away */
	p.fd = fd;
	p.events = POLLIN;
	p.revents = 0;
	EXPECT_EQ(poll(&p, 1, 0), 0);

	for (int round = 1; round <= 2; round++) {
		ASSERT_EQ(write(go[1], "g", 1), 1);
		t0 = mono_ms();
		p.revents = 0;
		n = poll(&p, 1, WAIT_MS);
		if (n == 0) {
			pa_fail("round %d: poll() did not return within %d ms while the child took %d sampled faults",
				round, WAIT_MS, N);
			pa_abort();
		}
		ASSERT_EQ(n, 1);
		EXPECT_EQ(p.revents, POLLIN);
		/* not woken before N samples (in all, round * N) were written */
		EXPECT_GE(pa_ring_head(&r), round * N * rec);
		ASSERT_EQ(read(done[0], &c, 1), 1);	/* the child is done */
		pa_diag("round %d: poll returned after %llu ms, %llu bytes in the ring; "
			"the child %s this process asleep before its faults",
			round, (unsigned long long)(mono_ms() - t0),
			(unsigned long long)pa_ring_head(&r), c == 's' ? "saw" : "did not see");
		samples += pa_ring_count(&r, PERF_RECORD_SAMPLE);
		EXPECT_EQ(r.tail, pa_ring_head(&r));	/* consumed */
		/* nothing new: a poll blocks again, until its timeout */
		p.revents = 0;
		EXPECT_EQ(poll(&p, 1, 100), 0);
		EXPECT_EQ(p.revents, 0);
	}
	EXPECT_GE(samples, 2 * N);
	close(go[1]);
	waitpid(pid, NULL, 0);
	pa_ring_unmap(&r);
	close(fd);
}
