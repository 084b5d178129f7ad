#include "perfabi.h"

#include <sys/wait.h>

/*
 * 12ae030d54ef: the ftrace:function event (the function tracer as a
 * tracepoint) was refused to an unprivileged user only where kernel
 * profiling was (perf_event_paranoid > 1); at 1 or 0 anybody could have
 * every kernel function traced. Since the fix it needs what a RAW
 * tracepoint sample needs: paranoid -1, or CAP_PERFMON (CAP_SYS_ADMIN
 * before 5.8). So at paranoid 1 and 0 a user without capabilities gets
 * EPERM, while another tracepoint opens for the same user with the same
 * attr (the refusal is the function event's own).
 */
static int try_open(uint64_t id)
{
	struct perf_event_attr attr = pa_tp_attr(id);
	int fd;

	attr.exclude_kernel = 1;
	fd = pa_perf_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* err[0]: the function event's errno (0: opened), err[1]: the control's */
static void open_as_user(uint64_t fn_id, uint64_t tp_id, int err[2])
{
	int pfd[2], st;
	pid_t child;

	ASSERT_OK(pipe(pfd));
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		close(pfd[0]);
		pa_become_fresh_uid();
		err[0] = try_open(fn_id);
		err[1] = try_open(tp_id);
		_exit(write(pfd[1], err, 2 * sizeof(int)) == 2 * sizeof(int) ? 0 : 1);
	}
	close(pfd[1]);
	err[0] = err[1] = -1;
	EXPECT_EQ(read(pfd[0], err, 2 * sizeof(int)), (ssize_t)(2 * sizeof(int)));
	close(pfd[0]);
	ASSERT_EQ(waitpid(child, &st, 0), child);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

PERFABI_CASE(
	.assertion = "an unprivileged user (no capabilities) is refused the ftrace:function tracepoint with EPERM at perf_event_paranoid 1 and 0, not only at 2, while syscalls:sys_enter_getppid with the same attr opens for that user",
	.ref = "\"perf/ftrace: Fix paranoid level for enabling function tracer\" 12ae030d54ef (3.13, CVE-2013-2930): kernel/trace/trace_event_perf.c perf_trace_event_perm() refuses the function event unless paranoid -1 or privileged (now perf_allow_tracepoint())",
	.alone = true,
	.covers = "type.TRACEPOINT sysctl.perf_event_paranoid errno.EPERM",
	.fix = { .commit = "12ae030d54ef", .subject = "perf/ftrace: Fix paranoid level for enabling function tracer", .release = "3.13", .cve = "CVE-2013-2930" },
	.root = true,	/* sets perf_event_paranoid, then drops to a fresh uid */
	.tracefs = true,
	.xfail = {
		.from = "3.3",	/* ftrace:function through perf (ced39002f5ea) */
		.to = "3.13",
		.why = "perf_trace_event_perm() refused the function event only where perf_paranoid_kernel(): at paranoid 1 or 0 any user could open it",
		.fix = "12ae030d54ef",
	},
) {
	static const char *const levels[] = { "1", "0" };
	uint64_t fn_id = (uint64_t)pa_ftrace_function_id_or_skip();
	uint64_t tp_id = (uint64_t)pa_tp_id_or_skip("syscalls", "sys_enter_getppid");
	int err[2];

	for (unsigned i = 0; i < 2; i++) {
		ASSERT_OK(pa_sysctl_write("kernel/perf_event_paranoid", levels[i]));
		open_as_user(fn_id, tp_id, err);
		pa_diag("paranoid %s: ftrace:function %s, sys_enter_getppid %s",
			levels[i], err[0] ? pa_errno_name(err[0]) : "opened",
			err[1] ? pa_errno_name(err[1]) : "opened");
		EXPECT_EQ(err[0], EPERM);
		EXPECT_EQ(err[1], 0);
	}
}
