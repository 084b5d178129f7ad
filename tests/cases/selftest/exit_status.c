#include "perfabi.h"
/* Harness self-test: a body that exits with a status of its own fails,
 * even with every check passed. */
PERFABI_CASE(.assertion = "selftest: exits 3") {
	EXPECT_TRUE(true);
	fflush(NULL);
	exit(3);
}
