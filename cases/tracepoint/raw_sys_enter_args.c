#include "perfabi.h"

#include <sys/syscall.h>

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
	/* counting the kernel; syscall events are TRACE_EVENT_FL_CAP_ANY:
	 * their RAW data needs no more on a per-task event */
	int want = pa_expected_errno(PA_NEED_KERNEL);
	static const uint64_t args[] = { ARG_FD, ARG_OFFSET, ARG_WHENCE };
	struct lseek_res res = { 0, 0 };
	const struct pa_tp_field *nr_f;
	struct pa_tp_raw tr;
	int first;

	if (!pa_tp_raw_setup(&tr, "syscalls", "sys_enter_lseek", want))
		return;
	nr_f = pa_tp_field(&tr.fmt, "__syscall_nr");
	ASSERT_TRUE(nr_f != NULL);
	first = (int)(nr_f - tr.fmt.f) + 1;
	/* lseek(fd, offset, whence): three argument fields */
	ASSERT_EQ(tr.fmt.nr - first, 3);
	if (!pa_tp_raw_run(&tr, NULL, do_lseek, &res))
		return;
	EXPECT_EQ(res.ret, -1);
	EXPECT_EQ(res.err, EBADF);
	while (pa_tp_raw_next(&tr)) {
		const void *raw = tr.s.raw;
		uint32_t size = tr.s.var.raw_size;

		PA_TP_EXPECT_INT(&tr.fmt, raw, size, "__syscall_nr", SYS_lseek);
		for (int i = 0; i < 3; i++) {
			const struct pa_tp_field *f = pa_tp_need(&tr.fmt, tr.fmt.f[first + i].name,
							   size);

			/* an unsigned long slot each */
			EXPECT_EQ(f->size, (int)sizeof(unsigned long));
			if (!pa_check_cmp(PA_VAL(pa_tp_get_u64(raw, f)), PA_EQ,
					  PA_VAL(args[i]), "raw argument field",
					  "args[i]", __FILE__, __LINE__))
				pa_diag("argument %d: field '%s' at offset %d",
					i, f->name, f->offset);
		}
	}
	pa_tp_raw_end(&tr, 1);
}
