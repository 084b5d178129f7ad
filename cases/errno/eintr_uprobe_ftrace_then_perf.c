#include "perfabi.h"

#include <fcntl.h>

/*
 * A uprobe trace event is handled either by ftrace or by perf, not both:
 * with the event enabled through tracefs (TP_FLAG_TRACE), opening it as
 * a perf tracepoint makes trace_uprobe_register(TRACE_REG_PERF_REGISTER)
 * -> probe_event_enable(file == NULL) return -EINTR. Once ftrace lets go
 * of it, perf may have it. The probe is on a function of this case that
 * nothing calls while it is on.
 */
#define GROUP "pa_group_eintr"

__attribute__((noinline)) void pa_eintr_target_fn(void);
__attribute__((noinline)) void pa_eintr_target_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

PERFABI_CASE(
	.assertion = "opening a uprobe trace event as a perf event while ftrace has it enabled fails with EINTR (perf and ftrace handling cannot be mixed); once ftrace disabled it, the same open succeeds",
	.ref = "perf_event_open(2), EINTR: \"Returned when trying to mix perf and ftrace handling for a uprobe\"; kernel/trace/trace_uprobe.c probe_event_enable(): TP_FLAG_TRACE set and file == NULL -> -EINTR",
	.alone = true,	/* tracefs probe definitions are global */
	.covers = "errno.EINTR type.TRACEPOINT",
	.root = true,
	.tracefs = true,
	.min_kernel = "3.5",
) {
	long off = pa_self_sym_offset("pa_eintr_target_fn");
	struct perf_event_attr attr;
	char path[512], name[64];
	long id;
	int fd;

	if (pa_uprobe_event_add(GROUP, 'p', pa_self_exe(), off, name, sizeof(name))) {
		pa_fail("the kernel refused the uprobe event: %s", pa_errno_name(errno));
		return;
	}
	id = pa_tracepoint_id(GROUP, name);
	ASSERT_GE(id, 0);
	snprintf(path, sizeof(path), "%s/events/%s/%s/enable", pa_tracefs(), GROUP, name);
	ASSERT_OK(write_str(path, "1"));
	attr = pa_tp_attr((uint64_t)id);
	attr.exclude_kernel = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINTR);
	ASSERT_OK(write_str(path, "0"));
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
}
