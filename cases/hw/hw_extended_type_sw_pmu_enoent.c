#include "perfabi.h"

/*
 * For PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE the upper 32 bits of
 * config name the PMU that should count the generic event ("extended
 * type"; 0 keeps the default). Only PMUs that declare they take generic
 * events this way (PERF_PMU_CAP_EXTENDED_HW_TYPE: the hybrid x86 core
 * PMUs, arm64 PMUs) accept it; any other PMU named there, such as the
 * software PMU (type PERF_TYPE_SOFTWARE = 1, always registered), makes
 * the event invalid: ENOENT, before that PMU is asked and whatever
 * hardware the machine has (kernel/events/core.c perf_init_event()).
 * Control: the same generic events naming no PMU are not refused with
 * ENOENT for this reason (they fail, if at all, as the machine's
 * hardware decides), so only the upper bits make the difference.
 *
 * Old behaviour: perf_init_event() finds the named PMU by number in
 * pmu_idr, and in 6.1 (6.1.192's perf_pmu_register()) every PMU but the
 * software one was put there: type 1 then named no PMU, and the event, its
 * config masked to the generic event, went down the PMU list like one
 * naming none, so it opened wherever the plain event opens (seen on
 * 6.1-arm64 with its PMUv3; on a machine without a hardware PMU both fail
 * with ENOENT). 6.12.117 puts every PMU in pmu_idr. The first release in
 * between that does is not pinned here: on 6.2..6.11 either outcome is
 * taken, on 6.1 and before the old one, from 6.12 on the new one.
 */
PERFABI_CASE(
	.assertion = "a PERF_TYPE_HARDWARE or PERF_TYPE_HW_CACHE config whose upper 32 bits name a PMU without extended-type support (the software PMU, type 1) fails with ENOENT",
	.ref = "include/uapi/linux/perf_event.h \"attr.config layout for type PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE ... EEEEEEEE: PMU type ID\"; perf_event_open(2) ENOENT \"the type setting is not valid\"; kernel/events/core.c perf_init_event() (PERF_PMU_CAP_EXTENDED_HW_TYPE, 5.13)",
	.covers = "type.HARDWARE type.HW_CACHE attr.config errno.ENOENT",
	.min_kernel = "5.13",
	.probe = pa_probe_self_perf,
) {
	static const struct {
		uint32_t type;
		uint64_t config;
	} evs[] = {
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
		{ PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_L1D |
			(PERF_COUNT_HW_CACHE_OP_READ << 8) |
			(PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16) },
	};

	bool old_only = !pa_kernel_at_least("6.2"), new_only = pa_kernel_at_least("6.12");

	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		struct perf_event_attr attr = pa_sw_attr(0);
		int fd, plain_errno, ext;

		attr.type = evs[i].type;
		attr.config = evs[i].config;
		/* the plain generic event: whatever the hardware says */
		errno = 0;
		fd = pa_perf_open(&attr, 0, -1, -1, 0);
		plain_errno = fd >= 0 ? 0 : errno;
		pa_diag("type %u config %#llx without a PMU type: %s", attr.type,
			(unsigned long long)attr.config,
			fd >= 0 ? "opens" : pa_errno_name(errno));
		if (fd >= 0)
			close(fd);
		attr.config |= (uint64_t)PERF_TYPE_SOFTWARE << 32;
		if (new_only || plain_errno == ENOENT) {
			EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, ENOENT);
			continue;
		}
		errno = 0;
		fd = pa_perf_open(&attr, 0, -1, -1, 0);
		ext = fd >= 0 ? 0 : errno;
		if (fd >= 0)
			close(fd);
		pa_diag("with the software PMU's type in the upper bits: %s",
			ext ? pa_errno_name(ext) : "opens");
		if (old_only)
			EXPECT_EQ(ext, plain_errno);	/* as the plain event */
		else
			EXPECT_TRUE(ext == ENOENT || ext == plain_errno);
	}
}
