#include "perfabi.h"

#include <sys/syscall.h>
#include <sys/ioctl.h>

/* Three distinct arguments, none of them a valid descriptor or a value
 * another field holds: lseek() fails with EBADF and changes nothing. */
#define ARG_FD		1000003UL
#define ARG_OFFSET	0x0123456789abcdefUL
#define ARG_WHENCE	2UL		/* SEEK_END */

struct lseek_res {
	long ret;
	int err;
};

static void do_lseek(void *arg)
{
	struct lseek_res *r = arg;

	errno = 0;
	r->ret = syscall(SYS_lseek, ARG_FD, ARG_OFFSET, ARG_WHENCE);
	r->err = errno;
}

/*
 * A thread that is not the main thread calls lseek() with three known
 * arguments: the raw entry of syscalls:sys_enter_lseek holds the syscall
 * number and, in the format file's fields that follow __syscall_nr, the
 * arguments in order (each an unsigned long slot, whatever the declared
 * type: the format file gives the size).
 */
PERFABI_CASE(
	.assertion = "the PERF_SAMPLE_RAW entry of syscalls:sys_enter_lseek, read at the offsets of its tracefs format file, holds common_type = the tracepoint id, common_pid = the calling thread, __syscall_nr = SYS_lseek and the three arguments as passed, in the order of the fields after __syscall_nr",
	.ref = "kernel/trace/trace_syscalls.c perf_syscall_enter() (rec->nr = syscall_nr, syscall_get_arguments() into rec->args) and syscall_enter_define_fields(); perf_event_open(2) PERF_SAMPLE_RAW; tracefs events/syscalls/sys_enter_lseek/format",
	.covers = "type.TRACEPOINT sample.RAW sample.TID",
	.tracefs = true,
) {
	long id = pa_tp_id_or_skip("syscalls", "sys_enter_lseek");
	struct perf_event_attr attr = pa_tp_attr((uint64_t)id);
	/* counting the kernel; syscall events are TRACE_EVENT_FL_CAP_ANY:
	 * their RAW data needs no more on a per-task event */
	int want = pa_expected_errno(PA_NEED_KERNEL);
	static const uint64_t args[] = { ARG_FD, ARG_OFFSET, ARG_WHENCE };
	const struct perf_event_header *h;
	struct lseek_res res = { 0, 0 };
	const struct pa_tp_field *nr_f;
	struct pa_tp_format fmt;
	struct pa_thread t;
	struct pa_sample s;
	struct pa_ring r;
	int fd, n = 0, first;

	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	if (!pa_tp_format_or_skip("syscalls", "sys_enter_lseek", &fmt, want)) {
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want);
		return;
	}
	EXPECT_EQ(fmt.id, id);
	nr_f = pa_tp_field(&fmt, "__syscall_nr");
	ASSERT_TRUE(nr_f != NULL);
	first = (int)(nr_f - fmt.f) + 1;
	/* lseek(fd, offset, whence): three argument fields */
	ASSERT_EQ(fmt.nr - first, 3);
	pa_thread_start(&t, NULL, do_lseek, &res);
	fd = EXPECT_OPEN_RESULT(&attr, t.tid, -1, -1, 0, want);
	if (want) {
		pa_thread_run(&t);
		return;
	}
	ASSERT_GE(fd, 0);
	pa_ring_map(&r, fd, 4);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_thread_run(&t);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(res.ret, -1);
	EXPECT_EQ(res.err, EBADF);

	while ((h = pa_ring_find(&r, PERF_RECORD_SAMPLE))) {
		n++;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)t.tid);
		pa_tp_expect_common(&fmt, s.raw, s.var.raw_size, id, t.tid);
		PA_TP_EXPECT_INT(&fmt, s.raw, s.var.raw_size, "__syscall_nr", SYS_lseek);
		for (int i = 0; i < 3; i++) {
			const struct pa_tp_field *f = pa_tp_need(&fmt, fmt.f[first + i].name,
							   s.var.raw_size);

			/* an unsigned long slot each */
			EXPECT_EQ(f->size, (int)sizeof(unsigned long));
			if (!pa_check_cmp(PA_VAL(pa_tp_get_u64(s.raw, f)), PA_EQ,
					  PA_VAL(args[i]), "raw argument field",
					  "args[i]", __FILE__, __LINE__))
				pa_diag("argument %d: field '%s' at offset %d",
					i, f->name, f->offset);
		}
	}
	EXPECT_EQ(n, 1);
	pa_ring_unmap(&r);
	close(fd);
}
