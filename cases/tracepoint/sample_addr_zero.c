#include "perfabi.h"

#include <sys/syscall.h>
#include <sys/ioctl.h>

extern char __executable_start[], etext[];

struct call_res {
	uint64_t ret_ip;
	long ppid;
};

/* getppid(); ret_ip gets the address the syscall returns to (0 where this
 * architecture's is not known here). */
static void do_getppid(void *arg)
{
	struct call_res *r = arg;

	r->ppid = pa_getppid_at(&r->ret_ip);
}

/*
 * PERF_SAMPLE_ADDR of a tracepoint: perf_tp_event() starts each sample
 * with perf_sample_data_init(&data, 0, 0) (no tracepoint hands perf an
 * address), so ADDR is not among the sample's flags and
 * perf_prepare_sample() writes 0. The fields around it (IP, TID before;
 * ID, PERIOD after) are checked too, so an ADDR written in the wrong place
 * fails. syscalls:sys_enter_* carry the user registers of the syscall, so
 * an exclude_kernel event sees them and any identity may run this.
 */
PERFABI_CASE(
	.assertion = "a tracepoint sample with PERF_SAMPLE_IP|TID|ADDR|ID|PERIOD has addr = 0: perf_tp_event() initialises the sample data with addr 0 and perf_prepare_sample() writes 0 for an address the event did not supply; ip = the syscall's return address, pid/tid = the sampled thread, id = the event id, period = 1",
	.ref = "kernel/events/core.c perf_tp_event(): perf_sample_data_init(&data, 0, 0), perf_prepare_sample(): ADDR not in sample_flags -> data->addr = 0; include/linux/perf_event.h perf_sample_data_init(); perf_event_open(2) PERF_SAMPLE_ADDR \"Records an address, if applicable\"",
	.covers = "type.TRACEPOINT sample.ADDR sample.IP sample.TID sample.ID sample.PERIOD",
	.tracefs = true,
) {
	long tp = pa_tp_id_or_skip("syscalls", "sys_enter_getppid");
	struct perf_event_attr attr = pa_tp_attr((uint64_t)tp);
	int want = pa_expected_errno(PA_NEED_SELF);
	const struct perf_event_header *h;
	struct call_res res = { 0, 0 };
	struct pa_thread t;
	struct pa_sample s;
	struct pa_ring r;
	uint64_t id = 0;
	int fd, n = 0;

	attr.exclude_kernel = 1;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
			   PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD;
	pa_thread_start(&t, NULL, do_getppid, &res);
	fd = EXPECT_OPEN_RESULT(&attr, t.tid, -1, -1, 0, want);
	if (want) {
		pa_thread_run(&t);
		return;
	}
	ASSERT_GE(fd, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 4);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_thread_run(&t);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(res.ppid, (long)getppid());

	while ((h = pa_ring_find(&r, PERF_RECORD_SAMPLE))) {
		n++;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ((size_t)h->size, sizeof(*h) + 5 * 8);
		if (res.ret_ip) {
			EXPECT_EQ(s.ip, res.ret_ip);
		} else {
			EXPECT_GE(s.ip, (uint64_t)(uintptr_t)__executable_start);
			EXPECT_LT(s.ip, (uint64_t)(uintptr_t)etext);
		}
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)t.tid);
		EXPECT_EQ(s.addr, 0u);
		EXPECT_EQ(s.id, id);
		EXPECT_EQ(s.period, 1u);
	}
	EXPECT_EQ(n, 1);
	pa_ring_unmap(&r);
	close(fd);
}
