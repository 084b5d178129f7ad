#include "perfabi.h"

#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

/*
 * PERF_SAMPLE_TID of a hardware sample taken in a thread that is not the
 * main thread. The main thread opens a user-only PERF_COUNT_HW_CPU_CYCLES
 * sampler on the other thread (pid = its tid, cpu -1): the event is in
 * that task's context, so its overflows happen only while that thread
 * runs, and perf_prepare_sample() fills {pid, tid} from
 * perf_event_pid()/perf_event_tid() of current: the process's tgid and
 * the thread's own tid (in the event's pid namespace, the same here). The
 * thread enables it, runs 8.5 periods of the loop, and disables it: exactly
 * 8 samples under the exact PMU (the rule of
 * hw/sample_period_cycles_exact_samples), each with pid == getpid() and
 * tid == the thread's gettid(), never the main thread's.
 */
#define P	1200000ULL
#define M	8

static int fd_ev = -1;
static int go[2];
static volatile pid_t worker_tid;

static void *worker(void *arg)
{
	char b;

	(void)arg;
	worker_tid = (pid_t)syscall(SYS_gettid);
	if (read(go[0], &b, 1) != 1)
		return NULL;
	if (fd_ev >= 0)
		pa_hws_run_halves(fd_ev, P, 2 * M + 1);
	return NULL;
}

PERFABI_CASE(
	.assertion = "the samples of a user-only PERF_COUNT_HW_CPU_CYCLES sampler opened by the main thread on another thread of the "
		     "process (pid = its tid) carry PERF_SAMPLE_TID {getpid(), that thread's gettid()}: 8 samples over 8.5 periods, each "
		     "with the thread's tid",
	.ref = "perf_event_open(2), pid > 0 (\"measures the specified process/thread\"), PERF_SAMPLE_TID; kernel/events/core.c "
	       "perf_prepare_sample() (perf_event_pid(), perf_event_tid())",
	.covers = "hw.CPU_CYCLES sample.TID type.HARDWARE",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a;
	int samples = 0, throttled = 0;
	pid_t me = (pid_t)syscall(SYS_gettid);
	struct pa_sample s;
	struct pa_ring r;
	pthread_t t;
	uint64_t c;

	pa_hws_need();
	a = pa_hws_attr(P, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	close(pa_hw_open_sampler(&a));	/* the SKIPs of this PMU */
	ASSERT_OK(pipe(go));
	ASSERT_EQ(pthread_create(&t, NULL, worker, NULL), 0);
	while (!worker_tid)
		sched_yield();
	fd_ev = pa_perf_open(&a, worker_tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd_ev < 0)
		pa_fail("opening the sampler on thread %d: %s", (int)worker_tid, pa_errno_name(errno));
	else {
		pa_ring_map(&r, fd_ev, 1);
		pa_ring_prefault(&r);
	}
	ASSERT_EQ(write(go[1], "g", 1), 1);
	pthread_join(t, NULL);
	ASSERT_TRUE(fd_ev >= 0);

	c = pa_hws_count(fd_ev);
	while (pa_hw_next_sample(&r, &a, &s, &throttled)) {
		samples++;
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)worker_tid);
	}
	pa_diag("main thread %d, worker thread %d", (int)me, (int)worker_tid);
	EXPECT_NE(worker_tid, me);
	if (throttled)
		pa_throttled_in_burst(PA_HWS_BURST(P));
	pa_hws_expect_overflows("samples", (uint64_t)samples, c, P, M);
	pa_ring_unmap(&r);
	close(fd_ev);
	close(go[0]);
	close(go[1]);
}
