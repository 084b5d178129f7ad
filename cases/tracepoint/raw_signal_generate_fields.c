#include "perfabi.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define TARGET_NAME	"pa-sig-target"
#define SIG		SIGUSR2
#define SI_ERRNO	4321	/* si_errno as the sender gives it */

struct send_res {
	pid_t target;
	long ret;
	int err;
};

/* rt_sigqueueinfo() with SI_QUEUE and a chosen si_errno: both are
 * recorded as given. Process-directed: group 1. */
static void do_send(void *arg)
{
	struct send_res *r = arg;
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = SIG;
	si.si_code = SI_QUEUE;
	si.si_errno = SI_ERRNO;
	si.si_pid = getpid();
	si.si_uid = getuid();
	errno = 0;
	r->ret = syscall(SYS_rt_sigqueueinfo, r->target, SIG, &si);
	r->err = errno;
}

/*
 * A thread that is not the main thread queues SIG to a child process that
 * blocks it (so it is queued, not ignored): the raw entry of
 * signal:signal_generate, recorded in the sender, names the signal, the
 * siginfo's errno and code, the target's comm and pid, group 1 (sent to
 * the process) and result 0 (TRACE_SIGNAL_DELIVERED: queued).
 */
PERFABI_CASE(
	.assertion = "the PERF_SAMPLE_RAW entry of signal:signal_generate for an rt_sigqueueinfo() to a process that blocks the signal, read at the offsets of its tracefs format file, holds common_type = the tracepoint id, common_pid = the sending thread, sig, errno = si_errno and code = SI_QUEUE as sent, comm and pid of the target, group = 1, result = 0 (delivered)",
	.ref = "include/trace/events/signal.h TRACE_EVENT(signal_generate), TP_STORE_SIGINFO, enum TRACE_SIGNAL_DELIVERED; kernel/signal.c __send_signal_locked(), do_rt_sigqueueinfo(); perf_event_open(2) PERF_SAMPLE_RAW; tracefs events/signal/signal_generate/format",
	.covers = "type.TRACEPOINT sample.RAW sample.TID",
	.tracefs = true,
) {
	/* counting the kernel, then RAW of a tracepoint without CAP_ANY */
	int want = pa_expected_errno_or(PA_NEED_KERNEL,
					pa_expected_errno(PA_NEED_RAW_TRACEPOINT));
	struct send_res res = { -1, 0, 0 };
	int ready[2], st;
	struct pa_tp_raw tr;
	sigset_t set, old;
	bool opened;
	char c;

	if (!pa_tp_raw_setup(&tr, "signal", "signal_generate", want))
		return;

	/* the target: blocks SIG, names itself, says so, waits to be killed */
	ASSERT_OK(pipe2(ready, O_CLOEXEC));
	sigemptyset(&set);
	sigaddset(&set, SIG);
	ASSERT_OK(sigprocmask(SIG_BLOCK, &set, &old));
	res.target = fork();
	ASSERT_GE(res.target, 0);
	if (res.target == 0) {
		prctl(PR_SET_NAME, TARGET_NAME, 0, 0, 0);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	ASSERT_OK(sigprocmask(SIG_SETMASK, &old, NULL));
	close(ready[1]);
	ASSERT_EQ(read(ready[0], &c, 1), 1);
	close(ready[0]);

	opened = pa_tp_raw_run(&tr, NULL, do_send, &res);
	kill(res.target, SIGKILL);
	waitpid(res.target, &st, 0);
	if (!opened)
		return;
	EXPECT_EQ(res.ret, 0);
	if (res.ret)
		pa_diag("rt_sigqueueinfo: %s", strerror(res.err));
	while (pa_tp_raw_next(&tr)) {
		const void *raw = tr.s.raw;
		uint32_t size = tr.s.var.raw_size;

		PA_TP_EXPECT_INT(&tr.fmt, raw, size, "sig", SIG);
		PA_TP_EXPECT_INT(&tr.fmt, raw, size, "errno", SI_ERRNO);
		PA_TP_EXPECT_INT(&tr.fmt, raw, size, "code", SI_QUEUE);
		PA_TP_EXPECT_STR(&tr.fmt, raw, size, "comm", TARGET_NAME);
		PA_TP_EXPECT_INT(&tr.fmt, raw, size, "pid", res.target);
		PA_TP_EXPECT_INT(&tr.fmt, raw, size, "group", 1);
		PA_TP_EXPECT_INT(&tr.fmt, raw, size, "result", 0);
	}
	pa_tp_raw_end(&tr, 1);
}
