#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * A BPF_PROG_TYPE_PERF_EVENT program on a page-fault sampler S (period 1)
 * of a thread, pinned to one CPU, calls bpf_perf_event_output(ctx, map,
 * BPF_F_CURRENT_CPU, data, 13) with data = {S's count i (u64, from
 * bpf_perf_prog_read_value()), a1 b2 c3 d4 e5}. The map slot of that CPU
 * holds a PERF_COUNT_SW_BPF_OUTPUT event O of the thread (every other slot
 * is empty). Each run writes one PERF_RECORD_SAMPLE into O's ring, built
 * from the fault's user registers and a sample data of period 0 with no
 * address (perf_sample_data_init(sd, 0, 0)), its RAW part the 13 bytes
 * padded to size 20 (4 + 20 is a multiple of 8: perf_sample_save_raw_data()).
 * The helper's return value goes into an ARRAY map at key i, filled with a
 * sentinel first (pa_bpf_output_rig_tail()): a run that never stored
 * shows the sentinel, not 0.
 */

#define N 16
#define LEN 13			/* payload bytes: 8 + 5, not a multiple of 8 */

static const uint8_t tail5[5] = { 0xa1, 0xb2, 0xc3, 0xd4, 0xe5 };

static uint64_t ip[N];		/* the storing instruction of each fault */
static int cpu;			/* the thread's CPU */

/* in the thread: stay on one CPU, BPF_F_CURRENT_CPU picks its slot */
static void pin(struct pa_fault_thread *ft)
{
	cpu = pa_pin_here();
	if (cpu < 0)
		ft->pg.err = errno;
}

PERFABI_CASE(
	.assertion = "bpf_perf_event_output(ctx, map, BPF_F_CURRENT_CPU, data, size) in a BPF_PROG_TYPE_PERF_EVENT program writes one PERF_RECORD_SAMPLE per run into the ring of the PERF_COUNT_SW_BPF_OUTPUT event in the map slot of the current CPU and returns 0: N runs on a thread's period-1 page-fault sampler give N samples in order, each {ip = the faulting store, pid, tid = the thread, addr 0, cpu = the thread's CPU, period 0, raw size 20 whose first 13 bytes are the program's data}; the output event's count stays 0",
	.ref = "include/uapi/linux/bpf.h, bpf_perf_event_output() (since Linux 4.4; BPF_PROG_TYPE_PERF_EVENT since 4.9); kernel/trace/bpf_trace.c bpf_perf_event_output_tp(), __bpf_perf_event_output(); kernel/events/core.c perf_event_output(), perf_output_sample() (RAW padded to 8 with the u32 size: perf_sample_save_raw_data())",
	.alone = true,
	.covers = "sw.BPF_OUTPUT ioctl.SET_BPF record.SAMPLE sample.IP sample.TID sample.ADDR sample.CPU sample.PERIOD sample.RAW",
	.features = "bpf",
	.root = true,		/* BPF_PROG_LOAD of a tracing type */
	.caps = PA_CAP(PA_CAP_SYS_ADMIN),
	.min_kernel = "4.15",	/* bpf_perf_prog_read_value() */
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr cattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr oattr = pa_sw_attr(PERF_COUNT_SW_BPF_OUTPUT);
	const struct perf_event_header *h;
	struct pa_fault_thread ft = { .prep = pin, .pg.ip = ip };
	struct pa_bpf_output_rig g;
	struct pa_sample s;
	struct pa_ring r;
	uint64_t first;
	int out, n = 0, other = 0;

	close(pa_bpf_load_perf_event(0));	/* SKIP where the type is missing */
	pa_fault_thread_start(&ft, N, 1, &attr, &cattr);
	oattr.disabled = 0;		/* on the CPU whenever the thread is */
	oattr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
			    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
	out = ASSERT_OPEN(&oattr, ft.t.tid, -1, -1, 0);
	pa_ring_map(&r, out, 4);

	pa_bpf_output_rig_tail(&g, ft.fd, out, cpu, N + 1, tail5, LEN - 8);

	pa_fault_thread_run(&ft);
	EXPECT_EQ(pa_read_one(ft.fd), N);
	for (uint32_t i = 1; i <= N; i++)	/* the sentinel: no run stored */
		EXPECT_EQ((int64_t)pa_bpf_output_ret(&g, i), 0);
	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE) {
			other++;
			continue;
		}
		if (!pa_sample_parse(&oattr, h, &s))
			pa_abort();
		EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
		if (n < N && ip[n])	/* known where pa_store_byte() knows it */
			EXPECT_EQ(s.ip, ip[n]);
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)ft.t.tid);
		EXPECT_EQ(s.addr, 0);
		EXPECT_EQ(s.cpu, (uint32_t)cpu);
		EXPECT_EQ(s.res, 0);
		EXPECT_EQ(s.period, 0);
		ASSERT_EQ(s.var.raw_size, 20);	/* round_up(4 + 13, 8) - 4 */
		memcpy(&first, s.raw, 8);
		EXPECT_EQ(first, (uint64_t)n + 1);
		EXPECT_EQ(memcmp((const uint8_t *)s.raw + 8, tail5, 5), 0);
		n++;
	}
	EXPECT_EQ(n, N);
	if (other)
		pa_diag("%d records other than samples", other);
	/* the helper writes records; it adds nothing to O's count */
	EXPECT_EQ(pa_read_one(out), 0);
	pa_bpf_output_rig_close(&g);
	pa_ring_unmap(&r);
	close(out);
	close(ft.fd);
	close(ft.warm_fd);
}
