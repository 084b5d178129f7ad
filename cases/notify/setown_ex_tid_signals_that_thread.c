#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

/*
 * F_SETOWN_EX with F_OWNER_TID routes the overflow signal to that one
 * thread (perf_event_open(2), BUGS: "The F_SETOWN_EX option to fcntl(2) is
 * needed to properly get overflow signals in threads"; fs/fcntl.c: the
 * owner's pid type is PIDTYPE_PID). The event counts the main thread's
 * page faults; the owner is a second thread that waits in read(). Neither
 * thread blocks SIGRTMIN, so a signal sent to the whole process would be
 * taken by the main thread (the one the pid names), not the worker.
 *
 * The handler records gettid() and its si_code/si_fd and writes a byte to
 * a pipe, so the main thread waits for the signal with a bounded poll().
 */
static int note[2], stop[2];
static volatile pid_t worker_tid, handler_tid;
static volatile int handled, handler_code, handler_fd;

static void on_sig(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;

	(void)sig;
	(void)uc;
	handler_tid = (pid_t)syscall(SYS_gettid);
	handler_code = si->si_code;
	handler_fd = si->si_fd;
	handled++;
	if (write(note[1], "s", 1) != 1)
		handled += 1000;	/* shows up as a wrong count */
	errno = saved;
}

static void *worker(void *unused)
{
	char c;

	(void)unused;
	worker_tid = (pid_t)syscall(SYS_gettid);
	if (write(note[1], "t", 1) != 1)
		return NULL;
	/* wait, taking signals, until told to stop */
	while (read(stop[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

PERFABI_CASE(
	.assertion = "with F_SETOWN_EX F_OWNER_TID naming another thread, an overflow of an event on the main thread is signalled to that thread "
		     "(the handler runs with its tid), not to the main thread",
	.ref = "perf_event_open(2), BUGS: \"The F_SETOWN_EX option to fcntl(2) is needed to properly get overflow signals in threads. "
	       "This was introduced in Linux 2.6.32\"; fcntl(2) F_SETOWN_EX, F_OWNER_TID",
	.covers = "fd.F_SETOWN_EX fd.O_ASYNC attr.sample_period",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct f_owner_ex owner, back;
	struct sigaction sa;
	struct pollfd p;
	pthread_t th;
	pid_t me = (pid_t)syscall(SYS_gettid);
	char c;
	int fd;

	ASSERT_OK(pipe(note));
	ASSERT_OK(pipe(stop));
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sig;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	ASSERT_OK(sigaction(SIGRTMIN, &sa, NULL));
	ASSERT_EQ(pthread_create(&th, NULL, worker, NULL), 0);
	ASSERT_EQ(read(note[0], &c, 1), 1);
	ASSERT_NE(worker_tid, me);

	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	owner.type = F_OWNER_TID;
	owner.pid = worker_tid;
	ASSERT_OK(fcntl(fd, F_SETOWN_EX, &owner));
	ASSERT_OK(fcntl(fd, F_GETOWN_EX, &back));
	EXPECT_EQ(back.type, F_OWNER_TID);
	EXPECT_EQ(back.pid, worker_tid);
	ASSERT_OK(fcntl(fd, F_SETSIG, SIGRTMIN));
	ASSERT_OK(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	p.fd = note[0];
	p.events = POLLIN;
	p.revents = 0;
	if (poll(&p, 1, 10000) != 1) {
		pa_fail("no signal handled within 10 s of an overflow");
		pa_abort();
	}
	ASSERT_EQ(read(note[0], &c, 1), 1);
	pa_diag("handler ran in tid %d (main %d, worker %d): si_code %d, si_fd %d",
		(int)handler_tid, (int)me, (int)worker_tid, handler_code, handler_fd);
	EXPECT_EQ(handler_tid, worker_tid);
	EXPECT_NE(handler_tid, me);
	EXPECT_EQ(handler_code, POLL_IN);
	EXPECT_EQ(handler_fd, fd);
	ASSERT_EQ(write(stop[1], "x", 1), 1);
	pthread_join(th, NULL);
	close(fd);
}
