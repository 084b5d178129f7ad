#include "perfabi.h"

#include <fcntl.h>

/* Harness self-test (runner/tpkeep.c, tests/integration/tp_keep.sh): asks
 * the runner for kprobes: on getppid's entry twice (through
 * pa_kprobe_attr(): kept once), and, written to the FIFO by hand, on a
 * function no keepable syscall names, a path and a bare keyword (none
 * kept). A kretprobe attr on getpid's entry asks nothing. */
PERFABI_CASE(.assertion = "selftest: asks the runner to keep a kprobe on getppid's entry") {
	const char *fifo = getenv("PERFABI_TRACEPOINT_KEEP");
	int fd;

	if (!fifo)
		pa_skip("no $PERFABI_TRACEPOINT_KEEP: this runner keeps nothing (not root, or no tracefs and no kprobe PMU)");
	pa_kprobe_attr(pa_syscall_symbol("getppid"), false);	/* SKIPs without the PMU */
	pa_kprobe_attr(pa_syscall_symbol("getppid"), true);
	pa_kprobe_attr(pa_syscall_symbol("getpid"), true);
	fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_TRUE(fd >= 0);
	ASSERT_GT(dprintf(fd, "kprobe-syscall commit_creds\nkprobe-syscall ../getppid\nkprobe-syscall\n"), 0);
	close(fd);
}
