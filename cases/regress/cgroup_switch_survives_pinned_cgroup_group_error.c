#include "perfabi.h"

#include <fcntl.h>
#include <sys/wait.h>

/*
 * 5f4e5ce638e6: perf_cgroup_switch() walked the per-CPU list of contexts
 * that hold cgroup events with list_for_each_entry() while scheduling
 * each one in. A pinned cgroup group that cannot get its counters is put
 * into the error state there (merge_sched_in()), and
 * perf_cgroup_event_disable() unlinks its context from that very list
 * when it was the context's last cgroup event: the walk went on through
 * a poisoned pointer (a GPF, at once). Since the fix the walk is
 * list_for_each_entry_safe().
 *
 * The commit's reproducer, rebuilt: a pinned CPU-wide group A as large as
 * the PMU takes holds the counters of one CPU; a pinned group B of the
 * same size, led by the only hardware cgroup event, waits for a task of
 * the cgroup on that CPU. When one runs there, B cannot be scheduled
 * (A, or whatever made A fail, holds the counters): on a fixed kernel B
 * is in the error state (read() returns 0 bytes) and a software cgroup
 * event S on the same CPU counted the task, so the walk went on.
 */
#define MAX_MEMBERS 64

static struct perf_event_attr hw_attr(bool pinned)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
		.pinned = pinned,
	};
	return a;
}

PERFABI_CASE(
	.assertion = "a pinned cgroup event group that cannot get its hardware counters when a task of its cgroup is switched in goes into the error state (read() returns 0 bytes) and the cgroup switch goes on: a software cgroup event on the same CPU counts the task; the kernel does not oops",
	.ref = "\"perf: Fix list corruption in perf_cgroup_switch()\" 5f4e5ce638e6 (5.17, CVE-2022-48799; stable 5.16.10, 4.19.230, 4.14.267): kernel/events/core.c perf_cgroup_switch() walks cgrp_cpuctx_list with list_for_each_entry_safe(), as merge_sched_in() -> perf_cgroup_event_disable() may unlink the current entry",
	.alone = true,
	.covers = "flag.PID_CGROUP attr.pinned",
	.fix = { .commit = "5f4e5ce638e6", .subject = "perf: Fix list corruption in perf_cgroup_switch()", .release = "5.17", .cve = "CVE-2022-48799", .stable = "5.16.10 4.19.230 4.14.267" },
	.root = true,		/* cgroup events are CPU-wide */
	.hw_pmu = true,
	.features = "cgroup",
	.destructive = true,	/* a GPF in the scheduler path */
	.xfail = {
		.from = "4.9",	/* Fixes: 058fe1c0440e */
		.to = "5.17",
		.why = "perf_cgroup_switch() went on walking cgrp_cpuctx_list through the entry merge_sched_in() had just unlinked (LIST_POISON): a general protection fault",
		.fix = "5f4e5ce638e6",
		/* Debian's changelogs: ChangeLog-5.16.10; 4.19/4.14 from the stable review mails */
		.fixed_in = "5.16.10 4.19.230 4.14.267",
	},
	.timeout = 20,
) {
	struct perf_event_attr attr = hw_attr(true);
	struct perf_event_attr sw = pa_sw_attr(PERF_COUNT_SW_CPU_CLOCK);
	int a[MAX_MEMBERS], b[MAX_MEMBERS], na = 0, nb = 0, s = -1, dfd = -1;
	int go[2] = { -1, -1 }, cpu, st;
	struct pa_cgroup cg;
	uint64_t v = 0;
	char c = 1;
	ssize_t n;
	pid_t pid = -1;

	/* where groups are not limited by counters, no pinned group can be
	 * starved: decided before the loop, not from what it opens */
	if (!pa_pmu_groups_limited())
		pa_skip("how many hardware events fit in one group is not known here for this architecture's PMU");
	/* SKIP where the PMU lacks the generic event (QEMU's PMUv3); on
	 * hybrid x86 this pins the task to a core CPU first */
	close(pa_hw_open_or_skip(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS));
	if (pa_allowed_cpus(&cpu, 1) != 1)
		pa_skip("no CPU in this task's affinity mask");
	ASSERT_OK(pa_pin_cpu(cpu));
	pa_cgroup_new(&cg, "pa-cgsw-", true);
	dfd = open(cg.dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0) {
		pa_fail("open(%s): %s", cg.dir, pa_errno_name(errno));
		goto out;
	}

	/* A: as many members as the PMU validates in one group */
	for (; na < MAX_MEMBERS; na++) {
		attr = hw_attr(na == 0);
		a[na] = pa_perf_open(&attr, -1, cpu, na ? a[0] : -1, 0);
		if (a[na] < 0)
			break;
	}
	if (na == 0) {
		pa_fail("a CPU-wide hardware event on CPU %d: %s", cpu, pa_errno_name(errno));
		goto out;
	}
	if (na == MAX_MEMBERS) {
		/* group validation: group/hw_group_too_big_einval */
		pa_fail("%d hardware events validated in one group: more than any PMU of this architecture has counters",
			MAX_MEMBERS);
		goto out;
	}
	pa_diag("a group of %d branch-instructions events fills the PMU on CPU %d", na, cpu);

	/* B: the cgroup leader (the only hardware cgroup event) and
	 * non-cgroup siblings, opened while no task of cg runs */
	for (; nb < na; nb++) {
		attr = hw_attr(nb == 0);
		b[nb] = nb ? pa_perf_open(&attr, -1, cpu, b[0], 0)
			   : pa_perf_open(&attr, dfd, cpu, -1, PERF_FLAG_PID_CGROUP);
		if (b[nb] < 0) {
			pa_fail("member %d of the cgroup group: %s", nb + 1, pa_errno_name(errno));
			goto out;
		}
	}
	s = pa_perf_open(&sw, dfd, cpu, -1, PERF_FLAG_PID_CGROUP);
	if (s < 0) {
		pa_fail("a cpu-clock cgroup event: %s", pa_errno_name(errno));
		goto out;
	}

	/* a task of cg, on this CPU (inherited affinity), runs 30 ms */
	ASSERT_OK(pipe(go));
	fflush(NULL);
	pid = fork();
	ASSERT_NE(pid, -1);
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		pa_work_cpu_ms(30);
		_exit(0);
	}
	close(go[0]);
	if (pa_cgroup_enter(&cg, pid)) {
		pa_fail("moving %d into %s: %s", (int)pid, cg.dir, pa_errno_name(errno));
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		goto out;
	}
	ASSERT_EQ(write(go[1], &c, 1), 1);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	n = read(b[0], &v, sizeof(v));
	pa_diag("the cgroup group's leader read %zd bytes (value %llu)", n, (unsigned long long)v);
	EXPECT_EQ(n, 0);	/* the error state: end of file */
	v = 0;
	ASSERT_EQ(read(s, &v, sizeof(v)), (ssize_t)sizeof(v));
	pa_diag("the cpu-clock cgroup event counted %llu ns", (unsigned long long)v);
	EXPECT_GT(v, 0);
	n = read(a[0], &v, sizeof(v));
	pa_diag("the CPU-wide group's leader read %zd bytes", n);
out:
	if (go[1] >= 0)
		close(go[1]);
	if (s >= 0)
		close(s);
	while (nb--)
		close(b[nb]);
	while (na-- > 0)
		close(a[na]);
	if (dfd >= 0)
		close(dfd);
	pa_cgroup_remove(&cg);
}
