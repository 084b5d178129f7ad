#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_TYPE_RAW takes a model-specific config: the core PMU's "
		     "instructions (or cycles) event as sysfs spells it "
		     "(events/ + format/) opens with type PERF_TYPE_RAW and counts > 0",
	.ref = "perf_event_open(2), PERF_TYPE_RAW; "
	       "sysfs-bus-event_source-devices-events/-format",
	.covers = "type.RAW attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	static const char *const names[] = {
		"instructions", "inst_retired", "cpu-cycles", "cpu_cycles",
	};
	const char *pmu = pa_core_pmu_name();
	uint64_t cfg[3], n;
	size_t i;
	int fd;

	if (!pmu)
		pa_skip("no core PMU in sysfs");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!pa_pmu_event_config(pmu, names[i], cfg))
			break;
	if (i == sizeof(names) / sizeof(names[0]))
		pa_skip("%s/events/ lists no instructions or cycles event", pmu);
	if (cfg[1] || cfg[2])
		pa_skip("%s/events/%s needs config1/config2", pmu, names[i]);
	pa_diag("%s/%s -> raw config %#llx", pmu, names[i], (unsigned long long)cfg[0]);
	fd = pa_hw_open_or_skip(PERF_TYPE_RAW, cfg[0]);
	n = pa_count_over(fd, pa_work_loop, 10);
	pa_diag("%llu", (unsigned long long)n);
	EXPECT_GT(n, 0);
}
