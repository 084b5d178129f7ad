#include "perfabi.h"

/*
 * PERF_EVENT_IOC_PAUSE_OUTPUT on a breakpoint event's ring. A write
 * watchpoint with sample_period 1 writes one sample per write (each with
 * PERF_SAMPLE_ADDR the watched address), from the #DB handler
 * (perf_bp_event() -> perf_swevent_event() -> __perf_event_overflow() ->
 * perf_event_output_forward()), so data_head is exact right after each
 * write. While the ring is paused, __perf_output_begin() finds rb->paused,
 * counts the record in rb->lost and in the event's lost_samples
 * (read_format PERF_FORMAT_LOST, 6.0+) and writes nothing; the event goes
 * on counting. After PAUSE_OUTPUT 0 the next output first writes
 * PERF_RECORD_LOST {id, lost = the dropped samples}
 * (local_xchg(&rb->lost, 0)), then the sample.
 *
 * 4 writes, PAUSE_OUTPUT 1, 10 writes, PAUSE_OUTPUT 0, 3 writes: data_head
 * stands at 4 samples while paused; the ring then holds exactly 4
 * samples, one PERF_RECORD_LOST {id, 10}, 3 samples, each of this thread
 * at the watched address; the count reads 14 while paused and 17 at the
 * end. Period 1 never throttles (perf_swevent_overflow(event, 1, ...)
 * passes throttle = 0). The check is pa_hit_expect_pause_output_lost()
 * (harness/lib/hitchecks_b.c).
 */
PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PAUSE_OUTPUT 1 on a sampling write watchpoint's ring (period 1) drops the samples of the writes made "
		     "while paused (data_head does not move) while the event goes on counting them: 4 writes, pause, 10 writes, resume, "
		     "3 writes read 14 while paused and 17 at the end; the ring holds 4 samples (each at the watched address), one "
		     "PERF_RECORD_LOST {id, lost = 10}, then 3 samples; read_format PERF_FORMAT_LOST (6.0+) reads 10",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PAUSE_OUTPUT (since Linux 4.7): \"A paused ring-buffer does not prevent generation of samples, but simply "
	       "discards them. The discarded samples are considered lost, and cause a PERF_RECORD_LOST sample to be generated when possible\"; "
	       "read_format PERF_FORMAT_LOST (since Linux 6.0); PERF_RECORD_LOST {id, lost}; kernel/events/ring_buffer.c "
	       "__perf_output_begin() (rb->paused -> rb->lost++, then a PERF_RECORD_LOST with local_xchg(&rb->lost, 0)); kernel/events/core.c "
	       "perf_bp_event()",
	.covers = "ioctl.PAUSE_OUTPUT read_format.LOST record.LOST record.SAMPLE sample.ADDR sample.TID type.BREAKPOINT",
	.min_kernel = "4.7",
	PA_HIT_NEEDS_WATCHPOINT,
) {
	pa_hit_expect_pause_output_lost(PA_HIT_WATCHPOINT);
}
