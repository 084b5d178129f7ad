#include "perfabi.h"

/*
 * PERF_EVENT_IOC_PAUSE_OUTPUT on a kprobe PMU event's ring. A kprobe on
 * the getppid syscall's entry function, on this task, with sample_period
 * 1 writes one sample per call from the kprobe's pre-handler
 * (kprobe_dispatcher() -> kprobe_perf_func() -> perf_trace_buf_submit()
 * -> perf_tp_event() -> perf_swevent_event() -> __perf_event_overflow()
 * -> perf_event_output_forward()), before the syscall returns, so
 * data_head is exact right after each call. exclude_kernel is clear (a
 * kprobe carries kernel registers, which perf_tp_event_match() would drop
 * with it); where the kprobe rules (counting the kernel, then
 * perfmon_capable() in perf_kprobe_event_init()) refuse the open, the
 * refusal is the check.
 * While the ring is paused, __perf_output_begin() (kernel/events/
 * ring_buffer.c) finds rb->paused, counts the record in rb->lost and in
 * the event's lost_samples (read_format PERF_FORMAT_LOST, 6.0+) and
 * writes nothing, while perf_swevent_event() has already added the hit
 * to the count. After PAUSE_OUTPUT 0 the next output first writes
 * PERF_RECORD_LOST {id, lost} with all those drops
 * (local_xchg(&rb->lost, 0)), then the sample. Period 1 never throttles
 * (perf_swevent_overflow(event, 1, ...) passes throttle 0 for its one
 * overflow); a THROTTLE record all the same goes to
 * pa_throttled_in_burst().
 *
 * 4 hits, PAUSE_OUTPUT 1, 10 hits, PAUSE_OUTPUT 0, 3 hits: data_head
 * stands at 4 samples while paused; the ring then holds 4 samples, one
 * PERF_RECORD_LOST {id, 10}, 3 samples, each of this thread; the count
 * reads 14 while paused and 17 at the end, and LOST reads 10 while paused
 * and 10 at the end (before 6.0, where the bit is EINVAL, only the
 * record accounts for the drops). The check is
 * pa_hit_expect_pause_output_lost() (harness/lib/hitchecks_b.c).
 */
PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PAUSE_OUTPUT 1 on the ring of a sampling kprobe PMU event (a kprobe on the getppid syscall's entry function) (period 1) drops the samples of the getppid() calls made while paused (data_head does not move) while the event goes on counting them: 4 getppid() calls, pause, 10 getppid() calls, resume, 3 getppid() calls read 14 while paused and 17 at the end; the ring holds 4 samples, one PERF_RECORD_LOST {id, lost = 10}, then 3 samples; read_format PERF_FORMAT_LOST (6.0+) reads 10",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PAUSE_OUTPUT (since Linux 4.7): \"A paused ring-buffer does not prevent generation of samples, but simply discards them. The discarded samples are considered lost, and cause a PERF_RECORD_LOST sample to be generated when possible\"; read_format PERF_FORMAT_LOST (since Linux 6.0); PERF_RECORD_LOST {id, lost}; kernel/events/ring_buffer.c __perf_output_begin() (rb->paused: rb->lost++, lost_samples++; then a PERF_RECORD_LOST with local_xchg(&rb->lost, 0)); kernel/events/core.c perf_tp_event(), perf_swevent_event(); kernel/trace/trace_kprobe.c kprobe_perf_func()",
	.covers = "ioctl.PAUSE_OUTPUT read_format.LOST record.LOST record.SAMPLE sample.TID type.dynamic attr.kprobe_func",
	PA_HIT_NEEDS_KPROBE,
) {
	pa_hit_expect_pause_output_lost(PA_HIT_KPROBE);
}
