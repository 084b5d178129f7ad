#include "perfabi.h"

#include <stdatomic.h>
#include <sys/ioctl.h>

/*
 * f63a8daa5812: when a hardware event joins a pure software group,
 * perf_event_open() moves the whole group to the hardware context
 * (move_group) and so changes event->ctx of every software member. The
 * ioctl()s and read() of those members took event->ctx->mutex without
 * checking that the ctx had not changed under them, so they ran against
 * the old context, unlocked (use-after-free of the old ctx). The fix:
 * perf_event_ctx_lock() rechecks event->ctx after taking its mutex.
 *
 * Each round builds a software group (task-clock leader, page-fault
 * sibling) and lets a worker thread ENABLE/DISABLE/RESET/read its two
 * members without pause while the main thread opens a hardware event into
 * the group. Every call must succeed, every group read must be whole (2 or
 * 3 members, each id one of the members'), and after the move the group
 * reads 3 members.
 */
#define BUDGET_NS	3000000000ull
#define MAX_ROUNDS	20000
#define FMT		(PERF_FORMAT_GROUP | PERF_FORMAT_ID)

struct shared {
	atomic_int round;	/* the worker works on this round's fds */
	atomic_int stop;	/* stop this round (-1: exit) */
	atomic_int acked;	/* the last round the worker left */
	int leader, sib;
	uint64_t ids[3];	/* leader, sibling, hardware event (0 until open) */
	uint64_t early;		/* the hardware event's id, seen before its open returned */
	long calls, bad;
	char why[160];
};

/*
 * Member i of a group read: the leader, the page-fault sibling, then the
 * hardware event. That one is in the group before its open() returns its
 * fd (and so its id): an id seen before then is kept and checked after.
 */
static bool id_right(struct shared *s, uint64_t i, uint64_t id)
{
	uint64_t hw;

	if (i < 2)
		return id == s->ids[i];
	hw = __atomic_load_n(&s->ids[2], __ATOMIC_ACQUIRE);
	if (hw)
		return id == hw;
	if (!s->early)
		s->early = id;
	return id && id == s->early;
}

static void worker_fail(struct shared *s, const char *what, int err)
{
	if (!s->bad++)
		snprintf(s->why, sizeof(s->why), "round %d: %s: %s",
			 atomic_load(&s->round), what, pa_errno_name(err));
}

static void *worker(void *arg)
{
	struct shared *s = arg;
	int seen = 0;

	for (;;) {
		int r;

		while ((r = atomic_load(&s->round)) == seen)
			if (atomic_load(&s->stop) < 0)
				return NULL;
		if (r < 0)
			return NULL;
		while (!atomic_load(&s->stop)) {
			uint64_t buf[1 + 2 * 3];
			ssize_t n;
			int fd = s->calls & 1 ? s->sib : s->leader;

			if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
				worker_fail(s, "DISABLE", errno);
			if (ioctl(fd, PERF_EVENT_IOC_RESET, 0))
				worker_fail(s, "RESET", errno);
			if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
				worker_fail(s, "ENABLE", errno);
			n = read(s->leader, buf, sizeof(buf));
			if (n < 0) {
				worker_fail(s, "read", errno);
			} else if ((n != 40 && n != 56) ||
				   (size_t)n != 8 + 16 * buf[0]) {
				if (!s->bad++)
					snprintf(s->why, sizeof(s->why),
						 "round %d: group read of %zd bytes, nr %llu",
						 r, n, (unsigned long long)buf[0]);
			} else {
				for (uint64_t i = 0; i < buf[0]; i++)
					if (!id_right(s, i, buf[2 + 2 * i]) && !s->bad++)
						snprintf(s->why, sizeof(s->why),
							 "round %d: member %llu has id %llu, not its own",
							 r, (unsigned long long)i,
							 (unsigned long long)buf[2 + 2 * i]);
			}
			s->calls++;
		}
		seen = r;
		atomic_store(&s->acked, r);
	}
}

