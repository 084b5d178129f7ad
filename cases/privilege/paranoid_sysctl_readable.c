#include "perfabi.h"
#include <fcntl.h>

PERFABI_CASE(
	.assertion = "/proc/sys/kernel/perf_event_paranoid exists and every user can read it (its existence is the documented test for perf support): it reads back the level root wrote (the runner's level for this cell); only root may write it",
	.ref = "perf_event_open(2), \"The existence of the perf_event_paranoid file is the official method for determining if a kernel supports perf_event_open()\"",
	.covers = "sysctl.perf_event_paranoid",
	.privileged = true,
) {
	const char *set = getenv("PERFABI_PARANOID_SET");
	char buf[32], *end;
	long v;
	int fd;

	ASSERT_OK(pa_sysctl_read("kernel/perf_event_paranoid", buf, sizeof(buf)));
	v = strtol(buf, &end, 10);
	EXPECT_TRUE(end != buf && (*end == '\n' || !*end));	/* one integer */
	/* run by perfabi-run, which wrote this cell's level as root */
	if (set)
		EXPECT_EQ(v, strtol(set, NULL, 10));
	else
		pa_diag("not run by perfabi-run: the level read (%ld) is not compared", v);
	if (geteuid() != 0) {
		fd = open("/proc/sys/kernel/perf_event_paranoid", O_WRONLY);
		EXPECT_EQ(fd, -1);
		EXPECT_EQ(errno, EACCES);
		if (fd >= 0)
			close(fd);
	}
}
