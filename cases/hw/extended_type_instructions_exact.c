#include "perfabi.h"

#include <sys/ioctl.h>

#define K 1000000ULL	/* pa_loop3() iterations */

/*
 * The extended hardware type: bits 32-63 of attr.config of a
 * PERF_TYPE_HARDWARE event may name the PMU it is for (include/uapi/linux/
 * perf_event.h: "EEEEEEEE: PMU type ID"). perf_init_event() takes the type
 * from there, masks config to PERF_HW_EVENT_MASK and opens the event on
 * that PMU only where the PMU has PERF_PMU_CAP_EXTENDED_HW_TYPE; otherwise
 * ENOENT. The arm PMU driver declares the capability since 6.6 ("perf:
 * arm_pmu: Add PERF_PMU_CAP_EXTENDED_HW_TYPE capability", armpmu_alloc());
 * x86 only on hybrid parts (cpu_core, cpu_atom; 5.13), never on the plain
 * "cpu" PMU.
 *
 * Where the rule says it opens: in one group with the plain
 * PERF_COUNT_HW_INSTRUCTIONS (the same intervals), user space only, on a
 * PMU that counts every instruction (QEMU -icount shift=0), the two values
 * are equal exactly and K more loop iterations add exactly 3K. Where it
 * says ENOENT, the open fails with ENOENT. Other PMUs SKIP.
 */
PERFABI_CASE(
	.assertion = "PERF_TYPE_HARDWARE with the core PMU's type in config bits 32-63 opens PERF_COUNT_HW_INSTRUCTIONS on "
		     "that PMU where it has PERF_PMU_CAP_EXTENDED_HW_TYPE (arm_pmu since 6.6) and counts exactly as the plain "
		     "event in one group (K more loop iterations add exactly 3K to both); without the capability: ENOENT",
	.ref = "include/uapi/linux/perf_event.h PERF_PMU_TYPE_SHIFT, \"attr.config layout for type PERF_TYPE_HARDWARE\"; "
	       "kernel/events/core.c perf_init_event(); drivers/perf/arm_pmu.c armpmu_alloc() (.capabilities "
	       "PERF_PMU_CAP_EXTENDED_HW_TYPE, 6.6); arch/x86/events/core.c init_hw_perf_events() (hybrid only)",
	.covers = "type.HARDWARE hw.INSTRUCTIONS errno.ENOENT",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	const char *pmu = pa_core_pmu_name();
	struct perf_event_attr at;
	uint64_t a[2], b[2];
	int lead, ext, type, want;

	pa_need_exact_pmu();
	if (!pmu)
		pa_skip("no core PMU in sysfs");
	type = pa_pmu_type(pmu);
	if (!strncmp(pmu, "armv8_pmuv3", 11))
		want = pa_since("6.6", "arm_pmu has PERF_PMU_CAP_EXTENDED_HW_TYPE") ? 0 : ENOENT;
	else if (!strcmp(pmu, "cpu_core"))
		want = pa_since("5.13", "hybrid x86 PMUs have PERF_PMU_CAP_EXTENDED_HW_TYPE") ? 0 : ENOENT;
	else if (!strcmp(pmu, "cpu"))
		want = ENOENT;
	else
		pa_skip("whether PMU %s takes an extended hardware type is not known here", pmu);
	pa_loop3(1);
	lead = pa_hw_open_member(PERF_COUNT_HW_INSTRUCTIONS, -1, PA_HW_GROUP_FMT);
	at = pa_hw_attr(((uint64_t)type << PERF_PMU_TYPE_SHIFT) | PERF_COUNT_HW_INSTRUCTIONS);
	at.disabled = 0;
	at.read_format = PA_HW_GROUP_FMT;
	pa_diag("%s: type %d, config %#llx", pmu, type, (unsigned long long)at.config);
	ext = EXPECT_OPEN_RESULT(&at, 0, -1, lead, PERF_FLAG_FD_CLOEXEC, want);
	if (ext < 0) {
		close(lead);
		return;
	}
	pa_hw_group_loop(lead, 1, a, 2);	/* the path once before */
	pa_hw_group_loop(lead, K, a, 2);
	pa_hw_group_loop(lead, 2 * K, b, 2);
	pa_diag("plain, extended: %llu %llu over %llu iterations, %llu %llu over %llu",
		(unsigned long long)a[0], (unsigned long long)a[1], (unsigned long long)K,
		(unsigned long long)b[0], (unsigned long long)b[1], (unsigned long long)(2 * K));
	EXPECT_EQ(a[1], a[0]);
	EXPECT_EQ(b[1], b[0]);
	EXPECT_EQ(b[1] - a[1], 3 * K);
	close(ext);
	close(lead);
}
