#include "perfabi.h"
/* Harness self-test: a case that pins itself (a global action) without
 * .alone fails when the runner runs it beside others (PERFABI_PARALLEL=1),
 * and passes otherwise. */
PERFABI_CASE(.assertion = "selftest: global action without .alone") {
	EXPECT_EQ(pa_pin_cpu(0), 0);
}
