#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>

/*
 * A PERF_COUNT_SW_BPF_OUTPUT event never overflows (nothing counts it), but
 * its ring wakes up like any other: each record bpf_perf_event_output()
 * writes goes through perf_output_sample(), which with wakeup_events = 1
 * moves rb->wakeup on every record, and perf_output_end() ->
 * perf_output_put_handle() then calls perf_output_wakeup(): POLLIN on the
 * ring, pending_kill = POLL_IN where the event has a fasync owner, and the
 * event's pending_irq irq_work, whose perf_pending_irq() ->
 * perf_event_wakeup() wakes pollers and sends kill_fasync(..., SIGIO,
 * POLL_IN): with F_SETSIG(SIGRTMIN) an RT signal with si_code POLL_IN,
 * si_band POLLIN|POLLRDNORM and si_fd the event's fd.
 *
 * The rig of sample/bpf_output_raw_each_run (pa_bpf_output_rig()): a
 * perf_event program on a page-fault sampler S (period 1) of a thread
 * pinned to one CPU writes S's count i into the output event O in that
 * CPU's slot and keeps the helper's return. O is the thread's, enabled,
 * wakeup_events 1, O_ASYNC with F_SETOWN(this process) and
 * F_SETSIG(SIGRTMIN), blocked in every thread (the case waits for it with
 * sigtimedwait()). Two runs of N = 8 faults: 16 records, 16 returns of 0,
 * 16 signals; between the runs the thread polls O: POLLIN (after the
 * thread has exited, poll() says POLLHUP: is_event_hup()). Two
 * records never share one irq_work: the self-interrupt that runs it
 * (arch_irq_work_raise()) is taken as soon as interrupts are on, at the
 * latest on the way back to user space, before the thread's next fault.
 */
#define N	8

static int cpu;			/* the thread's CPU */
static int out_fd;
static short revents = -1;	/* poll() of O between the runs */

/* in the thread, after run 1: poll O (its task is alive) */
static void poll_output(struct pa_fault_thread *ft, int run)
{
	struct pollfd pfd = { .fd = out_fd, .events = POLLIN };

	(void)run;
	if (poll(&pfd, 1, 0) < 0)
		ft->pg.err = errno;
	revents = pfd.revents;
}

/* in the thread: stay on one CPU, BPF_F_CURRENT_CPU picks its slot */
static void pin(struct pa_fault_thread *ft)
{
	cpu = pa_pin_here();
	if (cpu < 0)
		ft->pg.err = errno;
}

PERFABI_CASE(
	.assertion = "records written by bpf_perf_event_output() wake the PERF_COUNT_SW_BPF_OUTPUT event's ring like samples: with "
		     "wakeup_events 1, O_ASYNC and F_SETSIG(SIGRTMIN), 16 program runs write 16 records and send exactly 16 signals, "
		     "each with si_code POLL_IN, si_band POLLIN|POLLRDNORM and si_fd the output event's fd, and poll() reports POLLIN",
	.ref = "perf_event_open(2), Overflow handling: \"The first is to set a wakeup_events or wakeup_watermark value that will trigger if "
	       "a certain number of samples or bytes have been written to the mmap ring buffer. In this case, POLL_IN is indicated\"; "
	       "include/uapi/linux/bpf.h bpf_perf_event_output(); "
	       "kernel/events/core.c perf_output_sample() (wakeup_events), perf_pending_irq(), perf_event_wakeup(); "
	       "kernel/events/ring_buffer.c perf_output_wakeup(). Since 6.10: fd20bb51ed39 \"perf/ring_buffer: Trigger IO signals for "
	       "watermark_wakeup\" (Kyle Huey, 2024); before it a wakeup that no overflow caused sent no signal (Debian 6.1.192: "
	       "16 records, POLLIN, 0 signals)",
	.alone = true,
	.covers = "sw.BPF_OUTPUT attr.wakeup_events fd.F_SETSIG fd.O_ASYNC ioctl.SET_BPF record.SAMPLE sample.RAW",
	.features = "bpf",
	.root = true,		/* BPF_PROG_LOAD of a tracing type */
	.caps = PA_CAP(PA_CAP_SYS_ADMIN),
	.min_kernel = "6.10",	/* fd20bb51ed39; the rig needs 4.15 (bpf_perf_prog_read_value()) */
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr cattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr oattr = pa_sw_attr(PERF_COUNT_SW_BPF_OUTPUT);
	struct pa_fault_thread ft = { .prep = pin, .between = poll_output };
	struct pa_bpf_output_rig g;
	struct pa_sigs got;
	struct pa_ring ring;
	int n;

	close(pa_bpf_load_perf_event(0));	/* SKIP where the type is missing */
	pa_sig_block(SIGRTMIN);			/* before the thread: it inherits the mask */
	pa_fault_thread_start(&ft, N, 2, &attr, &cattr);
	oattr.disabled = 0;		/* on the CPU whenever the thread is */
	oattr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	oattr.wakeup_events = 1;
	out_fd = ASSERT_OPEN(&oattr, ft.t.tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&ring, out_fd, 2);
	pa_ring_prefault(&ring);
	pa_sigs_route(&got, out_fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */
	pa_bpf_output_rig(&g, ft.fd, out_fd, cpu, 2 * N + 1);

	pa_fault_thread_run(&ft);
	pa_sigs_settle(&got, 2 * N);
	EXPECT_EQ(revents, POLLIN);

	EXPECT_EQ(pa_read_one(ft.fd), 2 * N);
	for (uint32_t i = 1; i <= 2 * N; i++)
		EXPECT_EQ((int64_t)pa_bpf_output_ret(&g, i), 0);
	n = pa_bpf_output_expect_records(&ring, &oattr, ft.t.tid, 1, 2 * N);
	pa_diag("%d records, %d signals", n, got.n);
	ASSERT_EQ(got.n, 2 * N);
	for (int i = 0; i < 2 * N; i++) {
		EXPECT_EQ(got.code[i], POLL_IN);
		EXPECT_EQ(got.band[i], (long)(POLLIN | POLLRDNORM));
		EXPECT_EQ(got.fd[i], out_fd);
	}
	pa_bpf_output_rig_close(&g);
	pa_ring_unmap(&ring);
	close(out_fd);
	close(ft.fd);
	close(ft.warm_fd);
}
