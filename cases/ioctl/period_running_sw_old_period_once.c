#include "perfabi.h"


#define OLD	16
#define NEW	4

/*
 * A software event scheduled back in starts a new period
 * (perf_swevent_add() -> perf_swevent_set_period() from hw.sample_period),
 * which takes the due overflow PERIOD left and the old period with it: a
 * try switched out between PERIOD and the first fault after it (this
 * thread's switches, getrusage(RUSAGE_THREAD)) says nothing and is run
 * again, as in period_running_ends_current_period. A switch later on
 * changes nothing here: the old period is then already under way. Only
 * preemption (and a fault that blocks in reclaim) is the environment's:
 * PERIOD blocking (a voluntary switch across the ioctl) in every try is a
 * FAIL, with nothing to wait for on a correct kernel (pa_period_old_once(),
 * the sequence for every implementation).
 */
/* n fresh pages touched: n page faults */
static void faults(int n)
{
	pa_touch_pages(n);
}

PERFABI_CASE(
	.assertion = "Finding: after PERF_EVENT_IOC_PERIOD on a running software sampling event, the first event overflows at once, the next overflow comes at the P-th event after the ioctl, P being the old period (as if the old period restarted at the ioctl), and only from then on every new period",
	.ref = "kernel/events/core.c __perf_event_period() sets period_left to 0; perf_swevent_set_period() computes the next period from hw.last_period, which still holds the old period once; perf_event_open(2) PERF_EVENT_IOC_PERIOD says only that the new period takes effect immediately",
	.covers = "ioctl.PERIOD attr.sample_period record.SAMPLE",
	.min_kernel = "3.14",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, OLD);

	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	pa_period_old_once(&attr, NEW, faults);
}
