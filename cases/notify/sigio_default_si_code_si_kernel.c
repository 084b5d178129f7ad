#include "perfabi.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>

/*
 * O_ASYNC with F_SETOWN and no F_SETSIG: an overflow sends plain SIGIO.
 * fcntl(2) F_SETSIG: "A value of zero means to send the default SIGIO
 * signal. Any other value (including SIGIO) is the signal to send instead,
 * and in this case additional info is available to the signal handler";
 * the kernel sends the default one without that info (fs/fcntl.c
 * send_sigio_to_task(): do_send_sig_info(SIGIO, SEND_SIG_PRIV, ...)), so
 * its si_code is SI_KERNEL, not POLL_IN (that needs F_SETSIG: see
 * notify/setsig_sigio_poll_in_si_fd). SIGIO is blocked and fetched with
 * sigtimedwait(), bounded at 10 s (the signal is sent from irq_work).
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
	.assertion = "with O_ASYNC and F_SETOWN but no F_SETSIG, an overflow of a sampling event sends SIGIO to the owner, with si_code SI_KERNEL "
		     "(the default signal carries no POLL_IN code)",
	.ref = "perf_event_open(2), Overflow handling: \"the overflow events can be captured via a signal handler, by enabling I/O signaling on the file descriptor; "
	       "see the discussion of the F_SETOWN and F_SETSIG operations in fcntl(2)\"; fcntl(2) F_SETSIG; fs/fcntl.c send_sigio_to_task() (SEND_SIG_PRIV)",
	.covers = "fd.O_ASYNC attr.sample_period",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	siginfo_t si;
	int fd, sig;

	block_sig(SIGIO);
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(fcntl(fd, F_SETOWN, getpid()));
	ASSERT_OK(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC));
	EXPECT_EQ(fcntl(fd, F_GETSIG), 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	memset(&si, 0, sizeof(si));
	sig = wait_sig(SIGIO, &si, 10000);
	if (!sig) {
		pa_fail("no SIGIO within 10 s of an overflow");
		pa_abort();
	}
	pa_diag("SIGIO: si_code %d, si_fd %d", si.si_code, si.si_fd);
	EXPECT_EQ(si.si_signo, SIGIO);
	EXPECT_EQ(si.si_code, SI_KERNEL);
	close(fd);
}
