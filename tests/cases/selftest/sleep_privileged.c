#include "perfabi.h"
/* Harness self-test: a privilege-sensitive case that takes a while, so a
 * run can be interrupted while perf_event_paranoid is changed. */
PERFABI_CASE(.assertion = "selftest: sleeps", .privileged = true, .timeout = 60) {
	sleep(getenv("PERFABI_SELFTEST_SLEEP") ? atoi(getenv("PERFABI_SELFTEST_SLEEP")) : 0);
	EXPECT_TRUE(true);
}
