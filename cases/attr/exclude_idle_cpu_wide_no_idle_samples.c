#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>

#define PROC_PID_INIT_INO 0xEFFFFFFCu	/* the initial pid namespace */
#define MAX_CPUS 4			/* CPUs watched (mlock budget) */

/*
 * exclude_idle is applied where the cpu-clock and task-clock PMUs take a
 * sample: perf_swevent_hrtimer() skips the overflow when
 * "event->attr.exclude_idle && is_idle_task(current)". It is the only
 * reader of the bit (kernel/events/core.c, 6.1 to 6.18); no PMU refuses it
 * for software events. A CPU-wide cpu-clock sampler on another CPU, with
 * exclude_kernel clear (idle time is kernel time) and PERF_SAMPLE_TID, takes
 * no sample in the idle task (pid 0, tid 0) when exclude_idle is set, while
 * the same sampler without it does, as long as that CPU idles at all during
 * the 200 ms (else SKIP: nothing to compare). Only the idle task has pid 0
 * in the initial pid namespace; elsewhere tasks outside the namespace
 * sample as pid 0 too, so the case needs the initial one.
 *
 * A CPU-wide event needs perf_allow_cpu() and one that counts the kernel
 * perf_allow_kernel(): where the identity lacks either, the open fails with
 * EACCES.
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

/* Samples in r, and how many of them were taken in the idle task. */
static int count_samples(struct pa_ring *r, int *idle)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_CPU_CLOCK, 1000000);
	const struct perf_event_header *h;
	struct pa_sample s;
	int n = 0;

	attr.sample_type = PERF_SAMPLE_TID;
	*idle = 0;
	while ((h = pa_ring_find(r, PERF_RECORD_SAMPLE))) {
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
	int cpus[MAX_CPUS], fx[MAX_CPUS], fc[MAX_CPUS], ncpus, ix = 0, ic = 0;
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
	for (int i = 0; i < ncpus; i++) {
		int x, c, nx = count_samples(&rx[i], &x), nc = count_samples(&rc[i], &c);

		pa_diag("CPU %d: with exclude_idle %d samples (%d idle), without "
			"%d (%d idle)", cpus[i], nx, x, nc, c);
		ix += x;
		ic += c;
		pa_ring_unmap(&rx[i]);
		pa_ring_unmap(&rc[i]);
		close(fx[i]);
		close(fc[i]);
	}
	EXPECT_EQ(ix, 0);
	if (!ic)
		pa_skip("no watched CPU ran its idle task during the 200 ms: the "
			"samplers without exclude_idle show nothing to drop");
}
