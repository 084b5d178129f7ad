#include "perfabi.h"

#include <fcntl.h>
#include <sys/resource.h>

/*
 * With RLIMIT_NOFILE lowered to the lowest free descriptor number, no
 * descriptor can be allocated: the event cannot get an fd.
 */
PERFABI_CASE(
	.assertion = "perf_event_open() fails with EMFILE when the process is at its open-file limit (RLIMIT_NOFILE lowered so that no descriptor is free)",
	.ref = "perf_event_open(2), EMFILE: \"Each opened event uses one file descriptor. If a large number of events are opened, the per-process limit on the number of open file descriptors will be reached\"",
	.covers = "errno.EMFILE",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct rlimit rl;
	int lowest = ASSERT_OK(open("/dev/null", O_RDONLY));

	ASSERT_OK(close(lowest));
	ASSERT_OK(getrlimit(RLIMIT_NOFILE, &rl));
	/* below the limit the event opens */
	close(ASSERT_OPEN(&attr, 0, -1, -1, 0));
	rl.rlim_cur = (rlim_t)lowest;
	ASSERT_OK(setrlimit(RLIMIT_NOFILE, &rl));
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EMFILE);
	rl.rlim_cur = (rlim_t)lowest + 1;
	ASSERT_OK(setrlimit(RLIMIT_NOFILE, &rl));
	close(ASSERT_OPEN(&attr, 0, -1, -1, 0));
}
