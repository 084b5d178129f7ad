#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>

#define PROC_PID_INIT_INO 0xEFFFFFFCu	/* the initial pid namespace */
#define MAX_CPUS 4			/* CPUs watched (mlock budget) */

/*
 * Finding: exclude_idle does not reduce a cpu-clock count. The bit is read
 * only where the hrtimer takes a sample (perf_swevent_hrtimer(), 6.1 to
 * 6.18); the count itself is local_clock() added up while the event is on
 * the CPU (cpu_clock_event_update()), idle or not. So a CPU-wide counting
 * cpu-clock with exclude_idle counts the whole time it was enabled, like
 * its group leader without the bit (the two are started and stopped one
 * after the other, microseconds apart natively; under emulation a vCPU
 * can be held up between them for milliseconds: 1 ms or 2 % of the
 * window allowed, whichever is more). That is only a statement
 * about idle time if the CPU idled: whether it did is the scheduler's
 * word, the CPU's idle + iowait time in /proc/stat across the window, not
 * perf's; a CPU counts as idled when that time exceeds twice the
 * allowance by more than one USER_HZ tick of /proc/stat's rounding (else
 * excluding that idle time could hide in it); the case looks at up to 4
 * CPUs and SKIPs when none idled. A third member samples every 1 ms
 * without exclude_idle: its samples in the idle task (pid 0 and tid 0,
 * only the idle task in the initial pid namespace) are shown, and are how
 * idleness is judged where /proc/stat cannot be read.
 *
 * bc4394e5e79c (6.16) lost the count of a counting cpu-clock at every
 * DISABLE until f1f96511b1c4 (6.18, stable 6.17.y): XFAIL there.
 * CPU-wide events need perf_allow_cpu(), counting the kernel (idle time is
 * kernel time) perf_allow_kernel(): EACCES where the identity lacks either.
 */
static int open_clock(int cpu, int group, bool exclude_idle, uint64_t period,
		      int want)
{
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_CPU_CLOCK);

	attr.disabled = group < 0;
	attr.exclude_kernel = 0;
	attr.exclude_idle = exclude_idle;
	if (period) {
		attr.sample_period = period;
		attr.sample_type = PERF_SAMPLE_TID;
	}
	return EXPECT_OPEN_RESULT(&attr, -1, cpu, group, PERF_FLAG_FD_CLOEXEC, want);
}

static int idle_samples(struct pa_ring *r)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_CPU_CLOCK, 1000000);
	const struct perf_event_header *h;
	struct pa_sample s;
	int idle = 0;

	attr.sample_type = PERF_SAMPLE_TID;
	while ((h = pa_ring_find(r, PERF_RECORD_SAMPLE)) && pa_sample_parse(&attr, h, &s))
		idle += s.pid == 0 && s.tid == 0;
	return idle;
}

