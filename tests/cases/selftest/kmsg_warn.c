#include "perfabi.h"
#include <fcntl.h>
/*
 * Harness self-test: a body that makes the kernel log a WARN-like line
 * (written to /dev/kmsg, or to $PERFABI_KMSG in kmsg's record format) and
 * passes: the runner must fail it. Root only for the real /dev/kmsg.
 */
PERFABI_CASE(.assertion = "selftest: logs a WARN-like kernel line and passes") {
	const char *path = getenv("PERFABI_KMSG");
	const char *text = path ? "4,999999,0,-;WARNING: CPU: 0 PID: 1 at perfabi self-test (a WARN-like line)\n"
				: "<4>WARNING: CPU: 0 PID: 1 at perfabi self-test (a WARN-like line, not a kernel bug)\n";
	int fd = open(path ? path : "/dev/kmsg", O_WRONLY | O_APPEND | O_CLOEXEC);

	if (fd < 0)
		pa_skip("cannot write %s: %s", path ? path : "/dev/kmsg", pa_errno_name(errno));
	ASSERT_EQ(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}
