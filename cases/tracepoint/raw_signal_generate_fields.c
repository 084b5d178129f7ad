#include "perfabi.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <signal.h>
#include <sys/ioctl.h>
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
	long id = pa_tp_id_or_skip("signal", "signal_generate");
	struct perf_event_attr attr = pa_tp_attr((uint64_t)id);
	/* counting the kernel, then RAW of a tracepoint without CAP_ANY */
	int want = pa_expected_errno_or(PA_NEED_KERNEL,
					pa_expected_errno(PA_NEED_RAW_TRACEPOINT));
	const struct perf_event_header *h;
	struct send_res res = { -1, 0, 0 };
	int fd, n = 0, ready[2], st;
	struct pa_tp_format fmt;
	struct pa_thread t;
	struct pa_sample s;
	struct pa_ring r;
	sigset_t set, old;
	char c;

	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	if (!pa_tp_format_or_skip("signal", "signal_generate", &fmt, want)) {
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want);
		return;
	}
	EXPECT_EQ(fmt.id, id);

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

	pa_thread_start(&t, NULL, do_send, &res);
	fd = EXPECT_OPEN_RESULT(&attr, t.tid, -1, -1, 0, want);
	if (fd >= 0) {
		pa_ring_map(&r, fd, 4);
		ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	}
	pa_thread_run(&t);
	if (fd >= 0)
		ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	kill(res.target, SIGKILL);
	waitpid(res.target, &st, 0);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	EXPECT_EQ(res.ret, 0);
	if (res.ret)
		pa_diag("rt_sigqueueinfo: %s", strerror(res.err));

	while ((h = pa_ring_find(&r, PERF_RECORD_SAMPLE))) {
		n++;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)t.tid);
		pa_tp_expect_common(&fmt, s.raw, s.var.raw_size, id, t.tid);
		PA_TP_EXPECT_INT(&fmt, s.raw, s.var.raw_size, "sig", SIG);
		PA_TP_EXPECT_INT(&fmt, s.raw, s.var.raw_size, "errno", SI_ERRNO);
		PA_TP_EXPECT_INT(&fmt, s.raw, s.var.raw_size, "code", SI_QUEUE);
		PA_TP_EXPECT_STR(&fmt, s.raw, s.var.raw_size, "comm", TARGET_NAME);
		PA_TP_EXPECT_INT(&fmt, s.raw, s.var.raw_size, "pid", res.target);
		PA_TP_EXPECT_INT(&fmt, s.raw, s.var.raw_size, "group", 1);
		PA_TP_EXPECT_INT(&fmt, s.raw, s.var.raw_size, "result", 0);
	}
	EXPECT_EQ(n, 1);
	pa_ring_unmap(&r);
	close(fd);
}
