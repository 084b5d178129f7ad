#include "perfabi.h"

#include <sys/syscall.h>

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_QUERY_BPF with an ids array too small for the attached programs (0 < ids_len < prog_cnt) fails with ENOSPC after filling prog_cnt with the number attached and ids with the first ids_len ids of the full list, in its order (nothing past them; ids_len is left as it was); ids_len 0 asks only for the count and succeeds",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_QUERY_BPF (since Linux 4.16); kernel/bpf/core.c bpf_prog_array_copy_info(): \"return early if user requested only program count\", else -ENOSPC when more programs than ids_len; bpf_prog_array_copy_core() fills ids from the start of the array, the order a full query lists; kernel/trace/bpf_trace.c perf_event_query_prog_array() copies prog_cnt and ids_len ids back either way",
	.alone = true,
	.covers = "ioctl.QUERY_BPF ioctl.SET_BPF type.TRACEPOINT errno.ENOSPC",
	.features = "bpf",
	.tracefs = true,
	.root = true,		/* loading a tracing program: CAP_BPF + CAP_PERFMON */
	.min_kernel = "4.16",
) {
	long tp = pa_tp_id_or_skip("syscalls", "sys_enter_getpgid");
	struct perf_event_attr a = pa_tp_attr((uint64_t)tp);
	static struct {
		struct perf_event_query_bpf q;
		uint32_t ids[64];
	} b;
	static uint32_t full[64];
	uint32_t ida, idb, base, i;
	bool has_a = false, has_b = false;
	int pa, pb, ea, eb;

	pa = pa_bpf_load_tracepoint(1, &ida);
	pb = pa_bpf_load_tracepoint(1, &idb);
	ea = ASSERT_OPEN(&a, 0, -1, -1, 0);
	eb = ASSERT_OPEN(&a, 0, -1, -1, 0);
	/* programs someone else attached to this tracepoint count too */
	memset(&b, 0, sizeof(b));
	ASSERT_OK(ioctl(ea, PERF_EVENT_IOC_QUERY_BPF, &b.q));
	base = b.q.prog_cnt;
	ASSERT_LE(base, 60);
	ASSERT_OK(ioctl(ea, PERF_EVENT_IOC_SET_BPF, pa));
	ASSERT_OK(ioctl(eb, PERF_EVENT_IOC_SET_BPF, pb));

	/* room for all: accepted; its ids, in the kernel's order, are what
	 * "the first ids_len ids" of a short query refers to */
	memset(&b, 0xff, sizeof(b));
	b.q.ids_len = base + 2;
	EXPECT_OK(ioctl(ea, PERF_EVENT_IOC_QUERY_BPF, &b.q));
	EXPECT_EQ(b.q.prog_cnt, base + 2);
	memcpy(full, b.ids, sizeof(full));
	for (i = 0; i < base + 2; i++) {
		has_a |= full[i] == ida;
		has_b |= full[i] == idb;
	}
	ASSERT_TRUE(has_a && has_b);	/* the reference list is real */

	/* one id short: the first base + 1 ids of that list, in its order
	 * (bpf_prog_array_copy_core() walks the array from its start) */
	memset(&b, 0xff, sizeof(b));
	b.q.ids_len = base + 1;
	EXPECT_ERRNO(ioctl(ea, PERF_EVENT_IOC_QUERY_BPF, &b.q), ENOSPC);
	EXPECT_EQ(b.q.prog_cnt, base + 2);
	EXPECT_EQ(b.q.ids_len, base + 1);	/* not rewritten */
	for (i = 0; i < base + 1; i++)
		EXPECT_EQ(b.ids[i], full[i]);
	EXPECT_EQ(b.ids[base + 1], 0xffffffffu);

	/* only the count */
	memset(&b, 0xff, sizeof(b));
	b.q.ids_len = 0;
	EXPECT_OK(ioctl(ea, PERF_EVENT_IOC_QUERY_BPF, &b.q));
	EXPECT_EQ(b.q.prog_cnt, base + 2);
	EXPECT_EQ(b.ids[0], 0xffffffffu);
	close(eb);
	close(ea);
	close(pb);
	close(pa);
}
