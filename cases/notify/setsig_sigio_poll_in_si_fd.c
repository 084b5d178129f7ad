#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>

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

	pa_sig_block(SIGIO);
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
	sig = pa_sig_wait(SIGIO, &si, 10000);
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
