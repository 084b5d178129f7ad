#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>

#define PROC_PID_INIT_INO 0xEFFFFFFCu	/* the initial pid namespace */
#define MAX_CPUS 4			/* CPUs watched (mlock budget) */
#define IDLED_MS 50			/* of the 200 ms, by /proc/stat */

/*
 * exclude_idle is applied where the cpu-clock and task-clock PMUs take a
 * sample: perf_swevent_hrtimer() skips the overflow when
 * "event->attr.exclude_idle && is_idle_task(current)". It is the only
 * reader of the bit (kernel/events/core.c, 6.1 to 6.18); no PMU refuses it
 * for software events. A CPU-wide cpu-clock sampler on another CPU, with
 * exclude_kernel clear (idle time is kernel time) and PERF_SAMPLE_TID, takes
 * no sample in the idle task (pid 0, tid 0) when exclude_idle is set, while
 * the same sampler without it does, as long as that CPU idles at all during
 * the 200 ms. Whether it idled is the scheduler's word, not perf's: the
 * CPU's idle + iowait time in /proc/stat. A CPU that idled IDLED_MS or more
 * while its sampler without exclude_idle took no sample in the idle task
 * is a FAIL (a 1 ms hrtimer fires in the idle task ~50 times there: even
 * late timers give one sample each), unless it was throttled (a throttled
 * hrtimer sampler waits for a tick, which an idle CPU may have stopped);
 * where no watched CPU idled that long
 * and no idle sample came, SKIP: nothing to compare. Only the idle task
 * has pid 0 in the initial pid namespace; elsewhere tasks outside the
 * namespace sample as pid 0 too, so the case needs the initial one.
 *
 * A CPU-wide event needs perf_allow_cpu() and one that counts the kernel
 * perf_allow_kernel(): where the identity lacks either, the open fails with
 * EACCES.
 *
 * PARKED: this is cases/attr/exclude_idle_cpu_wide_no_idle_samples with
 * the idle time taken from /proc/stat instead of from the control
 * sampler's own samples (issue 25: a SKIP decided from the behaviour).
 * On an idle 16-CPU KVM guest of 6.18.44 it FAILs 10 of 10: a CPU-wide
 * 1 ms cpu-clock sampler without exclude_idle took no sample at all on
 * CPUs 1-15 while they idled and their hrtimer interrupt fired 200 times
 * in 200 ms (CPU 0: 200 samples, all in the idle task). Whether that is a
 * kernel bug or a documented effect (NOHZ idle, how the hrtimer reaches
 * perf_swevent_hrtimer() with the idle task's regs) is not known. What
 * settles it: the reason from the source and a run on a bare-metal idle
 * machine; until then the suite keeps the older case, which skips where
 * the control sampler saw no idle sample.
 */
static int open_sampler(int cpu, bool exclude_idle, int want)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_CPU_CLOCK, 1000000);

	attr.sample_type = PERF_SAMPLE_TID;
	attr.disabled = 1;
	attr.exclude_kernel = 0;
	attr.exclude_idle = exclude_idle;
	return EXPECT_OPEN_RESULT(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC, want);
}

/* Samples in r, how many of them were taken in the idle task, and the
 * PERF_RECORD_THROTTLE records among them. */
static int count_samples(struct pa_ring *r, int *idle, int *throttled)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_CPU_CLOCK, 1000000);
	const struct perf_event_header *h;
	struct pa_sample s;
	int n = 0;

	attr.sample_type = PERF_SAMPLE_TID;
	*idle = *throttled = 0;
	while ((h = pa_ring_next(r))) {
		if (h->type == PERF_RECORD_THROTTLE)
			(*throttled)++;
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (!pa_sample_parse(&attr, h, &s))
			break;
		n++;
		*idle += s.pid == 0 && s.tid == 0;
	}
	return n;
}

