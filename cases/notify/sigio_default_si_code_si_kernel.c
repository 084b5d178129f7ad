#include "perfabi.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>

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

	pa_sig_block(SIGIO);
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(fcntl(fd, F_SETOWN, getpid()));
	ASSERT_OK(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC));
	EXPECT_EQ(fcntl(fd, F_GETSIG), 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	memset(&si, 0, sizeof(si));
	sig = pa_sig_wait(SIGIO, &si, 10000);
	if (!sig) {
		pa_fail("no SIGIO within 10 s of an overflow");
		pa_abort();
	}
	pa_diag("SIGIO: si_code %d, si_fd %d", si.si_code, si.si_fd);
	EXPECT_EQ(si.si_signo, SIGIO);
	EXPECT_EQ(si.si_code, SI_KERNEL);
	close(fd);
}
