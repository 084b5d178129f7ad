#include "perfabi.h"
/* Harness self-test: processes the body leaves behind, even in a new
 * session, are killed when the case ends. */
PERFABI_CASE(.assertion = "selftest: leaves a daemon behind") {
	if (fork() == 0) {
		setsid();
		if (fork() == 0) {
			execl("/bin/sleep", "sleep", "4242", (char *)NULL);
			_exit(1);
		}
		_exit(0);
	}
	usleep(100000);
	EXPECT_TRUE(true);
}
