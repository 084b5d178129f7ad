#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * bpf_perf_event_output() into a PERF_COUNT_SW_BPF_OUTPUT event whose ring
 * is paused (PERF_EVENT_IOC_PAUSE_OUTPUT 1): perf_event_output() ->
 * __perf_output_begin() finds rb->paused, counts the record as lost
 * (rb->lost and the event's lost_samples, read_format PERF_FORMAT_LOST)
 * and fails with -ENOSPC, which the helper returns. After PAUSE_OUTPUT 0
 * the next record written is preceded by one PERF_RECORD_LOST {id, lost}
 * with all the drops.
 *
 * A BPF_PROG_TYPE_PERF_EVENT program on a page-fault sampler S (period 1)
 * of a thread pinned to one CPU calls bpf_perf_event_output(ctx, map,
 * BPF_F_CURRENT_CPU, &i, 8), i = S's count (bpf_perf_prog_read_value()),
 * and stores the helper's return at key i of an ARRAY map filled with a
 * sentinel first. The slot of the thread's CPU holds an enabled output
 * event O of the thread, its ring mapped and paused. Run 1 (faults 1..N)
 * meets the paused ring; between the runs the thread reads O's LOST and
 * resumes the ring; run 2 (faults N+1..2N) writes.
 */
#define N		8

struct lost_rec {
	struct perf_event_header h;
	uint64_t id, lost;
};

static int cpu;			/* the thread's CPU */
static int out_fd;
static uint64_t head_paused = ~0ULL, lost_paused[2] = { ~0ULL, ~0ULL };
static struct pa_ring ring;

/* in the thread: stay on one CPU, BPF_F_CURRENT_CPU picks its slot */
static void pin(struct pa_fault_thread *ft)
{
	cpu = pa_pin_here();
	if (cpu < 0)
		ft->pg.err = errno;
}

/* in the thread, after run 1: what run 1 left, then resume the ring */
static void resume_output(struct pa_fault_thread *ft, int run)
{
	(void)run;
	head_paused = pa_ring_head(&ring);
	if (read(out_fd, lost_paused, sizeof(lost_paused)) != (ssize_t)sizeof(lost_paused) ||
	    ioctl(out_fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0))
		ft->pg.err = errno ? errno : EIO;
}

PERFABI_CASE(
	.assertion = "bpf_perf_event_output() into a PERF_COUNT_SW_BPF_OUTPUT event whose ring is paused (PERF_EVENT_IOC_PAUSE_OUTPUT 1) returns -ENOSPC, writes nothing and counts the record as lost: 8 runs give 8 returns of -28, an empty ring and LOST (read_format) 8; after PAUSE_OUTPUT 0, 8 more runs return 0 and the ring holds one PERF_RECORD_LOST {the event's id, lost 8}, then exactly the 8 samples, in order; LOST stays 8",
	.ref = "include/uapi/linux/bpf.h, bpf_perf_event_output() (\"0 on success, or a negative error in case of failure\"); kernel/trace/bpf_trace.c __bpf_perf_event_output() -> perf_event_output(); kernel/events/ring_buffer.c __perf_output_begin() (rb->paused: lost++, -ENOSPC; the next output puts a PERF_RECORD_LOST first); perf_event_open(2), PERF_EVENT_IOC_PAUSE_OUTPUT (4.7), PERF_FORMAT_LOST (6.0)",
	.alone = true,
	.covers = "sw.BPF_OUTPUT ioctl.PAUSE_OUTPUT ioctl.SET_BPF errno.ENOSPC read_format.LOST record.LOST record.SAMPLE sample.RAW",
	.features = "bpf",
	.root = true,		/* BPF_PROG_LOAD of a tracing type */
	.caps = PA_CAP(PA_CAP_SYS_ADMIN),
	.min_kernel = "6.0",	/* PERF_FORMAT_LOST */
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr cattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr oattr = pa_sw_attr(PERF_COUNT_SW_BPF_OUTPUT);
	struct pa_fault_thread ft = { .prep = pin, .between = resume_output };
	const struct perf_event_header *h;
	const struct lost_rec *l;
	struct pa_bpf_output_rig g;
	uint64_t ret, id, v[2];

	close(pa_bpf_load_perf_event(0));	/* SKIP where the type is missing */
	pa_fault_thread_start(&ft, N, 2, &attr, &cattr);
	oattr.disabled = 0;		/* on the CPU whenever the thread is */
	oattr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	oattr.read_format = PERF_FORMAT_LOST;
	out_fd = ASSERT_OPEN(&oattr, ft.t.tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(ioctl(out_fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&ring, out_fd, 2);
	pa_ring_prefault(&ring);
	ASSERT_OK(ioctl(out_fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));

	pa_bpf_output_rig(&g, ft.fd, out_fd, cpu, 2 * N + 1);

	pa_fault_thread_run(&ft);
	EXPECT_EQ(pa_read_one(ft.fd), 2 * N);
	EXPECT_EQ(head_paused, 0);		/* run 1 wrote nothing */
	EXPECT_EQ(lost_paused[1], N);		/* and lost each record */
	for (uint32_t i = 1; i <= 2 * N; i++) {
		ret = pa_bpf_output_ret(&g, i);
		if (i <= N)
			EXPECT_EQ((int64_t)ret, -ENOSPC);	/* paused */
		else
			EXPECT_EQ((int64_t)ret, 0);		/* resumed */
	}
	pa_read_u64(out_fd, v, 2);
	EXPECT_EQ(v[1], N);			/* no more losses */
	EXPECT_EQ(v[0], 0);			/* the helper adds nothing to the count */

	h = pa_ring_next(&ring);
	ASSERT_TRUE(h != NULL);
	ASSERT_EQ(h->type, PERF_RECORD_LOST);
	l = (const struct lost_rec *)h;
	EXPECT_EQ(h->size, sizeof(*l));
	EXPECT_EQ(l->id, id);
	EXPECT_EQ(l->lost, N);
	pa_bpf_output_expect_records(&ring, &oattr, ft.t.tid, N + 1, N);
	pa_bpf_output_rig_close(&g);
	pa_ring_unmap(&ring);
	close(out_fd);
	close(ft.fd);
	close(ft.warm_fd);
}
