#include "perfabi.h"

#include <sys/wait.h>

struct comm_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
	char comm[];
};

PERFABI_CASE(
	.assertion = "attr.comm_exec: the COMM record an exec() produces has PERF_RECORD_MISC_COMM_EXEC set in misc and the new program's name",
	.ref = "perf_event_open(2), comm_exec (3.16): \"flag comm events that are due to an exec\" with PERF_RECORD_MISC_COMM_EXEC",
	.covers = "attr.comm_exec record.COMM",
	.min_kernel = "3.16",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct comm_rec *c = NULL;
	struct pa_ring r;
	int fd, p[2], st;
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
	while ((h = pa_ring_find(&r, PERF_RECORD_COMM))) {
		c = (const struct comm_rec *)h;
		if (c->pid == (uint32_t)child)
			break;
	}
	ASSERT_TRUE(h != NULL);
	EXPECT_TRUE(h->misc & PERF_RECORD_MISC_COMM_EXEC);
	EXPECT_TRUE(strcmp(c->comm, "true") == 0);
}
