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

	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		struct perf_event_attr attr = pa_sw_attr(0);
		int fd;

		attr.type = evs[i].type;
		attr.config = evs[i].config;
		/* the plain generic event: whatever the hardware says */
		errno = 0;
		fd = pa_perf_open(&attr, 0, -1, -1, 0);
		pa_diag("type %u config %#llx without a PMU type: %s", attr.type,
			(unsigned long long)attr.config,
			fd >= 0 ? "opens" : pa_errno_name(errno));
		if (fd >= 0)
			close(fd);
		attr.config |= (uint64_t)PERF_TYPE_SOFTWARE << 32;
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, ENOENT);
	}
}