PERFABI_CASE(
	.assertion = "exclude_idle drops the samples taken while the CPU runs the "
		     "idle task: a CPU-wide cpu-clock sampler (1 ms, exclude_kernel "
		     "clear) with exclude_idle gives no sample with pid 0 and tid 0 "
		     "over 200 ms, where the same sampler without it on the same CPU "
		     "gives some; where a CPU-wide kernel sampler is not allowed the "
		     "open fails (EACCES)",
	.ref = "perf_event_open(2), exclude_idle \"If this bit is set, don't count when the CPU "
	       "is running the idle task\"; kernel/events/core.c "
	       "perf_swevent_hrtimer() \"exclude_idle && is_idle_task(current)\", "
	       "perf_allow_cpu(), perf_allow_kernel()",
	.alone = true,
	.covers = "attr.exclude_idle sw.CPU_CLOCK arg.cpu sample.TID",
	/* the permission rules for CPU-wide and kernel counting in every
	 * cell are privilege/'s: this runs where root opens the events
	 * and where user is refused (the plain cells) */
	.probe = pa_probe_priv,
) {
	int want = pa_expected_errno(PA_NEED_KERNEL);
	struct timespec nap = { 0, 200000000 };
	int cpus[MAX_CPUS], fx[MAX_CPUS], fc[MAX_CPUS], ncpus, ix = 0, ic = 0, nall = 0;
	long long idle0[MAX_CPUS], idle1[MAX_CPUS], most = -1;
	struct pa_ring rx[MAX_CPUS], rc[MAX_CPUS];
	struct stat st;

	if (!want)
		want = pa_expected_errno(PA_NEED_CPU);
	ncpus = pa_allowed_cpus(cpus, MAX_CPUS);
	ASSERT_GE(ncpus, 1);
	fx[0] = open_sampler(cpus[0], true, want);
	if (want || fx[0] < 0)
		return;
	/* without pid namespaces everything is in the initial one */
	if (!stat("/proc/self/ns/pid", &st) && /* feature: handled */
	    st.st_ino != PROC_PID_INIT_INO)
		pa_skip("not in the initial pid namespace: tasks outside it also "
			"sample as pid 0");
	for (int i = 0; i < ncpus; i++) {
		if (i)
			fx[i] = open_sampler(cpus[i], true, 0);
		fc[i] = open_sampler(cpus[i], false, 0);
		ASSERT_GE(fx[i], 0);
		ASSERT_GE(fc[i], 0);
		pa_ring_map(&rx[i], fx[i], 4);
		pa_ring_map(&rc[i], fc[i], 4);
	}
	for (int i = 0; i < ncpus; i++)
		idle0[i] = pa_cpu_idle_ms(cpus[i]);
	for (int i = 0; i < ncpus; i++) {
		ASSERT_OK(ioctl(fx[i], PERF_EVENT_IOC_ENABLE, 0));
		ASSERT_OK(ioctl(fc[i], PERF_EVENT_IOC_ENABLE, 0));
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, &nap) == EINTR)
		;
	for (int i = 0; i < ncpus; i++) {
		ASSERT_OK(ioctl(fx[i], PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_OK(ioctl(fc[i], PERF_EVENT_IOC_DISABLE, 0));
	}
	for (int i = 0; i < ncpus; i++)
		idle1[i] = pa_cpu_idle_ms(cpus[i]);
	for (int i = 0; i < ncpus; i++) {
		int x, c, tx, tc, nx = count_samples(&rx[i], &x, &tx), nc = count_samples(&rc[i], &c, &tc);
		long long idled;

		idled = idle0[i] >= 0 && idle1[i] >= 0 ? idle1[i] - idle0[i] : -1;
		pa_diag("CPU %d: with exclude_idle %d samples (%d idle), without "
			"%d (%d idle); %d and %d throttles; idle %lld ms by /proc/stat",
			cpus[i], nx, x, nc, c, tx, tc, idled);
		/* a throttled hrtimer sampler stays stopped until a tick
		 * unthrottles it, and an idle CPU may have stopped its tick */
		if (idled >= IDLED_MS && !c && !tc && !nc)
			pa_fail("CPU %d idled %lld ms of the 200 (/proc/stat), yet its 1 ms cpu-clock sampler without exclude_idle took no sample at all there",
				cpus[i], idled);
		else if (idled >= IDLED_MS && !c && !tc)
			pa_fail("CPU %d idled %lld ms of the 200 (/proc/stat), yet its cpu-clock sampler without exclude_idle took none of its %d samples in the idle task",
				cpus[i], idled, nc);
		if (idled > most)
			most = idled;
		ix += x;
		ic += c;
		nall += nc;
		pa_ring_unmap(&rx[i]);
		pa_ring_unmap(&rc[i]);
		close(fx[i]);
		close(fc[i]);
	}
	EXPECT_EQ(ix, 0);
	/* 1 ms samplers enabled for 200 ms: late timers fold periods, but
	 * none at all is no sampling */
	EXPECT_GT(nall, 0);
	if (!ic)
		pa_skip("no watched CPU ran its idle task during the 200 ms (at most %lld ms by /proc/stat, -1: unreadable): the "
			"samplers without exclude_idle show nothing to drop", most);
}
