#include "perfabi.h"
#include <fcntl.h>

PERFABI_CASE(
	.assertion = "/proc/sys/kernel/perf_event_paranoid exists and every user can read it (its existence is the documented test for perf support); only root may write it",
	.ref = "perf_event_open(2), \"The existence of the perf_event_paranoid file is the official method for determining if a kernel supports perf_event_open()\"",
	.covers = "sysctl.perf_event_paranoid",
	.privileged = true,
) {
	char buf[32];
	int fd;

	ASSERT_OK(pa_sysctl_read("kernel/perf_event_paranoid", buf, sizeof(buf)));
	EXPECT_EQ(atoi(buf), pa_paranoid());
	if (geteuid() != 0) {
		fd = open("/proc/sys/kernel/perf_event_paranoid", O_WRONLY);
		EXPECT_EQ(fd, -1);
		EXPECT_EQ(errno, EACCES);
		if (fd >= 0)
			close(fd);
	}
}
