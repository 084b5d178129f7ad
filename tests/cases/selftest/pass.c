#include "perfabi.h"
/* Harness self-test: a case that passes. */
PERFABI_CASE(.assertion = "selftest: passes") {
	EXPECT_EQ(1 + 1, 2);
}
