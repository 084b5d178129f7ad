#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>

/*
 * A BPF_PROG_TYPE_PERF_EVENT program on a page-fault sampler S (period 1)
 * of a thread calls bpf_perf_event_read_value() on slots of a
 * BPF_MAP_TYPE_PERF_EVENT_ARRAY of 4 that it cannot read, each with the
 * buffer filled with a pattern first. get_map_perf_counter() and
 * perf_event_read_local() refuse, and the helper then zeroes the buffer
 * (all `size` bytes of it):
 * - flags outside BPF_F_INDEX_MASK: -EINVAL;
 * - index 4 == max_entries: -E2BIG;
 * - slot 1, never filled: -ENOENT;
 * - slot 2, a counter of another task (the main thread): -EINVAL;
 * - slot 3, a pinned counter of this thread that is disabled (not on this
 *   CPU): -EBUSY;
 * - slot 0 (S) with size 32, not sizeof(struct bpf_perf_event_value): -EINVAL.
 * A first read of slot 0 (S itself) gives the run's key: S's count i.
 */

#define N 16
#define NREAD 7
#define ENT 40			/* one read: ret, counter, enabled, running, spare */

/*
 * For read j (flags[j], size[j]): the helper fills the size[j] bytes at fp - NREAD*ENT +
 * ENT*j + 8, and its return value goes to the 8 bytes before; then the
 * NREAD*ENT bytes go to result[key], key = the counter of read 0.
 */
static struct pa_bpf_prog prog;

static void build(int perf_map, int result_map, const uint64_t *flags,
		  const int *size)
{
	const int v = -NREAD * ENT;	/* the value, on the stack */

	for (int j = 0; j < NREAD; j++) {
		for (int k = 8; k < ENT; k += 8)	/* buf and spare = pattern */
			pa_bpf_emit(&prog, 0x7a, 10, 0, v + ENT * j + k, 0x5a5a5a5a);
		pa_bpf_ld_imm64(&prog, 1, 1, (uint64_t)perf_map);	/* r1 = &perf_map */
		pa_bpf_ld_imm64(&prog, 2, 0, flags[j]);		/* r2 = flags: the index */
		pa_bpf_emit(&prog, 0xbf, 3, 10, 0, 0);		/* r3 = fp */
		pa_bpf_emit(&prog, 0x07, 3, 0, 0, v + ENT * j + 8);	/* r3 += buf */
		pa_bpf_emit(&prog, 0xb7, 4, 0, 0, size[j]);		/* r4 = size */
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
	.assertion = "bpf_perf_event_read_value() returns a negative errno and zeroes all buf_size bytes of buf where it cannot read: flags outside BPF_F_INDEX_MASK -EINVAL, an index past max_entries -E2BIG, an empty BPF_MAP_TYPE_PERF_EVENT_ARRAY slot -ENOENT, an event of another task -EINVAL, a pinned event that is not running on this CPU -EBUSY, buf_size other than sizeof(struct bpf_perf_event_value) -EINVAL",
	.ref = "include/uapi/linux/bpf.h, bpf_perf_event_read_value(): \"a negative error in case of failure\"; kernel/trace/bpf_trace.c bpf_perf_event_read_value(), get_map_perf_counter(); kernel/events/core.c perf_event_read_local() (\"If this is a per-task event, it must be for current\", \"If this is a pinned event it must be running on this CPU\")",
	.alone = true,
	.covers = "ioctl.SET_BPF attr.pinned errno.EINVAL errno.E2BIG errno.ENOENT errno.EBUSY",
	.features = "bpf",
	.root = true,		/* BPF_PROG_LOAD of a tracing type */
	.caps = PA_CAP(PA_CAP_SYS_ADMIN),
	.min_kernel = "4.15",	/* bpf_perf_event_read_value() */
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr cattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	/* what each read asks, and what it must return */
	const uint64_t flags[NREAD] = { 0, 1ULL << 32, 4, 1, 2, 3, 0 };
	const int size[NREAD] = { 24, 24, 24, 24, 24, 24, 32 };
	const int want[NREAD] = { 0, -EINVAL, -E2BIG, -ENOENT, -EINVAL, -EBUSY, -EINVAL };
	uint64_t res[NREAD * ENT / 8];
	struct pa_fault_thread ft = { 0 };
	int perf_map, result_map, fd, other, pinned;

	close(pa_bpf_load_perf_event(0));	/* SKIP where the type is missing */
	pa_fault_thread_start(&ft, N, 1, &attr, &cattr);
	other = ASSERT_OPEN(&cattr, 0, -1, -1, 0);	/* the main thread's */
	cattr.pinned = 1;				/* and stays disabled */
	pinned = ASSERT_OPEN(&cattr, ft.t.tid, -1, -1, 0);

	perf_map = pa_bpf_map_create(4 /* BPF_MAP_TYPE_PERF_EVENT_ARRAY */, 4, 4, 4);
	ASSERT_OK(pa_bpf_map_elem(2, perf_map, 0, &ft.fd));
	ASSERT_OK(pa_bpf_map_elem(2, perf_map, 2, &other));
	ASSERT_OK(pa_bpf_map_elem(2, perf_map, 3, &pinned));
	result_map = pa_bpf_map_create(2 /* BPF_MAP_TYPE_ARRAY */, 4, NREAD * ENT, N + 1);
	build(perf_map, result_map, flags, size);
	fd = pa_bpf_prog_load(&prog, 7 /* BPF_PROG_TYPE_PERF_EVENT */);
	ASSERT_OK(ioctl(ft.fd, PERF_EVENT_IOC_SET_BPF, fd));

	pa_fault_thread_run(&ft);
	EXPECT_EQ(pa_read_one(ft.fd), N);
	for (uint32_t i = 1; i <= N; i++) {
		ASSERT_OK(pa_bpf_map_elem(1, result_map, i, res));
		EXPECT_EQ((int64_t)res[0], 0);	/* S itself, the key */
		EXPECT_EQ(res[1], i);
		for (int j = 1; j < NREAD; j++) {
			const uint64_t *e = res + j * ENT / 8;

			if (!pa_check_cmp(PA_VAL((int64_t)e[0]), PA_EQ, PA_VAL((int64_t)want[j]),
					  "ret", "want", __FILE__, __LINE__))
				pa_diag("run %u, read %d (flags %#llx): %s, expected %s", i, j,
					(unsigned long long)flags[j],
					pa_errno_name((int)-(int64_t)e[0]), pa_errno_name(-want[j]));
			/* zeroed: counter, enabled, running (and the spare
			 * word only where size was 32) */
			EXPECT_EQ(e[1], 0);
			EXPECT_EQ(e[2], 0);
			EXPECT_EQ(e[3], 0);
			EXPECT_EQ(e[4], size[j] == 32 ? 0 : 0x5a5a5a5a);
		}
	}
	close(fd);
	close(result_map);
	close(perf_map);
	close(pinned);
	close(other);
	close(ft.fd);
	close(ft.warm_fd);
}
