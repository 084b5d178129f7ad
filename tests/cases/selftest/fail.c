#include "perfabi.h"
/* Harness self-test: a failing check must make the case fail. */
PERFABI_CASE(.assertion = "selftest: fails") {
	EXPECT_EQ(1 + 1, 3);
}
