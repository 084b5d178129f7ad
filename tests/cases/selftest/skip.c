#include "perfabi.h"
/* Harness self-test: an unmet requirement is a skip with its reason. */
PERFABI_CASE(.assertion = "selftest: skips", .pmu = "no_such_pmu") {
	pa_fail("the body of a skipped case ran");
}