PERFABI_CASE(
	.assertion = "ioctl()s and read()s on the members of a software group, racing the perf_event_open() that moves the group to the hardware context, all succeed and see a whole group (2 members before the move, 3 after, with their own ids), over a bounded stress",
	.ref = "\"perf: Fix event->ctx locking\" f63a8daa5812 (4.0, CVE-2016-6786, CVE-2016-6787): kernel/events/core.c perf_event_ctx_lock() rechecks event->ctx after taking ctx->mutex, against perf_event_open()'s move_group",
	.covers = "arg.group_fd ioctl.ENABLE ioctl.DISABLE ioctl.RESET read_format.GROUP read_format.ID",
	.fix = { .commit = "f63a8daa5812", .subject = "perf: Fix event->ctx locking", .release = "4.0", .cve = "CVE-2016-6786" },
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.min_cpus = 2,
	.destructive = true,
	.xfail = {
		.from = "2.6.37",	/* b04243ef7006 "perf: Complete software pmu grouping": move_group */
		.to = "4.0",
		.why = "ioctl/read locked the software event's old ctx while move_group changed event->ctx: use-after-free of the old context",
		.fix = "f63a8daa5812",
	},
	.timeout = 20,
) {
	struct perf_event_attr sw = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_event_attr pf = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr hw = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(hw),
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_kernel = 1, .exclude_hv = 1,
	};
	static struct shared s;
	uint64_t t0 = pa_clock_ns(CLOCK_MONOTONIC);
	int rounds = 0, bad = 0;
	pthread_t th;

	close(pa_hw_open_or_skip(hw.type, hw.config));
	sw.read_format = FMT;
	pf.read_format = FMT;
	ASSERT_EQ(pthread_create(&th, NULL, worker, &s), 0);
	while (rounds < MAX_ROUNDS && pa_clock_ns(CLOCK_MONOTONIC) - t0 < BUDGET_NS) {
		uint64_t buf[1 + 2 * 3] = { 0 };
		int hfd, herr;

		s.leader = pa_perf_open(&sw, 0, -1, -1, 0);
		s.sib = s.leader < 0 ? -1 : pa_perf_open(&pf, 0, -1, s.leader, 0);
		if (s.leader < 0 || s.sib < 0) {
			pa_fail("round %d: software group: %s", rounds, pa_errno_name(errno));
			break;
		}
		ASSERT_OK(ioctl(s.leader, PERF_EVENT_IOC_ID, &s.ids[0]));
		ASSERT_OK(ioctl(s.sib, PERF_EVENT_IOC_ID, &s.ids[1]));
		__atomic_store_n(&s.ids[2], 0, __ATOMIC_RELEASE);
		s.early = 0;
		atomic_store(&s.stop, 0);
		atomic_store(&s.round, ++rounds);
		/* a varying head start for the worker, to sweep the window */
		for (volatile unsigned d = 0; d < (rounds * 53u) % 2048u; d++)
			;
		hfd = pa_perf_open(&hw, 0, -1, s.leader, 0);
		herr = errno;
		if (hfd >= 0) {
			uint64_t id = 0;

			ASSERT_OK(ioctl(hfd, PERF_EVENT_IOC_ID, &id));
			__atomic_store_n(&s.ids[2], id, __ATOMIC_RELEASE);
		}
		pa_work_cpu_ms(1);
		atomic_store(&s.stop, 1);
		while (atomic_load(&s.acked) != rounds)
			sched_yield();
		if (hfd < 0) {
			pa_fail("round %d: the hardware event could not join: %s",
				rounds, pa_errno_name(herr));
			bad++;
		} else if (s.early && s.early != s.ids[2]) {
			pa_fail("round %d: the group listed id %llu for the joining event, whose id is %llu",
				rounds, (unsigned long long)s.early,
				(unsigned long long)s.ids[2]);
			bad++;
		} else if (read(s.leader, buf, sizeof(buf)) != 56 || buf[0] != 3) {
			pa_fail("round %d: after the move the group reads nr %llu",
				rounds, (unsigned long long)buf[0]);
			bad++;
		}
		if (hfd >= 0)
			close(hfd);
		close(s.sib);
		close(s.leader);
		if (bad || s.bad)
			break;
	}
	atomic_store(&s.stop, -1);
	atomic_store(&s.round, -1);
	pthread_join(th, NULL);
	if (s.bad)
		pa_fail("worker: %s (%ld bad calls)", s.why, s.bad);
	pa_diag("%d moves against %ld worker ioctl/read rounds in %llu ms", rounds,
		s.calls, (unsigned long long)((pa_clock_ns(CLOCK_MONOTONIC) - t0) / 1000000));
	EXPECT_GT(rounds, 0);
	EXPECT_EQ(s.bad, 0);
	EXPECT_EQ(bad, 0);
}
