#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * time_enabled and time_running of a PERF_COUNT_SW_BPF_OUTPUT event of a
 * thread, the event bpf_perf_event_output() writes into. It is a software
 * event in the thread's perf_sw_context: the times come from the core
 * (__perf_update_times(): enabled grows while the event is INACTIVE or
 * ACTIVE, running only while ACTIVE, both by the context's time, which
 * runs only while the thread is on a CPU), and perf_swevent_add() never
 * fails for it, so the event is ACTIVE whenever it is enabled and its
 * thread runs: time_running == time_enabled. Never enabled (state OFF)
 * both stay 0, however long the thread runs; asleep, the thread's context
 * time stands still.
 *
 * The rig of sample/bpf_output_raw_each_run (pa_bpf_output_rig()): a
 * perf_event program on a page-fault sampler S (period 1) of a thread
 * pinned to one CPU writes S's count i into the output event O in that
 * CPU's slot and keeps the helper's return. O is the thread's, opened
 * disabled, read_format TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING. Run 1
 * (N = 8 faults) meets O disabled: 8 returns of -EOPNOTSUPP, and O reads
 * 0/0. Between the runs the thread enables O (on itself: O goes on at
 * once), spins 20 ms of its CPU time, reads O (e1 = r1 >= PA_WORKED_NS_MIN(20)),
 * sleeps 20 ms and reads O again: e2 = r2, and e2 - e1 < PA_WORKED_NS_MIN(20)
 * (a time that ran on while the thread slept would add all 20 ms). Run 2:
 * 8 returns of 0 and 8 records. After the thread has exited (gone from
 * /proc), O's times are still equal, at least e2, and frozen.
 */
#define N	8
#define MS	20

static int cpu;			/* the thread's CPU */
static int out_fd;
static uint64_t off[3] = { ~0ULL, ~0ULL, ~0ULL }, on1[3], on2[3];

/* in the thread: stay on one CPU, BPF_F_CURRENT_CPU picks its slot */
static void pin(struct pa_fault_thread *ft)
{
	cpu = pa_pin_here();
	if (cpu < 0)
		ft->pg.err = errno;
}

/* in the thread, after run 1: O never enabled; enable it, work, sleep */
static void enable_output(struct pa_fault_thread *ft, int run)
{
	(void)run;
	if (read(out_fd, off, sizeof(off)) != (ssize_t)sizeof(off) ||
	    ioctl(out_fd, PERF_EVENT_IOC_ENABLE, 0)) {
		ft->pg.err = errno ? errno : EIO;
		return;
	}
	pa_work_cpu_ms(MS);
	if (read(out_fd, on1, sizeof(on1)) != (ssize_t)sizeof(on1)) {
		ft->pg.err = errno ? errno : EIO;
		return;
	}
	usleep(MS * 1000);
	if (read(out_fd, on2, sizeof(on2)) != (ssize_t)sizeof(on2))
		ft->pg.err = errno ? errno : EIO;
}

