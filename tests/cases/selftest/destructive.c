#include "perfabi.h"
/* Harness self-test: a destructive case runs only when allowed, and never
 * inside its known-bug range. */
PERFABI_CASE(.assertion = "selftest: destructive",
	     .destructive = true,
	     .fix = { .commit = "0123456789ab", .subject = "selftest", .release = "9.9" },
	     .xfail = { .from = "1.0", .to = "2.0", .why = "selftest", .fix = "0123456789ab" }) {
	EXPECT_EQ(1, 1);
}