PERFABI_CASE(
	.assertion = "exclude_idle does not reduce a cpu-clock count: a CPU-wide "
		     "counting cpu-clock with exclude_idle on a CPU that idled "
		     "counts the whole 200 ms it was enabled: within 1 ms or 2 percent "
		     "of the window of its group leader without the bit (and of the "
		     "window's order: half to twice the wall time); where a CPU-wide kernel count is not allowed "
		     "the open fails (EACCES)",
	.ref = "perf_event_open(2), exclude_idle \"If this bit is set, don't count when the CPU "
	       "is running the idle task\"; kernel/events/core.c "
	       "cpu_clock_event_update() (no exclude check), perf_swevent_hrtimer() "
	       "(the only reader of exclude_idle)",
	.alone = true,
	.covers = "attr.exclude_idle sw.CPU_CLOCK arg.cpu",
	/* the permission rules for CPU-wide and kernel counting in every
	 * cell are privilege/'s: this runs where root opens the events
	 * and where user is refused (the plain cells) */
	.features = "hrtimer",
	.probe = pa_probe_priv,
	.xfail = {
		.from = "6.16",
		.to = "6.18",
		.why = "bc4394e5e79c made cpu_clock_event_stop() skip the count update "
		       "without PERF_EF_UPDATE, which del() never passes: a counting "
		       "cpu-clock read after DISABLE stays near 0; fixed in 6.18 and, by "
		       "the stable backport, 6.17.y [unconfirmed which 6.17.y]",
		.fix = "f1f96511b1c4",
	},
) {
	int want = pa_expected_errno(PA_NEED_KERNEL);
	struct timespec nap = { 0, 200000000 };
	int cpus[MAX_CPUS], fl[MAX_CPUS], fm[MAX_CPUS], fs[MAX_CPUS], ncpus, idled = 0;
	long long most = -1;
	uint64_t t0, t1, t2, t3, l, m, tol;
	long long idle0[MAX_CPUS], idle1[MAX_CPUS], tick_ms;
	long tck = sysconf(_SC_CLK_TCK);
	struct pa_ring rs[MAX_CPUS];
	struct stat st;

	if (!want)
		want = pa_expected_errno(PA_NEED_CPU);
	ncpus = pa_allowed_cpus(cpus, MAX_CPUS);
	ASSERT_GE(ncpus, 1);
	fl[0] = open_clock(cpus[0], -1, false, 0, want);
	if (want || fl[0] < 0)
		return;
	/* without pid namespaces everything is in the initial one */
	if (!stat("/proc/self/ns/pid", &st) && /* feature: handled */
	    st.st_ino != PROC_PID_INIT_INO)
		pa_skip("not in the initial pid namespace: tasks outside it also "
			"sample as pid 0");
	for (int i = 0; i < ncpus; i++) {
		if (i)
			fl[i] = open_clock(cpus[i], -1, false, 0, 0);
		ASSERT_GE(fl[i], 0);
		fm[i] = open_clock(cpus[i], fl[i], true, 0, 0);
		fs[i] = open_clock(cpus[i], fl[i], false, 1000000, 0);
		ASSERT_GE(fm[i], 0);
		ASSERT_GE(fs[i], 0);
		pa_ring_map(&rs[i], fs[i], 4);
	}
	tick_ms = tck > 0 ? 1000 / tck : 10;	/* /proc/stat's unit */
	for (int i = 0; i < ncpus; i++)
		idle0[i] = pa_cpu_idle_ms(cpus[i]);
	t0 = pa_clock_ns(CLOCK_MONOTONIC);
	for (int i = 0; i < ncpus; i++)
		ASSERT_OK(ioctl(fl[i], PERF_EVENT_IOC_ENABLE, 0));
	t1 = pa_clock_ns(CLOCK_MONOTONIC);
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, &nap) == EINTR)
		;
	t2 = pa_clock_ns(CLOCK_MONOTONIC);
	for (int i = 0; i < ncpus; i++)
		ASSERT_OK(ioctl(fl[i], PERF_EVENT_IOC_DISABLE, 0));
	t3 = pa_clock_ns(CLOCK_MONOTONIC);
	for (int i = 0; i < ncpus; i++)
		idle1[i] = pa_cpu_idle_ms(cpus[i]);
	tol = (t3 - t0) / 50 > 1000000 ? (t3 - t0) / 50 : 1000000;
	for (int i = 0; i < ncpus; i++) {
		int idle = idle_samples(&rs[i]);
		long long ms = idle0[i] >= 0 && idle1[i] >= 0 ? idle1[i] - idle0[i] : -1;

		pa_read_u64(fl[i], &l, 1);
		pa_read_u64(fm[i], &m, 1);
		pa_diag("CPU %d: idle %lld ms by /proc/stat, %d idle samples; leader %llu ns, exclude_idle %llu ns, "
			"wall %llu..%llu ns", cpus[i], ms, idle, (unsigned long long)l,
			(unsigned long long)m, (unsigned long long)(t2 - t1),
			(unsigned long long)(t3 - t0));
		/* idle time excluded would exceed the allowance; 1 ms a
		 * sample where /proc/stat cannot tell */
		if (ms > most)
			most = ms;
		if (ms >= 0)
			idled += (uint64_t)(ms > tick_ms ? ms - tick_ms : 0) * 1000000 > 2 * tol;
		else
			idled += (uint64_t)idle * 1000000 > 2 * tol;
		/* the CPU's clock (local_clock) against CLOCK_MONOTONIC: under
		 * emulation their rates differ (by 0.27 % under QEMU TCG with
		 * 6.12, by 10 to 20 % with 6.1, whose sched_clock there is not
		 * the TSC), so this only checks the count is the window's order
		 * (half to twice it); the comparison that matters is the next,
		 * with the leader on the same clock */
		EXPECT_GE(m, (t2 - t1) / 2);
		EXPECT_LE(m, 2 * (t3 - t0) + 1000000);
		EXPECT_LE(m > l ? m - l : l - m, tol);
		pa_ring_unmap(&rs[i]);
		close(fs[i]);
		close(fm[i]);
		close(fl[i]);
	}
	if (!idled)
		pa_skip("no watched CPU ran its idle task long enough during the 200 ms "
			"(over twice the allowance of %llu ns; at most %lld ms by /proc/stat, -1: unreadable): nothing exclude_idle could have left out",
			(unsigned long long)tol, most);
}
