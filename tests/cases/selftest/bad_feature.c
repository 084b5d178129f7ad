#include "perfabi.h"
/* Harness self-test: a feature name the harness does not know is a defect
 * of the case (a failure), not a skip. */
PERFABI_CASE(.assertion = "selftest: declares an unknown feature", .features = "ns:mnt bogus") {
	EXPECT_TRUE(true);
}
