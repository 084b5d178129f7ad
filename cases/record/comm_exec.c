#include "perfabi.h"

#include <sys/wait.h>

PERFABI_CASE(
	.assertion = "attr.comm_exec: the exec() of a task (its only comm change) produces exactly one COMM record, with misc exactly PERF_RECORD_MISC_COMM_EXEC, pid and tid the task's, and the new program's name NUL-padded (24 bytes for \"true\")",
	.ref = "perf_event_open(2), comm_exec (3.16): \"flag comm events that are due to an exec\" with PERF_RECORD_MISC_COMM_EXEC",
	.covers = "attr.comm_exec record.COMM",
	.min_kernel = "3.16",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	struct pa_ring r;
	int fd, p[2], st, n = 0;
	pid_t child;
	char go = 'x';

	if (access("/bin/true", X_OK))
		pa_skip("/bin/true is not there to exec");
	ASSERT_OK(pipe(p));
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		close(p[1]);
		if (read(p[0], &go, 1) != 1)
			_exit(2);
		execl("/bin/true", "true", (char *)NULL);
		_exit(3);
	}
	close(p[0]);
	attr.disabled = 0;
	attr.comm = 1;
	attr.comm_exec = 1;
	fd = ASSERT_OPEN(&attr, child, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	ASSERT_EQ(write(p[1], &go, 1), 1);
	ASSERT_EQ(waitpid(child, &st, 0), child);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* exec() is the child's only comm change: exactly one COMM record,
	 * {header, pid, tid, "true\0" padded to 8} = 24 bytes, no trailer */
	while ((h = pa_ring_find(&r, PERF_RECORD_COMM))) {
		const struct pa_comm_rec *cr = (const struct pa_comm_rec *)h;

		if (cr->pid != (uint32_t)child)
			continue;
		if (n++ == 0) {
			EXPECT_EQ(h->misc, PERF_RECORD_MISC_COMM_EXEC);	/* and nothing else */
			EXPECT_EQ(cr->tid, (uint32_t)child);
			EXPECT_EQ(h->size, sizeof(struct perf_event_header) + 8 + 8);
			EXPECT_TRUE(memcmp(cr->comm, "true\0\0\0\0", 8) == 0);
		}
	}
	EXPECT_EQ(n, 1);
}
