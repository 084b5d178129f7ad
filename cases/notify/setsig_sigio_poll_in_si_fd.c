#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>

/*
 * O_ASYNC with F_SETOWN and F_SETSIG(SIGIO): an overflow sends SIGIO with
 * the extra information fcntl(2) promises for a non-zero F_SETSIG: si_code
 * POLL_IN (perf_event_open(2): "In this case, POLL_IN is indicated"), si_fd
 * the event's fd, si_band POLLIN | POLLRDNORM (fs/fcntl.c band_table).
 * The event's fd is moved to number 40 or above first, so that si_fd is
 * not a small number by chance. SIGIO is blocked and fetched with sigtimedwait(), bounded at 10 s (the
 * signal is sent from irq_work).
 */
/* Wait up to ms for sig (blocked): its number, or 0 at the timeout. */
static int wait_sig(int sig, siginfo_t *si, int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	sigset_t set;
	int s;

	sigemptyset(&set);
	sigaddset(&set, sig);
	do
		s = sigtimedwait(&set, si, &ts);
	while (s < 0 && errno == EINTR);
	if (s < 0 && errno != EAGAIN) {
		pa_fail("sigtimedwait: %s", pa_errno_name(errno));
		pa_abort();
	}
	return s < 0 ? 0 : s;
}

static void block_sig(int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	ASSERT_OK(sigprocmask(SIG_BLOCK, &set, NULL));
}

PERFABI_CASE(
	.assertion = "with O_ASYNC, F_SETOWN and F_SETSIG(SIGIO), an overflow of a sampling event sends SIGIO with si_code POLL_IN, si_fd the event's fd "
		     "and si_band POLLIN|POLLRDNORM",
	.ref = "perf_event_open(2), Overflow handling: \"In this case, POLL_IN is indicated\"; fcntl(2) F_SETSIG: \"Any other value (including SIGIO) ... "
	       "additional info is available to the signal handler\", si_fd; fs/fcntl.c send_sigio_to_task()",
	.covers = "fd.F_SETSIG fd.O_ASYNC attr.sample_period",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	siginfo_t si;
	int fd0, fd, sig;

	block_sig(SIGIO);
	attr.disabled = 1;
	fd0 = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	/* a distinctive fd number for si_fd */
	fd = ASSERT_OK(fcntl(fd0, F_DUPFD_CLOEXEC, 40));
	close(fd0);
	ASSERT_OK(fcntl(fd, F_SETOWN, getpid()));
	ASSERT_OK(fcntl(fd, F_SETSIG, SIGIO));
	ASSERT_OK(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	memset(&si, 0, sizeof(si));
	sig = wait_sig(SIGIO, &si, 10000);
	if (!sig) {
		pa_fail("no SIGIO within 10 s of an overflow");
		pa_abort();
	}
	pa_diag("SIGIO: si_code %d, si_fd %d (fd %d), si_band %#lx", si.si_code, si.si_fd, fd, (long)si.si_band);
	EXPECT_EQ(si.si_signo, SIGIO);
	EXPECT_EQ(si.si_code, POLL_IN);
	EXPECT_EQ(si.si_fd, fd);
	EXPECT_EQ(si.si_band, (long)(POLLIN | POLLRDNORM));
	close(fd);
}
