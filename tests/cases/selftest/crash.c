#include "perfabi.h"
#include <signal.h>
/* Harness self-test: a body killed by a signal fails, naming the signal. */
PERFABI_CASE(.assertion = "selftest: dies of SIGKILL") {
	EXPECT_TRUE(true);
	raise(SIGKILL);
}
