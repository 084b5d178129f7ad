#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/wait.h>

/*
 * 4b9ce6719606: a group led by a software event with hardware siblings
 * lives in the hardware PMU's context (move_group). inherit_event() cloned
 * each member into the child's context of its own event->pmu, so in every
 * inherited copy the software leader sat in the software pmu_ctx and the
 * hardware siblings in the hardware one: group_sched_in() then ran the
 * transaction of the wrong PMU, and when the group failed to fit, its
 * rollback made x86_pmu_del() access memory out of bounds.
 *
 * A child process (blocked until everything is open, so no context time
 * passes during the set-up) is watched by an inherited group: task-clock
 * leader, instructions and cycles siblings; and by 16 more inherited
 * hardware events that overcommit the counters, so that the group often
 * fails to fit and is rolled back. The child forks 4 grandchildren that
 * spin 40 ms of CPU each. After it is reaped, each member's totals (its
 * own, plus its inherited copies') show a group that ran as a unit: the
 * siblings' time_enabled and time_running equal the leader's, and the
 * hardware siblings counted when the group ran.
 */
#define KIDS		4
#define KID_MS		40
#define LOAD		16

static const uint64_t load_cfg[] = {
	PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES,
	PERF_COUNT_HW_BRANCH_INSTRUCTIONS, PERF_COUNT_HW_BRANCH_MISSES,
	PERF_COUNT_HW_CACHE_REFERENCES, PERF_COUNT_HW_CACHE_MISSES,
};

static void child(int rfd)
{
	char c;

	if (read(rfd, &c, 1) != 1)
		_exit(2);
	for (int i = 0; i < KIDS; i++) {
		pid_t p = fork();

		if (p < 0)
			_exit(3);
		if (!p) {
			pa_work_cpu_ms(KID_MS);
			_exit(0);
		}
	}
	for (int i = 0; i < KIDS; i++) {
		int st;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			_exit(4);
	}
	_exit(0);
}

/* Wait (at most 10 s) until pid sleeps: blocked in its pipe read(), so
 * its context time stands still while the events are opened. */
static bool wait_asleep(pid_t pid)
{
	char path[64], buf[512], *p;
	uint64_t t0 = pa_clock_ns(CLOCK_MONOTONIC);

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	while (pa_clock_ns(CLOCK_MONOTONIC) - t0 < 10000000000ull) {
		FILE *f = fopen(path, "r");
		size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

		if (f)
			fclose(f);
		buf[n] = 0;
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'S')
			return true;
		pa_sleep_ms(1);
	}
	return false;
}

PERFABI_CASE(
	.assertion = "an inherited group led by a software event with hardware siblings runs as one unit in the children too, even when the counters are overcommitted: after the children exit each sibling's total time_enabled and time_running equal the leader's, and the hardware siblings counted",
	.ref = "\"perf: Make sure to use pmu_ctx->pmu for groups\" 4b9ce6719606 (7.0, CVE-2026-31528; stable 6.18.21, 6.12.80): kernel/events/core.c inherit_event() find_get_pmu_context(parent_event->pmu_ctx->pmu, ...), __perf_event_read() pmu_ctx->pmu",
	.covers = "attr.inherit arg.group_fd read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING hw.INSTRUCTIONS hw.CPU_CYCLES sw.TASK_CLOCK",
	.fix = { .commit = "4b9ce6719606", .subject = "perf: Make sure to use pmu_ctx->pmu for groups", .release = "7.0", .cve = "CVE-2026-31528", .stable = "6.18.21 6.12.80" },
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.destructive = true,
	.xfail = {
		.from = "6.2",	/* Fixes: bd2756811766 "perf: Rewrite core context handling" */
		.to = "7.0",
		.why = "inherit_event() put the inherited software leader and its hardware siblings in different pmu contexts: group_sched_in() used the software PMU's transaction, and a failed group's rollback made x86_pmu_del() access out of bounds",
		.fix = "4b9ce6719606",
		/* 6.12.80: Debian's 6.12 changelog; 6.18.21: the stable review
		 * series "[PATCH 6.18 005/309]" (not in a Debian changelog) */
		.fixed_in = "6.18.21 6.12.80",
	},
	.timeout = 20,
) {
	struct perf_event_attr sw = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_event_attr hw = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(hw),
		.exclude_kernel = 1, .exclude_hv = 1, .inherit = 1,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	const uint64_t sib_cfg[2] = { PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES };
	int pfd[2], fds[3], load[LOAD], nload = 0, st;
	uint64_t v[3][3];
	pid_t pid;

	close(pa_hw_open_or_skip(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS));
	close(pa_hw_open_or_skip(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES));
	ASSERT_OK(pipe(pfd));
	pid = ASSERT_OK(fork());
	if (!pid) {
		close(pfd[1]);
		child(pfd[0]);
	}
	close(pfd[0]);
	ASSERT_TRUE(wait_asleep(pid));

	sw.disabled = 0;
	sw.inherit = 1;
	sw.read_format = hw.read_format;
	fds[0] = ASSERT_OPEN(&sw, pid, -1, -1, 0);
	for (int i = 0; i < 2; i++) {
		hw.config = sib_cfg[i];
		fds[1 + i] = ASSERT_OPEN(&hw, pid, -1, fds[0], 0);
	}
	/* the load: more hardware events than counters, each its own group */
	for (int i = 0; i < LOAD; i++) {
		hw.config = load_cfg[i % (sizeof(load_cfg) / sizeof(load_cfg[0]))];
		load[nload] = pa_perf_open(&hw, pid, -1, -1, 0);
		if (load[nload] >= 0)
			nload++;
	}
	ASSERT_EQ(write(pfd[1], "g", 1), 1);
	close(pfd[1]);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	for (int i = 0; i < 3; i++)
		pa_read_u64(fds[i], v[i], 3);
	pa_diag("leader %llu ns, enabled %llu running %llu; instructions %llu, %llu/%llu; cycles %llu, %llu/%llu; %d load events",
		(unsigned long long)v[0][0], (unsigned long long)v[0][1],
		(unsigned long long)v[0][2], (unsigned long long)v[1][0],
		(unsigned long long)v[1][1], (unsigned long long)v[1][2],
		(unsigned long long)v[2][0], (unsigned long long)v[2][1],
		(unsigned long long)v[2][2], nload);
	/* the grandchildren alone ran KIDS * KID_MS ms */
	EXPECT_GE(v[0][1], PA_WORKED_NS_MIN(KIDS * KID_MS));
	for (int i = 1; i < 3; i++) {
		EXPECT_EQ(v[i][1], v[0][1]);
		EXPECT_EQ(v[i][2], v[0][2]);
		if (v[0][2] >= 1000000)
			EXPECT_GT(v[i][0], 0);
	}
	for (int i = 0; i < nload; i++)
		close(load[i]);
	for (int i = 0; i < 3; i++)
		close(fds[i]);
}
