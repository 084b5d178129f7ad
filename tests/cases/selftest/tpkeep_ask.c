#include "perfabi.h"

#include <fcntl.h>

/* Harness self-test (runner/tpkeep.c, tests/integration/tp_keep.sh): names
 * tracepoints to the runner: sched:sched_switch (kept), ftrace:function
 * (never kept), one the kernel does not have, and lines of junk. */
PERFABI_CASE(.assertion = "selftest: names sched:sched_switch to the runner to keep") {
	const char *fifo = getenv("PERFABI_TRACEPOINT_KEEP");
	int fd;

	if (!fifo)
		pa_skip("no $PERFABI_TRACEPOINT_KEEP: this runner keeps no tracepoint (not root, or no tracefs)");
	if (pa_tracepoint_id("sched", "sched_switch") < 0)
		pa_skip("no sched:sched_switch tracepoint");
	pa_tracepoint_id("sched", "sched_switch");	/* twice: kept once */
	pa_tracepoint_id("ftrace", "function");
	fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_TRUE(fd >= 0);
	ASSERT_GT(dprintf(fd, "perfabi_nosuch nosuch_event\njunk\n\nsched\n"), 0);
	close(fd);
}
