#include "perfabi.h"
/* Harness self-test: a case without .assertion is refused before it runs. */
PERFABI_CASE(.ref = "selftest") {
	EXPECT_TRUE(true);
}
