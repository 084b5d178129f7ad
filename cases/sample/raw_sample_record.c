#include "perfabi.h"
#include <sys/syscall.h>

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_RAW of a tracepoint returns the raw trace entry: a u32 size and the record, which starts with common_type (= the tracepoint id) and common_pid (= the thread)",
	.ref = "perf_event_open(2), PERF_SAMPLE_RAW \"...raw record data ... not documented as part of the ABI\" and tracefs events/*/*/format (common fields)",
	.covers = "sample.RAW type.TRACEPOINT",
	.tracefs = true,
) {
	long id = pa_tp_id_or_skip("syscalls", "sys_enter_getppid");
	struct perf_event_attr attr = pa_tp_attr((uint64_t)id);
	int want = pa_expected_errno(PA_NEED_KERNEL);
	struct pa_sample s;
	struct pa_ring r;
	uint16_t type;
	int32_t pid;
	int fd;

	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	pa_ring_map(&r, fd, 4);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	syscall(SYS_getppid);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_ring_sample(&r, &attr, &s);
	ASSERT_GE(s.var.raw_size, 8);
	memcpy(&type, s.raw, sizeof(type));
	memcpy(&pid, (const char *)s.raw + 4, sizeof(pid));
	EXPECT_EQ(type, (uint16_t)id);
	EXPECT_EQ(pid, (int32_t)syscall(SYS_gettid));
	EXPECT_EQ(s.tid, (uint32_t)syscall(SYS_gettid));
	close(fd);
}
