#include "perfabi.h"
/*
 * Harness self-test: pa_sysctl_write() saves each knob's first value and
 * the harness puts it back after the body. Knobs here are files named by
 * absolute path: $PERFABI_SELFTEST_DIR/k0..k16, each holding "old<N>".
 * Writing one that cannot be read fails; a 17th knob is one too many.
 */
PERFABI_CASE(.assertion = "selftest: changes 16 knobs, refused a 17th") {
	const char *dir = getenv("PERFABI_SELFTEST_DIR");
	char path[512];

	ASSERT_TRUE(dir != NULL);
	snprintf(path, sizeof(path), "%s/absent", dir);
	EXPECT_EQ(pa_sysctl_write(path, "x"), -1);	/* nothing to save */
	for (int i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "%s/k%d", dir, i);
		EXPECT_EQ(pa_sysctl_write(path, "new"), 0);
		EXPECT_EQ(pa_sysctl_write(path, "newer"), 0);	/* saved once */
	}
	snprintf(path, sizeof(path), "%s/k16", dir);
	EXPECT_EQ(pa_sysctl_write(path, "new"), -1);	/* one too many: a failure */
}
