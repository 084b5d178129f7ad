#include "perfabi.h"

#include <stdatomic.h>
#include <sys/ioctl.h>

/*
 * 321027c1fe77: two perf_event_open() calls that each add a hardware event
 * to the same pure software group both decided on move_group before
 * taking the context locks; the first moved the group to the hardware
 * context, the second then installed its event against the group's old
 * context (a sibling whose ctx is not the leader's: use-after-free). The
 * fix rechecks the group under the locks: a group that is no longer pure
 * software is joined without a move.
 *
 * Each round two threads, released together, open one hardware event
 * each (for the main thread, same settings) into a fresh software group
 * of the main thread. Both opens
 * succeed, and the leader's group read lists exactly the three members,
 * each with its own id.
 */
#define BUDGET_NS	3000000000ull
#define MAX_ROUNDS	20000
#define FMT		(PERF_FORMAT_GROUP | PERF_FORMAT_ID)

static struct perf_event_attr hw = {
	.type = PERF_TYPE_HARDWARE, .size = sizeof(hw),
	.config = PERF_COUNT_HW_INSTRUCTIONS,
	.exclude_kernel = 1, .exclude_hv = 1, .disabled = 1,
};

struct opener {
	atomic_int *go;		/* the round to open in (-1: exit) */
	atomic_int ready;	/* the round this thread waits for */
	atomic_int done;	/* the round it opened in */
	int leader;
	pid_t tid;		/* the main thread: the group's task */
	int fd, err;
};

static void *opener(void *arg)
{
	struct opener *o = arg;
	unsigned spins = 0;
	int seen = 0, r;

	for (;;) {
		atomic_store(&o->ready, seen + 1);
		/* spin, to leave together; yield now and then: the machine
		 * may have fewer CPUs than spinning threads */
		while ((r = atomic_load(o->go)) == seen)
			if (++spins % 256 == 0)
				sched_yield();
		if (r < 0)
			return NULL;
		o->fd = pa_perf_open(&hw, o->tid, -1, o->leader, 0);
		o->err = o->fd < 0 ? errno : 0;
		seen = r;
		atomic_store(&o->done, r);
	}
}

PERFABI_CASE(
	.assertion = "two perf_event_open() calls racing to add a hardware event to the same pure software group both succeed, and the group then reads exactly its three members with their ids; over a bounded stress",
	.ref = "\"perf/core: Fix concurrent sys_perf_event_open() vs. 'move_group' race\" 321027c1fe77 (4.10, CVE-2017-6001): kernel/events/core.c perf_event_open() rechecks group_leader->group_caps & PERF_EV_CAP_SOFTWARE under the ctx locks before move_group",
	.covers = "arg.group_fd read_format.GROUP read_format.ID",
	.fix = { .commit = "321027c1fe77", .subject = "perf/core: Fix concurrent sys_perf_event_open() vs. 'move_group' race", .release = "4.10", .cve = "CVE-2017-6001" },
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.min_cpus = 2,
	.destructive = true,
	.xfail = {
		.from = "4.0",	/* Fixes: f63a8daa5812 "perf: Fix event->ctx locking" */
		.to = "4.10",
		.why = "a second concurrent move_group open installed its event against the software group's old context after the first had moved the group: use-after-free",
		.fix = "321027c1fe77",
	},
	.timeout = 20,
) {
	struct perf_event_attr sw = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	static struct opener o[2];
	static atomic_int go;
	uint64_t t0 = pa_clock_ns(CLOCK_MONOTONIC);
	int rounds = 0, bad = 0;
	pthread_t th[2];

	close(pa_hw_open_or_skip(hw.type, hw.config));
	sw.read_format = FMT;
	for (int i = 0; i < 2; i++) {
		o[i].go = &go;
		o[i].tid = gettid();
		ASSERT_EQ(pthread_create(&th[i], NULL, opener, &o[i]), 0);
	}
	while (rounds < MAX_ROUNDS && pa_clock_ns(CLOCK_MONOTONIC) - t0 < BUDGET_NS) {
		uint64_t ids[3] = { 0 }, buf[1 + 2 * 4] = { 0 };
		int leader = pa_perf_open(&sw, 0, -1, -1, 0);
		ssize_t n;

		if (leader < 0) {
			pa_fail("round %d: leader: %s", rounds, pa_errno_name(errno));
			break;
		}
		ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_ID, &ids[0]));
		rounds++;
		for (int i = 0; i < 2; i++) {
			o[i].leader = leader;
			while (atomic_load(&o[i].ready) != rounds)
				sched_yield();
		}
		atomic_store(&go, rounds);
		for (int i = 0; i < 2; i++)
			while (atomic_load(&o[i].done) != rounds)
				sched_yield();
		for (int i = 0; i < 2; i++) {
			if (o[i].fd < 0) {
				pa_fail("round %d: opener %d: %s", rounds, i,
					pa_errno_name(o[i].err));
				bad++;
			} else {
				ASSERT_OK(ioctl(o[i].fd, PERF_EVENT_IOC_ID, &ids[1 + i]));
			}
		}
		n = read(leader, buf, sizeof(buf));
		if (!bad && (n != 56 || buf[0] != 3)) {
			pa_fail("round %d: group read %zd bytes, nr %llu (want 56, 3)",
				rounds, n, (unsigned long long)buf[0]);
			bad++;
		}
		for (int m = 0; !bad && m < 3; m++) {
			/* ids in order: leader, then the siblings in join order */
			uint64_t id = buf[2 + 2 * m];

			if (m == 0 ? id != ids[0] :
			    (id != ids[1] && id != ids[2]) || id == buf[2 + 2 * (3 - m)]) {
				pa_fail("round %d: member %d has id %llu (leader %llu, joiners %llu %llu)",
					rounds, m, (unsigned long long)id,
					(unsigned long long)ids[0], (unsigned long long)ids[1],
					(unsigned long long)ids[2]);
				bad++;
			}
		}
		for (int i = 0; i < 2; i++)
			if (o[i].fd >= 0)
				close(o[i].fd);
		close(leader);
		if (bad)
			break;
	}
	atomic_store(&go, -1);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	pa_diag("%d rounds of two concurrent joins in %llu ms", rounds,
		(unsigned long long)((pa_clock_ns(CLOCK_MONOTONIC) - t0) / 1000000));
	EXPECT_GT(rounds, 0);
	EXPECT_EQ(bad, 0);
}
