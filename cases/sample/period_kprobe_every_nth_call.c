#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>

#define PERIOD	4
#define SAMPLES	5
#define CALLS	(SAMPLES * PERIOD + 3)	/* 23: three calls into a 6th period */

/*
 * A kprobe hit reaches perf through kprobe_perf_func() ->
 * perf_trace_buf_submit() -> perf_tp_event() -> perf_swevent_event(), the
 * software events' period logic: period_left is armed to -sample_period
 * when the event is scheduled in (perf_trace_add() ->
 * perf_swevent_set_period()), each hit adds 1, and the hit that brings it
 * to 0 overflows and re-arms it. A sched-out/in in between keeps a period
 * under way (perf_swevent_set_period() leaves a negative period_left
 * alone), so no try needs repeating for a context switch.
 *
 * Without PERF_SAMPLE_PERIOD: with it and no freq, perf_swevent_event()
 * samples every hit (sample/period_sw_every_event). The probe sits on the
 * getppid syscall's entry function and the event on this task only; each
 * getppid() is followed by a getpid() (another function, not counted).
 * A kprobe fires with kernel registers, so exclude_kernel stays clear
 * (perf_tp_event_match() would drop every hit), and the open follows the
 * kprobe PMU's rules (pa_kprobe_expected_errno()): where they refuse it,
 * the refusal is what is checked. data_head is read after each call (the
 * control page, no syscall): the k-th sample must appear exactly at call
 * k * PERIOD.
 */
PERFABI_CASE(
	.assertion = "a kprobe sampling event with sample_period N (and no PERF_SAMPLE_PERIOD) overflows on exactly every N-th hit: a kprobe on the getppid syscall's entry function with period 4 writes its k-th sample at the (4k)-th getppid() call and no other, 5 samples over 23 calls, and counts all 23",
	.ref = "perf_event_open(2), sample_period: \"A 'sampling' event is one that generates an overflow notification every N events, where N is given by sample_period\"; kprobe_func (since Linux 4.17); kernel/trace/trace_kprobe.c kprobe_perf_func(); kernel/events/core.c perf_tp_event() -> perf_swevent_event() (period_left) and perf_swevent_set_period()",
	.covers = "type.dynamic attr.kprobe_func attr.sample_period record.SAMPLE sample.TID",
	.pmu = "kprobe",
	.min_kernel = "4.17",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr a = pa_kprobe_attr(pa_syscall_symbol("getppid"), false);
	int want = pa_kprobe_expected_errno();
	uint32_t pid = (uint32_t)getpid(), tid = (uint32_t)syscall(SYS_gettid);
	const struct perf_event_header *h;
	uint64_t rec, head[CALLS + 1], count;
	int fd, n = 0, throttled = 0;
	struct pa_sample s;
	struct pa_ring r;

	a.sample_period = PERIOD;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	rec = pa_sample_size(&a, NULL);
	fd = EXPECT_OPEN_RESULT(&a, 0, -1, -1, 0, want);
	if (want)
		return;		/* the refusal was the check */
	ASSERT_GE(fd, 0);
	pa_ring_map(&r, fd, 1);
	syscall(SYS_getppid);		/* disabled: not counted */
	ASSERT_EQ(pa_read_one(fd), 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	head[0] = pa_ring_head(&r);
	for (int i = 1; i <= CALLS; i++) {
		syscall(SYS_getppid);
		syscall(SYS_getpid);	/* another function: not probed */
		head[i] = pa_ring_head(&r);
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	syscall(SYS_getppid);		/* disabled again: not counted */
	count = pa_read_one(fd);

	while ((h = pa_ring_next(&r))) {
		if (h->type == PERF_RECORD_THROTTLE || h->type == PERF_RECORD_UNTHROTTLE) {
			throttled++;
			continue;
		}
		if (h->type != PERF_RECORD_SAMPLE) {
			pa_fail("unexpected record type %u", h->type);
			continue;
		}
		if (!pa_sample_parse(&a, h, &s))
			pa_abort();
		EXPECT_EQ(s.pid, pid);
		EXPECT_EQ(s.tid, tid);
		n++;
	}
	pa_ring_unmap(&r);
	close(fd);
	if (throttled)
		pa_throttled_in_burst(SAMPLES);

	EXPECT_EQ(count, CALLS);
	EXPECT_EQ(n, SAMPLES);
	for (int i = 0; i <= CALLS; i++)
		if (!pa_check_cmp(PA_VAL(head[i]), PA_EQ, PA_VAL((uint64_t)(i / PERIOD) * rec),
				  "data_head after the call", "(call / PERIOD) records",
				  __FILE__, __LINE__))
			pa_diag("after getppid() call %d of %d: data_head %llu, %d record(s) of %llu bytes expected",
				i, CALLS, (unsigned long long)head[i], i / PERIOD,
				(unsigned long long)rec);
}
