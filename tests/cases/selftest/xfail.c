#include "perfabi.h"
/* Harness self-test: a failure inside a known-bug range is an xfail. */
PERFABI_CASE(.assertion = "selftest: known bug",
	     .xfail = { .from = "0.0", .why = "selftest", .fix = "none" }) {
	EXPECT_EQ(1, 2);
}
