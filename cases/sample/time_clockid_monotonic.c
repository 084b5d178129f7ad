#include "perfabi.h"

/* The shared check is described in harness/lib/clock.c. */
PERFABI_CASE(
	.assertion = "use_clockid with clockid CLOCK_MONOTONIC: the PERF_SAMPLE_TIME of a page-fault sample and the sample_id_all trailer time of a PERF_RECORD_COMM (prctl(PR_SET_NAME)) each lie between clock_gettime(CLOCK_MONOTONIC) readings taken around that event, and the times of the event's records are non-decreasing in ring order",
	.ref = "perf_event_open(2), clockid: \"If use_clockid is set, then this field selects which internal Linux timer to use for timestamps ... CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_REALTIME, CLOCK_BOOTTIME, and CLOCK_TAI currently supported\"; kernel/events/core.c perf_event_set_clock(): CLOCK_MONOTONIC -> ktime_get_mono_fast_ns, used by perf_event_clock() for sample and sample_id time; use_clockid since 4.1 (34f439278cef)",
	.covers = "attr.use_clockid attr.clockid sample.TIME attr.sample_id_all record.COMM attr.comm record.SAMPLE sample.TID sample.ADDR sample.ID",
	.min_kernel = "4.1",
	.probe = pa_probe_self_perf,
) {
	pa_check_clockid_times(CLOCK_MONOTONIC, "CLOCK_MONOTONIC");
}
