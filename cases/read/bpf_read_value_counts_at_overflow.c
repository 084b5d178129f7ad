#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>

/*
 * A BPF_PROG_TYPE_PERF_EVENT program on a page-fault sampler S (period 1)
 * of a thread reads two events of that thread out of a
 * BPF_MAP_TYPE_PERF_EVENT_ARRAY with bpf_perf_event_read_value():
 * - slot 0: S itself. The software event adds the fault to its count before
 *   the overflow runs the program (perf_swevent_event()), so the i-th run
 *   reads counter i; S is ACTIVE, never multiplexed: enabled == running,
 *   and > 0: the thread waits until S's time_enabled moved before its
 *   first store (pg.timed: perf_clock() can stand still a while on a guest,
 *   and all N faults would rightly read 0 within that while);
 * - slot 1: C, a page-fault counter the thread enabled and disabled before
 *   S ran: an OFF event neither counts nor accumulates time, so every run
 *   reads exactly what read(2) returns for it afterwards.
 * The program stores {ret, buf} of both reads into an ARRAY map at key
 * = the counter it read for S; the user reads keys 1..N.
 */

#define N 16
#define NREAD 2
#define ENT 40			/* one read: ret, counter, enabled, running, spare */

/*
 * For read j (flags[j]): the helper fills the 24 bytes at fp - NREAD*ENT +
 * ENT*j + 8, and its return value goes to the 8 bytes before; then the
 * NREAD*ENT bytes go to result[key], key = the counter of read 0.
 */
static struct pa_bpf_prog prog;

static void build(int perf_map, int result_map, const uint64_t *flags)
{
	const int v = -NREAD * ENT;	/* the value, on the stack */

	for (int j = 0; j < NREAD; j++) {
		pa_bpf_emit(&prog, 0x7a, 10, 0, v + ENT * j + 32, 0x5a5a5a5a);	/* *(u64 *)(fp + spare) = pattern */
		pa_bpf_ld_imm64(&prog, 1, 1, (uint64_t)perf_map);	/* r1 = &perf_map */
		pa_bpf_ld_imm64(&prog, 2, 0, flags[j]);		/* r2 = flags: the index */
		pa_bpf_emit(&prog, 0xbf, 3, 10, 0, 0);		/* r3 = fp */
		pa_bpf_emit(&prog, 0x07, 3, 0, 0, v + ENT * j + 8);	/* r3 += buf */
		pa_bpf_emit(&prog, 0xb7, 4, 0, 0, 24);		/* r4 = sizeof(struct bpf_perf_event_value) */
		pa_bpf_emit(&prog, 0x85, 0, 0, 0, 55);		/* call bpf_perf_event_read_value */
		pa_bpf_emit(&prog, 0x7b, 10, 0, v + ENT * j, 0);	/* *(u64 *)(fp + ret) = r0 */
	}
	pa_bpf_emit(&prog, 0x79, 1, 10, v + 8, 0);		/* r1 = read 0's counter */
	pa_bpf_emit(&prog, 0x63, 10, 1, v - 8, 0);		/* *(u32 *)(fp + v - 8) = r1: the key */
	pa_bpf_map_update_fp(&prog, result_map, v - 8, v);	/* result[key] = value */
	pa_bpf_emit(&prog, 0xb7, 0, 0, 0, 0);			/* r0 = 0: no sample of S */
	pa_bpf_emit(&prog, 0x95, 0, 0, 0, 0);			/* exit */
}

PERFABI_CASE(
	.assertion = "bpf_perf_event_read_value() in a BPF_PROG_TYPE_PERF_EVENT program fills {counter, enabled, running} of the event at the BPF_MAP_TYPE_PERF_EVENT_ARRAY index in flags and returns 0: run i of the program on a thread's period-1 page-fault sampler S reads S's own count i with enabled == running > 0 (never decreasing, at most what read(2) gives after), and reads a disabled counter of that thread as exactly the count, time_enabled and time_running read(2) gives",
	.ref = "include/uapi/linux/bpf.h, bpf_perf_event_read_value() (since Linux 4.15, commit 908432ca84fc); kernel/trace/bpf_trace.c get_map_perf_counter(); kernel/events/core.c perf_event_read_local(), perf_swevent_event() (the count is added before the overflow)",
	.alone = true,
	.covers = "ioctl.SET_BPF attr.sample_period sw.PAGE_FAULTS read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.features = "bpf",
	.root = true,		/* BPF_PROG_LOAD of a tracing type */
	.caps = PA_CAP(PA_CAP_SYS_ADMIN),
	.min_kernel = "4.15",	/* bpf_perf_event_read_value() */
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr cattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t flags[NREAD] = { 0, 1 };
	uint64_t res[NREAD * ENT / 8], s_end[3], c_end[3], prev = 0;
	struct pa_fault_thread ft = { .pg.timed = true };
	int perf_map, result_map, fd;

	close(pa_bpf_load_perf_event(0));	/* SKIP where the type is missing */
	attr.read_format = cattr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
					       PERF_FORMAT_TOTAL_TIME_RUNNING;
	pa_fault_thread_start(&ft, N, 1, &attr, &cattr);

	perf_map = pa_bpf_map_create(4 /* BPF_MAP_TYPE_PERF_EVENT_ARRAY */, 4, 4, 2);
	ASSERT_OK(pa_bpf_map_elem(2, perf_map, 0, &ft.fd));
	ASSERT_OK(pa_bpf_map_elem(2, perf_map, 1, &ft.warm_fd));
	result_map = pa_bpf_map_create(2 /* BPF_MAP_TYPE_ARRAY */, 4, NREAD * ENT, N + 1);
	build(perf_map, result_map, flags);
	fd = pa_bpf_prog_load(&prog, 7 /* BPF_PROG_TYPE_PERF_EVENT */);
	ASSERT_OK(ioctl(ft.fd, PERF_EVENT_IOC_SET_BPF, fd));

	pa_fault_thread_run(&ft);
	pa_read_u64(ft.fd, s_end, 3);
	pa_read_u64(ft.warm_fd, c_end, 3);
	EXPECT_EQ(s_end[0], N);
	EXPECT_GE(c_end[0], N);		/* the stores, and the warm-up's own */
	for (uint32_t i = 1; i <= N; i++) {
		ASSERT_OK(pa_bpf_map_elem(1, result_map, i, res));
		/* read 0: S itself, at its i-th overflow */
		EXPECT_EQ((int64_t)res[0], 0);
		EXPECT_EQ(res[1], i);
		EXPECT_GT(res[2], 0);
		EXPECT_EQ(res[2], res[3]);	/* enabled == running */
		EXPECT_GE(res[2], prev);
		EXPECT_LE(res[2], s_end[1]);
		EXPECT_EQ(res[4], 0x5a5a5a5a);	/* 24 bytes written, no more */
		prev = res[2];
		/* read 1: C, disabled before S ran */
		EXPECT_EQ((int64_t)res[5], 0);
		EXPECT_EQ(res[6], c_end[0]);
		EXPECT_EQ(res[7], c_end[1]);
		EXPECT_EQ(res[8], c_end[2]);
		EXPECT_EQ(res[9], 0x5a5a5a5a);
	}
	close(fd);
	close(result_map);
	close(perf_map);
	close(ft.fd);
	close(ft.warm_fd);
}
