#include "perfabi.h"

#include <sys/ioctl.h>

#define K 1000000ULL	/* pa_loop3() iterations */

/*
 * The PMU's own event number for retired instructions, as its sysfs
 * events/ directory spells it (armv8_pmuv3: inst_retired = event=0x08),
 * names the same counter whether it comes as PERF_TYPE_RAW or with the
 * PMU's dynamic type (its sysfs "type"), and the generic
 * PERF_COUNT_HW_INSTRUCTIONS maps to it: perf_init_event() hands
 * PERF_TYPE_RAW to the core PMU, armpmu_map_event() takes a raw config
 * for PERF_TYPE_RAW and for the PMU's own type (armpmu_map_raw_event()),
 * and armv8_pmuv3_perf_map[] maps PERF_COUNT_HW_INSTRUCTIONS to
 * ARMV8_PMUV3_PERFCTR_INST_RETIRED.
 *
 * The three in one group (the same intervals), user space only, on a PMU
 * that counts every instruction (QEMU -icount shift=0, where QEMU lists
 * inst_retired): the three values are equal exactly, and K more iterations
 * of a 3-instruction loop add exactly 3K. Elsewhere the case SKIPs.
 */
static int open_typed(uint32_t type, uint64_t config, int lead)
{
	struct perf_event_attr a = pa_hw_attr(config);

	a.type = type;
	a.disabled = 0;
	a.read_format = PA_HW_GROUP_FMT;
	return pa_hw_open_attr(&a, 0, -1, lead);
}

PERFABI_CASE(
	.assertion = "the core PMU's sysfs instructions event (armv8_pmuv3 inst_retired) opened as PERF_TYPE_RAW and with the "
		     "PMU's sysfs type counts the same as PERF_COUNT_HW_INSTRUCTIONS: in one group the three user-space values "
		     "are equal exactly, and K more loop iterations add exactly 3K, on a PMU that counts every instruction",
	.ref = "perf_event_open(2), PERF_TYPE_RAW, \"dynamic PMU\" type from /sys/bus/event_source/devices/*/type; "
	       "Documentation/ABI/testing/sysfs-bus-event_source-devices-events; drivers/perf/arm_pmu.c armpmu_map_event(); "
	       "drivers/perf/arm_pmuv3.c armv8_pmuv3_perf_map[]",
	.covers = "hw.INSTRUCTIONS type.RAW type.dynamic",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	const char *pmu = pa_core_pmu_name();
	uint64_t cfg[3], a[3], b[3];
	int lead, raw, dyn, type;

	pa_need_exact_pmu();
	if (!pmu)
		pa_skip("no core PMU in sysfs");
	if (pa_pmu_event_config(pmu, "inst_retired", cfg))
		pa_skip("%s/events/ lists no inst_retired", pmu);
	if (cfg[1] || cfg[2])
		pa_skip("%s/events/inst_retired needs config1/config2", pmu);
	type = pa_pmu_type(pmu);
	pa_diag("%s (type %d) inst_retired: config %#llx", pmu, type, (unsigned long long)cfg[0]);
	pa_loop3(1);
	lead = pa_hw_open_member(PERF_COUNT_HW_INSTRUCTIONS, -1, PA_HW_GROUP_FMT);
	raw = open_typed(PERF_TYPE_RAW, cfg[0], lead);
	dyn = open_typed((uint32_t)type, cfg[0], lead);
	pa_hw_group_loop(lead, 1, a, 3);	/* the path once before */
	pa_hw_group_loop(lead, K, a, 3);
	pa_hw_group_loop(lead, 2 * K, b, 3);
	pa_diag("generic, raw, %s: %llu %llu %llu over %llu iterations, %llu %llu %llu over %llu", pmu,
		(unsigned long long)a[0], (unsigned long long)a[1], (unsigned long long)a[2], (unsigned long long)K,
		(unsigned long long)b[0], (unsigned long long)b[1], (unsigned long long)b[2], (unsigned long long)(2 * K));
	EXPECT_EQ(a[1], a[0]);
	EXPECT_EQ(a[2], a[0]);
	EXPECT_EQ(b[1], b[0]);
	EXPECT_EQ(b[2], b[0]);
	EXPECT_EQ(b[0] - a[0], 3 * K);
	close(dyn);
	close(raw);
	close(lead);
}
