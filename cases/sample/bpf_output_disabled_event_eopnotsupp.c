#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * bpf_perf_event_output() writes into the PERF_COUNT_SW_BPF_OUTPUT event
 * in the map slot only while that event is on this CPU:
 * __bpf_perf_event_output() returns -EOPNOTSUPP when event->oncpu is not
 * the current CPU, which for a disabled event (oncpu -1) is always, and
 * writes nothing. Enabled, the same call returns 0 and writes one sample.
 *
 * A BPF_PROG_TYPE_PERF_EVENT program on a page-fault sampler S (period 1)
 * of a thread pinned to one CPU calls bpf_perf_event_output(ctx, map,
 * BPF_F_CURRENT_CPU, &i, 8), i = S's count (bpf_perf_prog_read_value()),
 * and stores the helper's return at key i of an ARRAY map filled with a
 * sentinel first (a run that never stored shows the sentinel). The slot
 * of the thread's CPU holds an output event O of the thread, opened
 * disabled. Run 1 (faults 1..N) meets O disabled; between the runs the
 * thread enables O (on itself: O goes on its CPU at once); run 2 (faults
 * N+1..2N) meets it enabled.
 */
#define N		8

static int cpu;			/* the thread's CPU */
static int out_fd;
static uint64_t head_before_enable = ~0ULL;
static struct pa_ring ring;

/* in the thread: stay on one CPU, BPF_F_CURRENT_CPU picks its slot */
static void pin(struct pa_fault_thread *ft)
{
	cpu = pa_pin_here();
	if (cpu < 0)
		ft->pg.err = errno;
}

/* in the thread, after run 1: what run 1 wrote, then enable O */
static void enable_output(struct pa_fault_thread *ft, int run)
{
	(void)run;
	head_before_enable = pa_ring_head(&ring);
	if (ioctl(out_fd, PERF_EVENT_IOC_ENABLE, 0))
		ft->pg.err = errno;
}

PERFABI_CASE(
	.assertion = "bpf_perf_event_output() into a disabled PERF_COUNT_SW_BPF_OUTPUT event returns -EOPNOTSUPP and writes nothing; once the event is enabled (on the thread's CPU) the same call returns 0 and writes one sample: 8 runs with the output event disabled give 8 returns of -95 and an empty ring, 8 runs after PERF_EVENT_IOC_ENABLE give 8 returns of 0 and exactly 8 samples, in order",
	.ref = "include/uapi/linux/bpf.h, bpf_perf_event_output() (\"The event must have the following attributes: PERF_SAMPLE_RAW as sample_type, PERF_TYPE_SOFTWARE as type, and PERF_COUNT_SW_BPF_OUTPUT as config\"); kernel/trace/bpf_trace.c __bpf_perf_event_output(): event->oncpu != cpu -> -EOPNOTSUPP; perf_event_open(2), PERF_EVENT_IOC_ENABLE",
	.alone = true,
	.covers = "sw.BPF_OUTPUT ioctl.ENABLE ioctl.SET_BPF attr.disabled errno.EOPNOTSUPP record.SAMPLE sample.RAW",
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
	uint64_t ret;

	close(pa_bpf_load_perf_event(0));	/* SKIP where the type is missing */
	pa_fault_thread_start(&ft, N, 2, &attr, &cattr);
	/* oattr.disabled = 1 (pa_sw_attr): off until the thread enables it */
	oattr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	out_fd = ASSERT_OPEN(&oattr, ft.t.tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&ring, out_fd, 2);
	pa_ring_prefault(&ring);

	pa_bpf_output_rig(&g, ft.fd, out_fd, cpu, 2 * N + 1);

	pa_fault_thread_run(&ft);
	EXPECT_EQ(pa_read_one(ft.fd), 2 * N);
	EXPECT_EQ(head_before_enable, 0);	/* run 1 wrote nothing */
	for (uint32_t i = 1; i <= 2 * N; i++) {
		ret = pa_bpf_output_ret(&g, i);
		if (i <= N)
			EXPECT_EQ((int64_t)ret, -EOPNOTSUPP);	/* disabled */
		else
			EXPECT_EQ((int64_t)ret, 0);		/* enabled */
	}
	pa_bpf_output_expect_records(&ring, &oattr, ft.t.tid, N + 1, N);
	pa_bpf_output_rig_close(&g);
	pa_ring_unmap(&ring);
	close(out_fd);
	close(ft.fd);
	close(ft.warm_fd);
}