PERFABI_CASE(
	.assertion = "a PERF_COUNT_SW_BPF_OUTPUT event's time_enabled and time_running follow its thread: 0 and 0 before the first "
		     "enable, though the thread ran and its program's writes were refused (-EOPNOTSUPP); once enabled, always equal, "
		     "growing by at least half of 20 ms of the thread's CPU time and by less than that over a 20 ms sleep; the enabled "
		     "event takes the program's 8 records (returns 0)",
	.ref = "perf_event_open(2), read_format PERF_FORMAT_TOTAL_TIME_ENABLED, PERF_FORMAT_TOTAL_TIME_RUNNING (\"time_enabled and "
	       "time_running ... can be used to calculate estimated totals if the PMU is overcommitted and multiplexing is happening\"); "
	       "kernel/events/core.c __perf_update_times(), perf_swevent_add(); kernel/trace/bpf_trace.c __bpf_perf_event_output() "
	       "(event->oncpu != cpu: -EOPNOTSUPP)",
	.alone = true,
	.covers = "sw.BPF_OUTPUT read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING ioctl.ENABLE ioctl.SET_BPF errno.EOPNOTSUPP record.SAMPLE sample.RAW",
	.features = "bpf",
	.root = true,		/* BPF_PROG_LOAD of a tracing type */
	.caps = PA_CAP(PA_CAP_SYS_ADMIN),
	.min_kernel = "4.15",	/* bpf_perf_prog_read_value() */
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr cattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr oattr = pa_sw_attr(PERF_COUNT_SW_BPF_OUTPUT);
	struct pa_fault_thread ft = { .prep = pin, .between = enable_output };
	struct pa_bpf_output_rig g;
	struct pa_ring ring;
	uint64_t fin[3], fin2[3];

	close(pa_bpf_load_perf_event(0));	/* SKIP where the type is missing */
	pa_fault_thread_start(&ft, N, 2, &attr, &cattr);
	/* oattr.disabled = 1 (pa_sw_attr): off until the thread enables it */
	oattr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	oattr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	out_fd = ASSERT_OPEN(&oattr, ft.t.tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&ring, out_fd, 2);
	pa_ring_prefault(&ring);
	pa_bpf_output_rig(&g, ft.fd, out_fd, cpu, 2 * N + 1);

	pa_fault_thread_run(&ft);
	/* the join returns once exit_mm() has woken it, which some kernels
	 * run before perf_event_exit_task(); gone from /proc, the thread is
	 * past exit_notify(), so past both */
	for (int i = 0; i < 10000 && pa_task_state(getpid(), ft.t.tid, NULL); i++)
		usleep(1000);
	if (pa_task_state(getpid(), ft.t.tid, NULL))
		pa_fail("thread %d still in /proc 10 s after its join", (int)ft.t.tid);
	pa_read_u64(out_fd, fin, 3);
	usleep(MS * 1000);
	pa_read_u64(out_fd, fin2, 3);
	pa_diag("never enabled: %llu/%llu; enabled, after %d ms of work: %llu/%llu; after %d ms asleep: %llu/%llu; "
		"after the thread's exit: %llu/%llu, %llu/%llu", (unsigned long long)off[1], (unsigned long long)off[2], MS,
		(unsigned long long)on1[1], (unsigned long long)on1[2], MS, (unsigned long long)on2[1],
		(unsigned long long)on2[2], (unsigned long long)fin[1], (unsigned long long)fin[2],
		(unsigned long long)fin2[1], (unsigned long long)fin2[2]);

	EXPECT_EQ(off[1], 0);				/* never enabled: no time */
	EXPECT_EQ(off[2], 0);
	EXPECT_EQ(on1[2], on1[1]);			/* on whenever enabled */
	EXPECT_GE(on1[1], PA_WORKED_NS_MIN(MS));	/* while the thread ran */
	EXPECT_EQ(on2[2], on2[1]);
	EXPECT_LT(on2[1] - on1[1], PA_WORKED_NS_MIN(MS));	/* not while it slept */
	EXPECT_EQ(fin[2], fin[1]);
	EXPECT_GE(fin[1], on2[1]);
	EXPECT_EQ(fin2[1], fin[1]);			/* exited: frozen */
	EXPECT_EQ(fin2[2], fin[2]);
	EXPECT_EQ(fin[0], 0);				/* nothing counts it */

	EXPECT_EQ(pa_read_one(ft.fd), 2 * N);
	for (uint32_t i = 1; i <= 2 * N; i++) {
		if (i <= N)
			EXPECT_EQ((int64_t)pa_bpf_output_ret(&g, i), -EOPNOTSUPP);	/* disabled */
		else
			EXPECT_EQ((int64_t)pa_bpf_output_ret(&g, i), 0);		/* enabled */
	}
	pa_bpf_output_expect_records(&ring, &oattr, ft.t.tid, N + 1, N);
	pa_bpf_output_rig_close(&g);
	pa_ring_unmap(&ring);
	close(out_fd);
	close(ft.fd);
	close(ft.warm_fd);
}
