#include "perfabi.h"

/* 64-byte aligned, so offset k below has exactly the low bits k */
static volatile unsigned char buf[64] __attribute__((aligned(64)));

PERFABI_CASE(
	.assertion = "x86: a data breakpoint (W or RW) of bp_len 1, 2, 4 or 8 is accepted exactly when bp_addr is a multiple of bp_len, else EINVAL; an execute breakpoint (bp_len sizeof(long)) is accepted at any address",
	.ref = "arch/x86/kernel/hw_breakpoint.c hw_breakpoint_arch_parse(): align = len - 1 for LEN_2/4/8, 0 for LEN_1 and for X (X86_BREAKPOINT_LEN_X == LEN_1), address & align -> -EINVAL (the man page does not say)",
	.alone = true,
	.covers = "attr.bp_addr attr.bp_len attr.bp_type errno.EINVAL",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
	static const uint32_t types[] = { HW_BREAKPOINT_W, HW_BREAKPOINT_RW };
	static const uint64_t lens[] = { 1, 2, 4, 8 };
	struct perf_event_attr a;
	int fd, bad = 0, opens = 0, refused = 0;

#if !defined(__x86_64__)
	pa_skip("the alignment rule checked here is x86-64's (LEN_8 needs CONFIG_X86_64)");
#endif
	/* One slot is all the loop needs: each breakpoint is closed before
	 * the next opens, and a refused one gives its slot back
	 * (register_perf_hw_breakpoint(): release_bp_slot() when the parse
	 * fails). Whether one is free is the environment's, so it is seen
	 * first; an ENOSPC after that is a slot the loop leaked, unless
	 * something outside this case took them all meanwhile. */
	a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&buf[0], 8);
	fd = pa_perf_open(&a, 0, -1, -1, 0);
	if (fd < 0 && errno == ENOSPC)
		pa_bp_enospc("no breakpoint slot was free to this task before the first open");
	if (fd >= 0)
		close(fd);
	for (unsigned t = 0; t < 2; t++)
		for (unsigned l = 0; l < 4; l++)
			for (unsigned off = 0; off < 8; off++) {
				int want = off % lens[l] ? EINVAL : 0;

				a = pa_bp_attr(types[t], (const void *)&buf[off], lens[l]);
				fd = pa_perf_open(&a, 0, -1, -1, 0);
				if (fd < 0 && errno == ENOSPC)
					pa_bp_enospc("ENOSPC for type %u len %llu at 64-aligned + %u after %d opens (%d of them refused), each closed at once",
						     types[t], (unsigned long long)lens[l], off,
						     opens, refused);
				opens++;
				refused += fd < 0;
				if ((fd >= 0 ? 0 : errno) != want) {
					pa_diag("type %u len %llu at 64-aligned + %u: %s, expected %s",
						types[t], (unsigned long long)lens[l], off,
						fd >= 0 ? "an fd" : pa_errno_name(errno),
						want ? pa_errno_name(want) : "an fd");
					bad++;
				}
				if (fd >= 0)
					close(fd);
			}
	/* an execute breakpoint has no alignment to keep */
	for (unsigned off = 0; off < 8; off++) {
		a = pa_bp_attr(HW_BREAKPOINT_X, (const void *)&buf[off], sizeof(long));
		fd = pa_perf_open(&a, 0, -1, -1, 0);
		if (fd < 0 && errno == ENOSPC)
			pa_bp_enospc("ENOSPC for an execute breakpoint at 64-aligned + %u after %d opens (%d of them refused), each closed at once",
				     off, opens, refused);
		opens++;
		if (fd < 0) {
			pa_diag("execute breakpoint at 64-aligned + %u: %s, expected an fd",
				off, pa_errno_name(errno));
			bad++;
		}
		if (fd >= 0)
			close(fd);
	}
	EXPECT_EQ(bad, 0);
}
