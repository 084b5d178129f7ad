#include "perfabi.h"

/* Harness self-test (runner/tpkeep.c, tests/integration/tp_keep.sh): a
 * case that declared .tracepoint_unkept names sched:sched_switch and
 * sched:sched_waking (and, with the kprobe PMU, a kprobe on getppid's
 * entry), and the runner keeps none of them. */
PERFABI_CASE(.assertion = "selftest: names tracepoints, declared unkept", .tracepoint_unkept = true) {
	if (!getenv("PERFABI_TRACEPOINT_KEEP"))
		pa_skip("no $PERFABI_TRACEPOINT_KEEP: this runner keeps no tracepoint (not root, or no tracefs)");
	if (pa_tracepoint_id("sched", "sched_switch") < 0 || pa_tracepoint_id("sched", "sched_waking") < 0)
		pa_skip("no sched:sched_switch or sched:sched_waking tracepoint");
	if (pa_pmu_type("kprobe") >= 0)
		pa_kprobe_attr(pa_syscall_symbol("getppid"), false);	/* nor a kprobe */
	EXPECT_TRUE(true);
}
